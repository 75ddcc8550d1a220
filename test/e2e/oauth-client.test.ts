/**
 * The client's OAuth end to end: `oidc-provider` on 127.0.0.1 is the authorization server (its
 * interaction endpoint signs the user in without a person), a tsmcp server behind `bearerAuth` with
 * a JWT verifier is the protected resource, and `Client.connect(url, { auth })` finds its way from
 * the first 401 to a token: discovery, the authorization code grant with PKCE, a multi-round flow
 * after stepping up a scope, refreshes (an expired token, a refused one) with rotated refresh
 * tokens, and a 2025-era session whose every request (POST, GET stream, DELETE) carries the token.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import {
  InMemoryTokenStore,
  OAuthClientProvider,
  type OAuthClientProviderOptions,
  OAuthError,
} from "../../packages/tsmcp/src/client/auth/index.js";
import { Client, type ElicitationCallback } from "../../packages/tsmcp/src/client/index.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";
import { silentLogger } from "../../packages/tsmcp/src/protocol/index.js";
import {
  bearerAuth,
  inputRequired,
  jwtVerifier,
  MCPServer,
  protectedResourceMetadata,
  readElicitation,
} from "../../packages/tsmcp/src/server/index.js";
import { HttpClientTransport } from "../../packages/tsmcp/src/transport/http/client/client.js";
import { resourceMetadataUrl } from "../../packages/tsmcp/src/transport/index.js";
import { TransportError } from "../../packages/tsmcp/src/transport/transport.js";
import {
  CLI_CLIENT_ID,
  CLI_CLIENT_SECRET,
  CLI_REDIRECT_URI,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../helpers/authorization-server.js";

const READ = "notes:read";
const WRITE = "notes:write";

/** `whoami` (needs `notes:read`, as every request does) and a two-round `delete-note` that needs `notes:write`. */
function notesServer(): MCPServer {
  const mcp = new MCPServer("notes", { logger: silentLogger });
  mcp.tool("whoami", {}, (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.clientId}`);
  mcp.tool(
    "delete-note",
    { inputSchema: z.object({ id: z.string() }), requiredScopes: [WRITE] },
    ({ id }, ctx) => {
      const answer = readElicitation(ctx.inputResponses?.confirm, z.object({ ok: z.boolean() }));
      if (answer.status !== "accepted") {
        return inputRequired({
          inputRequests: {
            confirm: {
              method: "elicitation/create",
              params: {
                mode: "form",
                message: `Delete ${id}?`,
                requestedSchema: {
                  type: "object",
                  properties: { ok: { type: "boolean" } },
                  required: ["ok"],
                },
              },
            },
          },
          requestState: `delete:${id}`,
        });
      }
      return `${answer.content.ok ? "deleted" : "kept"} ${id} for ${ctx.auth?.subject}`;
    },
  );
  return mcp;
}

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
 * The user's step without a person: follows the authorization server's redirects (keeping its
 * cookies, through its interaction endpoint) until one goes to the redirect URI, and returns it.
 */
async function signIn(authorizationUrl: URL, { signal }: { signal: AbortSignal }): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      redirect: "manual",
      signal,
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
    if (url.href.startsWith(CLI_REDIRECT_URI)) return url.href;
  }
  throw new Error("too many redirects");
}

const confirm: ElicitationCallback = () => ({ action: "accept", content: { ok: true } });

let as: TestAuthorizationServer;
let notes: HttpServerHandle;
let url: string;

beforeAll(async () => {
  as = await startAuthorizationServer();
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  notes = await serve(notesServer(), {
    port,
    authenticate: bearerAuth({
      verifier: jwtVerifier({ issuer: as.issuer, audience: url, jwksUri: as.jwksUri }),
      requiredScopes: [READ],
      resourceMetadataUrl: resourceMetadataUrl(url),
    }),
    protectedResourceMetadata: protectedResourceMetadata({
      resource: url,
      authorizationServers: [as.issuer],
      scopesSupported: [READ, WRITE],
    }),
  });
});

afterAll(async () => {
  await notes?.close();
  await as?.close();
});

function provider(options: Partial<OAuthClientProviderOptions> = {}): OAuthClientProvider {
  return new OAuthClientProvider({
    redirectUri: CLI_REDIRECT_URI,
    redirect: signIn,
    client: { clientId: CLI_CLIENT_ID, clientSecret: CLI_CLIENT_SECRET, issuer: as.issuer },
    ...options,
  });
}

describe("a client connecting to a protected server with OAuthClientProvider", () => {
  it("authorizes on the first 401, then steps up to notes:write for a multi-round flow", async () => {
    const tokenStore = new InMemoryTokenStore();
    const before = as.authorizations;
    const client = await Client.connect(url, {
      auth: provider({ tokenStore }),
      elicitationCallback: confirm,
    });
    try {
      expect(await textOf(client.callTool("whoami"))).toBe(`alice via ${CLI_CLIENT_ID}`);
      const key = { issuer: as.issuer, resource: url };
      expect(tokenStore.getTokens(key)?.scope?.split(" ")).toContain(READ);
      expect(tokenStore.getTokens(key)?.scope?.split(" ")).not.toContain(WRITE);
      const signIns = as.authorizations;
      expect(signIns).toBeGreaterThan(before);

      expect(await textOf(client.callTool("delete-note", { id: "n1" }))).toBe("deleted n1 for alice");
      expect(as.authorizations).toBeGreaterThan(signIns);
      // The union of the scopes held and those challenged: nothing granted before is lost.
      expect(tokenStore.getTokens(key)?.scope?.split(" ")).toEqual(expect.arrayContaining([READ, WRITE]));
      expect(tokenStore.getTokens(key)?.refreshToken).toEqual(expect.any(String));
    } finally {
      await client.close();
    }
  });

  it("refreshes an access token that has expired before sending it, and keeps the rotated refresh token", async () => {
    const tokenStore = new InMemoryTokenStore();
    const client = await Client.connect(url, { auth: provider({ tokenStore }) });
    try {
      const key = { issuer: as.issuer, resource: url };
      const first = tokenStore.getTokens(key);
      expect(first?.refreshToken).toEqual(expect.any(String));
      tokenStore.setTokens(key, { ...(first as NonNullable<typeof first>), expiresAtMs: Date.now() - 1 });
      const signIns = as.authorizations;
      const tokenRequests = as.tokenRequests;

      expect(await textOf(client.callTool("whoami"))).toBe(`alice via ${CLI_CLIENT_ID}`);
      const refreshed = tokenStore.getTokens(key);
      expect(as.authorizations).toBe(signIns);
      expect(as.tokenRequests).toBe(tokenRequests + 1);
      expect(refreshed?.accessToken).not.toBe(first?.accessToken);
      expect(refreshed?.refreshToken).toEqual(expect.any(String));
      expect(refreshed?.refreshToken).not.toBe(first?.refreshToken);
      expect(refreshed?.expiresAtMs).toBeGreaterThan(Date.now());
    } finally {
      await client.close();
    }
  });

  it("refreshes when the server refuses the access token with 401, without asking the user again", async () => {
    const tokenStore = new InMemoryTokenStore();
    const client = await Client.connect(url, { auth: provider({ tokenStore }) });
    try {
      const key = { issuer: as.issuer, resource: url };
      const first = tokenStore.getTokens(key) as NonNullable<ReturnType<typeof tokenStore.getTokens>>;
      tokenStore.setTokens(key, { ...first, accessToken: "revoked.by.the.server" });
      const signIns = as.authorizations;

      expect(await textOf(client.callTool("whoami"))).toBe(`alice via ${CLI_CLIENT_ID}`);
      expect(as.authorizations).toBe(signIns);
      expect(tokenStore.getTokens(key)?.accessToken).not.toBe("revoked.by.the.server");
    } finally {
      await client.close();
    }
  });

  it("carries the token on every request of a 2025-era session: POSTs, the GET stream, DELETE", async () => {
    const seen: { method: string; authorization: string | null }[] = [];
    const recording: typeof fetch = async (input, init) => {
      seen.push({
        method: init?.method ?? "GET",
        authorization: new Headers(init?.headers).get("authorization"),
      });
      return fetch(input, init);
    };
    const transport = new HttpClientTransport(url, { auth: provider(), fetch: recording });
    const client = await Client.connect(transport, { protocolVersion: "legacy" });
    expect(await textOf(client.callTool("whoami"))).toBe(`alice via ${CLI_CLIENT_ID}`);
    await client.close();

    // The first POST went without a token and was refused 401; every other request carried it.
    expect(seen[0]).toEqual({ method: "POST", authorization: null });
    const rest = seen.slice(1);
    expect(rest.map((r) => r.method)).toEqual(expect.arrayContaining(["POST", "GET", "DELETE"]));
    for (const request of rest) expect(request.authorization).toMatch(/^Bearer \S+$/);
  });

  it("fails the request with the authorization error when the user's step fails", async () => {
    const refused = Client.connect(url, {
      auth: provider({
        redirect: () => {
          throw new Error("the user closed the browser");
        },
      }),
    });
    const error = await refused.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).message).toBe(
      "authorization failed: the authorization step failed: the user closed the browser",
    );
    expect((error as TransportError).cause).toBeInstanceOf(OAuthError);
    expect(((error as TransportError).cause as OAuthError).reason).toBe("authorization");
  });
});

async function textOf(result: Promise<{ content: { type: string; text?: string }[] }>): Promise<string> {
  return (await result).content.map((block) => block.text ?? "").join("");
}
