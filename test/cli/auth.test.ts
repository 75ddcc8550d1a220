/**
 * `tsmcp login`, `logout` and a command against a protected server, end to end: `oidc-provider` on
 * 127.0.0.1 is the authorization server (Dynamic Client Registration open; its interaction
 * endpoint signs the user in without a person), a tsmcp server behind `bearerAuth` is the
 * protected resource, and the real `tsmcp` process signs in through its loopback redirect
 * listener, driven by a headless "browser" that follows the printed authorization URL.
 */
import { readdirSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HttpServerHandle, serve } from "tsmcp/node";
import { bearerAuth, jwtVerifier, MCPServer, protectedResourceMetadata } from "tsmcp/server";
import { resourceMetadataUrl } from "tsmcp/transport";
import { silentLogger } from "tsmcp/types";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createProvisioningServer } from "../../examples/mcpserver-provisioning.js";
import {
  NATIVE_CLIENT_ID,
  NATIVE_CLIENT_SECRET,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../helpers/authorization-server.js";
import { httpExample, started, tsmcp } from "./run-cli.js";

/** A TCP port free right now on 127.0.0.1 (the server binds it next; its URL is its resource). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/**
 * The browser without a person: follows the authorization server's redirects (keeping its cookies,
 * through its interaction endpoint) until one leaves for the loopback redirect URI, then loads that
 * page from the command's listener and returns its text.
 */
async function browse(authorizationUrl: string): Promise<string> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  const redirectUri = new URL(url.searchParams.get("redirect_uri") ?? "");
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin === redirectUri.origin && url.pathname === redirectUri.pathname) {
      return (await fetch(url)).text();
    }
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    await response.body?.cancel();
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (location === null) throw new Error(`HTTP ${response.status} from ${url.href} without a redirect`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}

let as: TestAuthorizationServer;
let notes: HttpServerHandle;
let url: string;

beforeAll(async () => {
  as = await startAuthorizationServer({ dynamicRegistration: true });
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  const mcp = new MCPServer("notes", { logger: silentLogger });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject} with ${ctx.auth?.scopes?.join(" ")}`);
  notes = await serve(mcp, {
    port,
    authenticate: bearerAuth({
      verifier: jwtVerifier({ issuer: as.issuer, audience: url, jwksUri: as.jwksUri }),
      requiredScopes: ["notes:read"],
      resourceMetadataUrl: resourceMetadataUrl(url),
    }),
    protectedResourceMetadata: protectedResourceMetadata({
      resource: url,
      authorizationServers: [as.issuer],
      scopesSupported: ["notes:read"],
    }),
  });
});

afterAll(async () => {
  await notes?.close();
  await as?.close();
});

/** Signs in with `tsmcp login` and the headless browser; resolves the run and the page shown. */
async function login(env: Record<string, string>, ...extra: string[]) {
  const running = started(["login", url, "--no-open", ...extra], env);
  const [authorizationUrl = ""] = await running.stderrMatch(/http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/);
  const page = await browse(authorizationUrl);
  return { run: await running.exited, page, authorizationUrl };
}

/** Each test runs the command up to four times in a row, a process each. */
const SEVERAL_PROCESSES = { timeout: 60_000 };

describe("tsmcp against a protected server", () => {
  it(
    "signs in with login, calls with the stored tokens without a browser, and logs out",
    SEVERAL_PROCESSES,
    async () => {
      const home = await mkdtemp(join(tmpdir(), "tsmcp-auth-"));
      const env = { XDG_CONFIG_HOME: home };
      const signedIn = await login(env);
      expect(signedIn.page).toContain("You can close this tab");
      expect(signedIn.run).toMatchObject({ code: 0, stdout: "" });
      expect(signedIn.run.stderr).toContain(`Signed in to ${url}.`);
      // Registered dynamically, with the listener's ephemeral loopback port as its redirect URI.
      expect(new URL(signedIn.authorizationUrl).searchParams.get("redirect_uri")).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/callback$/,
      );

      const dir = join(home, "tsmcp", "tokens");
      const [file] = readdirSync(dir);
      expect(file).toMatch(/^127\.0\.0\.1_\d+_mcp-[0-9a-f]{12}\.json$/);
      expect(statSync(join(dir, file as string)).mode & 0o777).toBe(0o600);
      const authorizations = as.authorizations;

      const call = await tsmcp(["call", url, "whoami"], env);
      expect(call).toMatchObject({ code: 0, stdout: expect.stringMatching(/^alice with .*notes:read/) });
      expect(as.authorizations).toBe(authorizations);

      const logout = await tsmcp(["logout", url], env);
      expect(logout).toMatchObject({ code: 0 });
      expect(logout.stderr).toContain(`Signed out of ${url}.`);
      expect(readdirSync(dir)).toEqual([]);

      const refused = await tsmcp(["call", url, "whoami"], env);
      expect(refused).toMatchObject({ code: 1, stdout: "" });
      expect(refused.stderr).toContain(`not signed in to ${url}`);
      expect(refused.stderr).toContain(`run \`tsmcp login ${url}\``);
      // Refused before registering a client it could not use.
      expect(readdirSync(dir)).toEqual([]);
    },
  );

  it(
    "keeps sign-ins under --config-dir (or TSMCP_CONFIG_DIR), and signs in afresh on a second login",
    SEVERAL_PROCESSES,
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "tsmcp-auth-"));
      const first = await login({}, "--config-dir", dir);
      expect(first.run.code).toBe(0);
      const authorizations = as.authorizations;
      const second = await login({ TSMCP_CONFIG_DIR: dir });
      expect(second.run.code).toBe(0);
      expect(as.authorizations).toBeGreaterThan(authorizations);
      // The client registered by the first login is used again, on another port.
      const clientId = (text: string) => new URL(text).searchParams.get("client_id");
      expect(clientId(second.authorizationUrl)).toBe(clientId(first.authorizationUrl));
      const call = await tsmcp(["--config-dir", dir, "call", url, "whoami"]);
      expect(call).toMatchObject({ code: 0, stdout: expect.stringMatching(/^alice/) });
    },
  );

  it(
    "signs in as a pre-registered client with --client-id, --client-secret and --issuer",
    SEVERAL_PROCESSES,
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "tsmcp-auth-"));
      const client = ["--client-id", NATIVE_CLIENT_ID, "--issuer", as.issuer];
      const signedIn = await login(
        { TSMCP_CLIENT_SECRET: NATIVE_CLIENT_SECRET },
        "--config-dir",
        dir,
        ...client,
      );
      expect(signedIn.run).toMatchObject({ code: 0 });
      expect(new URL(signedIn.authorizationUrl).searchParams.get("client_id")).toBe(NATIVE_CLIENT_ID);
      const call = await tsmcp(["--config-dir", dir, ...client, "call", url, "whoami"], {
        TSMCP_CLIENT_SECRET: NATIVE_CLIENT_SECRET,
      });
      expect(call).toMatchObject({ code: 0, stdout: expect.stringMatching(/^alice/) });
    },
  );

  it("says so when a server asks for no sign-in, and keeps nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tsmcp-auth-"));
    const open = await httpExample(createProvisioningServer());
    const run = await tsmcp(["--config-dir", dir, "login", open, "--no-open"]);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain(`${open} asked for no sign-in.`);
    expect(readdirSync(join(dir, "tokens"))).toEqual([]);
  });

  it("opens no redirect listener for a server that asks for no sign-in: a taken --callback-port is no matter", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tsmcp-auth-"));
    const open = await httpExample(createProvisioningServer());
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = String((taken.address() as AddressInfo).port);
    const run = await tsmcp(["--config-dir", dir, "--callback-port", port, "login", open, "--no-open"]);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toContain(`${open} asked for no sign-in.`);
  });

  it("names the request and URL it could not reach when the authorization server is down", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tsmcp-auth-"));
    const down = `http://127.0.0.1:${await freePort()}`;
    const resource = createHttpServer((req, res) => {
      const at = `http://${req.headers.host}`;
      if (req.url === "/prm") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ resource: `${at}/mcp`, authorization_servers: [down] }));
        return;
      }
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${at}/prm"` }).end();
    });
    await new Promise<void>((resolve) => resource.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => resource.close(() => resolve())));
    const protectedUrl = `http://127.0.0.1:${(resource.address() as AddressInfo).port}/mcp`;
    const run = await tsmcp(["--config-dir", dir, "login", protectedUrl, "--no-open"]);
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toContain(
      `the authorization server metadata request to ${down}/.well-known/oauth-authorization-server failed: connection refused (ECONNREFUSED)`,
    );
  });

  it("exits 2 for a client secret without its issuer", async () => {
    const run = await tsmcp(["login", url, "--client-id", "x", "--client-secret", "y"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--client-secret needs --issuer");
  });
});
