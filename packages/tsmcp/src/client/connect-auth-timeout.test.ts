/**
 * `Client.connect` to a protected server whose authorization step never ends: the timeout fires
 * once, names the step it interrupted (a metadata request, the user's sign-in), and is not taken
 * for the sign of an older server (no `initialize` follows the `server/discover` probe, so the
 * sign-in runs once). A scripted protected resource and authorization server on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TransportError } from "../transport/transport.js";
import { OAuthError } from "./auth/errors.js";
import { OAuthClientProvider } from "./auth/provider.js";
import { Client } from "./client.js";

/** Short enough to keep the test quick; the steps before the one that hangs take far less. */
const TIMEOUT_MS = 1500;

interface Seen {
  /** The JSON-RPC methods POSTed to the MCP endpoint. */
  methods: string[];
  /** Requests to the authorization server's metadata. */
  metadataRequests: number;
}

let server: Server;
let origin: string;
let seen: Seen;
/** Whether the authorization server's metadata endpoint answers (else it never does). */
let metadataAnswers: boolean;

function json(res: ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function route(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? "/", origin);
  switch (url.pathname) {
    case "/mcp":
      seen.methods.push((JSON.parse(body) as { method: string }).method);
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` });
      return void res.end();
    case "/prm":
      return void json(res, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    case "/.well-known/oauth-authorization-server":
      seen.metadataRequests++;
      // Never answered unless asked to: the request hangs until the client gives up.
      if (!metadataAnswers) return;
      return void json(res, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    default:
      res.writeHead(404).end();
  }
}

beforeEach(async () => {
  seen = { methods: [], metadataRequests: 0 };
  metadataAnswers = false;
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString("utf8");
    });
    req.on("end", () => route(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The OAuthError behind a failed connect. */
function oauthCause(error: unknown): OAuthError {
  expect(error).toBeInstanceOf(TransportError);
  const cause = (error as TransportError).cause;
  expect(cause).toBeInstanceOf(OAuthError);
  return cause as OAuthError;
}

describe("Client.connect with an authorization step that never ends", () => {
  it("names the authorization server metadata request that timed out, and neither initializes nor signs in again", async () => {
    const auth = new OAuthClientProvider({
      redirectUri: "http://127.0.0.1:8765/callback",
      redirect: () => {
        throw new Error("never reached");
      },
      client: { clientId: "pre-registered" },
    });
    const error = await Client.connect(`${origin}/mcp`, { auth, timeoutMs: TIMEOUT_MS }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(
      `authorization failed: the authorization server metadata request to ${origin}/.well-known/oauth-authorization-server ` +
        `timed out: the MCP request that needed authorization reached its timeout (${TIMEOUT_MS} ms)`,
    );
    expect(oauthCause(error).reason).toBe("timeout");
    expect(seen.methods).toEqual(["server/discover"]);
    expect(seen.metadataRequests).toBe(1);
  });

  it("names the user's sign-in when it is what timed out, and asks the user once", async () => {
    metadataAnswers = true;
    let asked = 0;
    const auth = new OAuthClientProvider({
      redirectUri: "http://127.0.0.1:8765/callback",
      // A person who never comes back: waits until the request is given up.
      redirect: (_url, { signal }) => {
        asked++;
        return new Promise<never>((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason)),
        );
      },
      client: { clientId: "pre-registered" },
    });
    const error = await Client.connect(`${origin}/mcp`, { auth, timeoutMs: TIMEOUT_MS }).catch(
      (e: unknown) => e,
    );
    expect(oauthCause(error).reason).toBe("timeout");
    expect((error as Error).message).toMatch(
      /^authorization failed: the user's sign-in \(the authorization step\) timed out/,
    );
    expect(asked).toBe(1);
    expect(seen.methods).toEqual(["server/discover"]);
  });
});
