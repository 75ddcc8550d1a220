/**
 * The protected example as `npm run example -- protected` runs it without configuration: a local
 * authorization server, the 401 challenge and metadata, a scope refusal, then calls as two users.
 */
import { spawn } from "node:child_process";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { stderrOf, warningOfProcessLocalKey } from "../test/helpers/logs.js";
import {
  authorizationServerMetadataUrls,
  createNotesServer,
  discoverJwksUri,
  serveProtected,
} from "./protected.js";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("the protected example", () => {
  it("runs its self-contained demo and exits cleanly", async () => {
    const env = { ...process.env };
    delete env.MCP_ISSUER;
    const child = spawn(process.execPath, ["--import", "tsx", "examples/run.ts", "protected"], {
      cwd: root,
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    onTestFinished(() => {
      child.kill("SIGKILL");
    });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^notes listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(lines[1]).toMatch(
      /^without a token: 401 Bearer scope="notes:read", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"$/,
    );
    expect(lines.slice(2)).toEqual([
      "metadata names the authorization server: true",
      "alice (notes:read): No notes yet, alice.",
      "alice (notes:read) adds a note: Forbidden: insufficient scope",
      "alice (notes:read notes:write): Added a note for alice.",
      "bob (notes:read): alice: hello",
    ]);
  }, 60_000);
});

describe("the protected example's configured mode", () => {
  it("looks for the metadata of an issuer with a path where RFC 8414 puts it, then OpenID Connect's", () => {
    expect(authorizationServerMetadataUrls("https://id.example.com/realms/notes")).toEqual([
      "https://id.example.com/.well-known/oauth-authorization-server/realms/notes",
      "https://id.example.com/.well-known/openid-configuration/realms/notes",
      "https://id.example.com/realms/notes/.well-known/openid-configuration",
    ]);
    expect(authorizationServerMetadataUrls("https://auth.example.com/")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });

  it("finds the jwks_uri of an issuer with a path over HTTP", async () => {
    const asked: string[] = [];
    const as = createServer((req, res) => {
      asked.push(req.url as string);
      if (req.url !== "/realms/notes/.well-known/openid-configuration") {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jwks_uri: "https://id.example.com/realms/notes/certs" }));
    });
    await new Promise<void>((resolve) => as.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => as.close(() => resolve())));
    const issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}/realms/notes`;
    expect(await discoverJwksUri(issuer)).toBe("https://id.example.com/realms/notes/certs");
    expect(asked).toEqual([
      "/.well-known/oauth-authorization-server/realms/notes",
      "/.well-known/openid-configuration/realms/notes",
      "/realms/notes/.well-known/openid-configuration",
    ]);
  });

  it("accepts requests naming the resource's hostname in Host", async () => {
    const handle = await warningOfProcessLocalKey(() =>
      serveProtected(createNotesServer(), {
        issuer: "https://auth.example.com",
        jwksUri: "https://auth.example.com/jwks",
        resource: "https://notes.example.com/mcp",
        port: 0,
      }),
    );
    onTestFinished(() => handle.close());
    const status = (host: string) =>
      new Promise<number | undefined>((resolve, reject) => {
        const sent = request(
          { host: "127.0.0.1", port: handle.port, path: "/mcp", method: "POST", headers: { Host: host } },
          (res) => {
            res.resume();
            resolve(res.statusCode);
          },
        );
        sent.on("error", reject);
        sent.end("{}");
      });
    // Unauthenticated, so 401 with the challenge; a host that is not the resource's stays 403.
    expect(await status("notes.example.com")).toBe(401);
    expect(await status(`127.0.0.1:${handle.port}`)).toBe(401);
    const { result: foreign, lines } = await stderrOf(() => status("evil.example.com"));
    expect(foreign).toBe(403);
    expect(lines).toEqual([
      '[tsmcp] warn Streamable HTTP refused a request: Host not allowed (see allowedHosts) {"host":"evil.example.com"}',
    ]);
  });
});
