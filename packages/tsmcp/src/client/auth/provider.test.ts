/**
 * `OAuthClientProvider` against a small protected resource and authorization server on 127.0.0.1
 * (scripted, to reach what a certified server never does: metadata for another resource, a wrong
 * `iss`), its options checked when built, its defaults, and the scope union of a step-up. The full
 * flows run against oidc-provider in test/e2e/oauth-client.test.ts.
 */
import {
  createServer,
  type IncomingMessage,
  type Server as NodeServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { HttpClientTransport } from "../../transport/http/client/client.js";
import { TransportError } from "../../transport/transport.js";
import { OAuthError } from "./errors.js";
import {
  DEFAULT_CLIENT_NAME,
  DEFAULT_MAX_STEP_UPS,
  OAuthClientProvider,
  type OAuthClientProviderOptions,
  TOKEN_REFRESH_MARGIN_MS,
  union,
} from "./provider.js";
import { clientAuth } from "./registration.js";
import { InMemoryTokenStore } from "./token-store.js";

const PING: JSONRPCRequest = { jsonrpc: "2.0", id: 1, method: "ping", params: {} };
const REDIRECT_URI = "http://127.0.0.1:8765/callback";

/** What the scripted servers do and saw. */
interface Script {
  prmResource?: string;
  iss?: "right" | "wrong";
  refuseToken?: boolean;
  /** The token endpoint's answer instead of the usual token. */
  tokenBody?: Record<string, unknown>;
  /** Answer the authorization request with another `state`. */
  wrongState?: boolean;
  /** Answer the authorization request with `error=access_denied`. */
  deny?: boolean;
  /** Issue a client secret without `client_secret_expires_at`, as servers in use do. */
  secretWithoutExpiry?: boolean;
  registrations: number;
  authorizations: URLSearchParams[];
  tokenRequests: URLSearchParams[];
}

let server: NodeServer;
let origin: string;
let script: Script;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function route(req: IncomingMessage, res: ServerResponse, body: string) {
  const url = new URL(req.url ?? "/", origin);
  switch (url.pathname) {
    case "/mcp":
      if (req.headers.authorization === "Bearer at-1")
        return json(res, 200, { jsonrpc: "2.0", id: 1, result: {} });
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` });
      return void res.end();
    case "/prm":
      return json(res, 200, {
        resource: script.prmResource ?? `${origin}/mcp`,
        authorization_servers: [origin],
      });
    case "/.well-known/oauth-authorization-server":
      return json(res, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true,
      });
    case "/register":
      script.registrations++;
      return json(res, 201, {
        client_id: `client-${script.registrations}`,
        token_endpoint_auth_method: "none",
        ...(script.secretWithoutExpiry ? { client_secret: "issued-secret" } : {}),
      });
    case "/authorize": {
      script.authorizations.push(url.searchParams);
      const back = new URL(url.searchParams.get("redirect_uri") as string);
      if (script.deny) {
        back.searchParams.set("error", "access_denied");
        back.searchParams.set("error_description", "the user declined");
      } else back.searchParams.set("code", "code-1");
      back.searchParams.set("state", script.wrongState ? "other" : (url.searchParams.get("state") as string));
      back.searchParams.set("iss", script.iss === "wrong" ? "https://evil.example.com" : origin);
      res.writeHead(302, { location: back.href });
      return void res.end();
    }
    case "/token":
      script.tokenRequests.push(new URLSearchParams(body));
      if (script.refuseToken)
        return json(res, 400, { error: "invalid_grant", error_description: "code used twice" });
      if (script.tokenBody !== undefined) return json(res, 200, script.tokenBody);
      return json(res, 200, { access_token: "at-1", token_type: "Bearer", expires_in: 3600 });
    default:
      res.writeHead(404);
      res.end();
  }
}

beforeEach(async () => {
  script = { registrations: 0, authorizations: [], tokenRequests: [] };
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

/** The user's step without a person: the scripted server redirects at once. */
async function follow(url: URL): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  return response.headers.get("location") as string;
}

function provider(options: Partial<OAuthClientProviderOptions> = {}): OAuthClientProvider {
  return new OAuthClientProvider({ redirectUri: REDIRECT_URI, redirect: follow, ...options });
}

async function ping(auth: OAuthClientProvider): Promise<unknown> {
  const transport = new HttpClientTransport(`${origin}/mcp`, { auth });
  try {
    return await transport.request(PING);
  } catch (error) {
    return error;
  } finally {
    await transport.close();
  }
}

describe("OAuthClientProvider", () => {
  it("authorizes with PKCE S256, state and resource, then sends the token", async () => {
    expect(await ping(provider())).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const [authorization] = script.authorizations as [URLSearchParams];
    expect(authorization.get("code_challenge_method")).toBe("S256");
    expect(authorization.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(authorization.get("state")).toMatch(/^[\w-]+$/);
    expect(authorization.get("resource")).toBe(`${origin}/mcp`);
    expect(authorization.has("scope")).toBe(false);
    const [token] = script.tokenRequests as [URLSearchParams];
    expect(token.get("grant_type")).toBe("authorization_code");
    expect(token.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
    expect(token.get("resource")).toBe(`${origin}/mcp`);
  });

  it("refuses metadata that describes another resource, before any authorization request", async () => {
    script.prmResource = "https://evil.example.com/mcp";
    const error = await ping(provider());
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).cause).toBeInstanceOf(OAuthError);
    expect(((error as TransportError).cause as OAuthError).reason).toBe("resource_mismatch");
    expect(script.authorizations).toHaveLength(0);
  });

  it("refuses an authorization response whose iss is not the issuer: the code never reaches the token endpoint", async () => {
    script.iss = "wrong";
    const error = await ping(provider());
    expect(((error as TransportError).cause as OAuthError).reason).toBe("authorization");
    expect(script.authorizations).toHaveLength(1);
    expect(script.tokenRequests).toHaveLength(0);
  });

  it("registers once with an authorization server and reuses the registration kept in the store", async () => {
    const tokenStore = new InMemoryTokenStore();
    await ping(provider({ tokenStore }));
    tokenStore.setTokens({ issuer: origin, resource: `${origin}/mcp` }, undefined);
    await ping(provider({ tokenStore }));
    expect(script.registrations).toBe(1);
    expect(script.authorizations.map((a) => a.get("client_id"))).toEqual(["client-1", "client-1"]);
  });

  it("never asks the user for the DELETE that closes a session", async () => {
    let asked = 0;
    const auth = provider({
      redirect: (url) => {
        asked++;
        return follow(url);
      },
    });
    const again = await auth.onChallenge({
      status: 401,
      method: "DELETE",
      url: new URL(`${origin}/mcp`),
      attempt: 0,
      signal: new AbortController().signal,
      header: (name) => (name === "www-authenticate" ? `Bearer resource_metadata="${origin}/prm"` : null),
    });
    expect(again).toBe(false);
    expect(asked).toBe(0);
  });

  it("authenticates a pre-registered client with private_key_jwt, an assertion signed for the token endpoint", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const auth = provider({
      client: {
        clientId: "jwt-client",
        tokenEndpointAuthMethod: "private_key_jwt",
        privateKey: { key: privateKey },
        issuer: origin,
      },
    });
    expect(await ping(auth)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const [token] = script.tokenRequests as [URLSearchParams];
    expect(token.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), alg: "ES256" }] });
    const { payload } = await jwtVerify(token.get("client_assertion") as string, jwks, {
      issuer: "jwt-client",
      subject: "jwt-client",
    });
    expect([payload.aud].flat()).toContain(origin);
  });

  it("says what the token endpoint refused, its error code and description", async () => {
    script.refuseToken = true;
    const error = (await ping(provider())) as TransportError;
    expect(error.message).toBe(
      `authorization failed: the token endpoint of ${origin} refused the code: HTTP 400 invalid_grant (code used twice)`,
    );
    expect((error.cause as OAuthError).reason).toBe("token");
  });

  it("keeps no token or code anywhere in the error of a refused token response or authorization response", async () => {
    script.tokenBody = { access_token: "live-access", refresh_token: "live-refresh", token_type: "mac" };
    const refused = (await ping(provider())) as TransportError;
    expect(((refused as TransportError).cause as OAuthError).reason).toBe("token");
    expect(inspect(refused, { depth: 10 })).not.toMatch(/live-access|live-refresh/);
    script.tokenBody = undefined;
    script.wrongState = true;
    const mismatch = (await ping(provider())) as TransportError;
    expect((mismatch.cause as OAuthError).reason).toBe("authorization");
    expect(inspect(mismatch, { depth: 10 })).not.toContain("code-1");
  });

  it("needs the issuer of a pre-registered secret or key, and sends them to no other authorization server", async () => {
    const { privateKey } = await generateKeyPair("ES256");
    expect(() => provider({ client: { clientId: "c", clientSecret: "s" } })).toThrow(
      /option "client.issuer" is required with a clientSecret or privateKey/,
    );
    expect(() => provider({ client: { clientId: "c", privateKey: { key: privateKey } } })).toThrow(
      /"client.issuer" is required/,
    );
    expect(() => provider({ client: { clientId: "c", clientSecret: "s", issuer: 1 as never } })).toThrow(
      /"client.issuer"/,
    );
    expect(() => provider({ client: { clientId: "c" } })).not.toThrow();
    const error = (await ping(
      provider({ client: { clientId: "c", clientSecret: "s", issuer: "https://auth.example.com" } }),
    )) as TransportError;
    expect((error.cause as OAuthError).reason).toBe("registration");
    expect(script.tokenRequests).toHaveLength(0);
  });

  it("steps up at most maxStepUps times per request, counting only the 403s; 0 allows none", async () => {
    const url = new URL(`${origin}/mcp`);
    const forbidden = (signal: AbortSignal, status: 401 | 403, attempt: number) => ({
      status,
      method: "POST" as const,
      url,
      attempt,
      signal,
      header: (name: string) =>
        name === "www-authenticate"
          ? `Bearer error="insufficient_scope", scope="more", resource_metadata="${origin}/prm"`
          : null,
    });
    const none = provider({ maxStepUps: 0 });
    expect(await none.onChallenge(forbidden(new AbortController().signal, 403, 0))).toBe(false);

    const one = provider({ maxStepUps: 1 });
    const signal = new AbortController().signal;
    await one.headers({ method: "POST", url, signal });
    expect(await one.onChallenge(forbidden(signal, 401, 0))).toBe(true);
    await one.headers({ method: "POST", url, signal });
    expect(await one.onChallenge(forbidden(signal, 403, 1))).toBe(true);
    await one.headers({ method: "POST", url, signal });
    expect(await one.onChallenge(forbidden(signal, 403, 2))).toBe(false);
    expect(script.authorizations).toHaveLength(2);
  });

  it("names the authorization response's error and its description when the user declines", async () => {
    script.deny = true;
    const error = (await ping(provider())) as TransportError;
    expect((error.cause as OAuthError).reason).toBe("authorization");
    expect(error.message).toBe(
      "authorization failed: the authorization response was refused: access_denied (the user declined)",
    );
    expect(script.tokenRequests).toHaveLength(0);
  });

  it("takes a registration that issued a secret without saying when it expires", async () => {
    script.secretWithoutExpiry = true;
    expect(await ping(provider())).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(script.registrations).toBe(1);
  });

  it("refuses bad options when built", () => {
    const redirect = follow;
    expect(() => new OAuthClientProvider({ redirectUri: REDIRECT_URI })).toThrow(TypeError);
    expect(() => new OAuthClientProvider({ redirectUri: "not a url", redirect })).toThrow(
      new TypeError('AuthorizationCodeGrant option "redirectUri" must be an absolute URL, got "not a url"'),
    );
    expect(() => provider({ clientMetadataUrl: "http://app.example.com/client.json" })).toThrow(
      new TypeError('OAuthClientProvider option "clientMetadataUrl" must be an https:// URL with a path'),
    );
    expect(() => provider({ clientMetadataUrl: "https://app.example.com/" })).toThrow(TypeError);
    expect(() => provider({ maxStepUps: -1 })).toThrow(RangeError);
    expect(() => provider({ client: { clientId: "" } })).toThrow(
      new TypeError('OAuthClientProvider option "client.clientId" must be a non-empty string'),
    );
    expect(() => provider({ fetch: "fetch" as unknown as typeof fetch })).toThrow(TypeError);
    expect(
      () =>
        new OAuthClientProvider({
          redirectUri: REDIRECT_URI,
          redirect,
          grant: { grantTypes: [], redirectUris: [], obtain: async () => ({}) as never },
        }),
    ).toThrow(TypeError);
  });

  it("pins its defaults", () => {
    expect(DEFAULT_MAX_STEP_UPS).toBe(2);
    expect(TOKEN_REFRESH_MARGIN_MS).toBe(30_000);
    expect(DEFAULT_CLIENT_NAME).toBe("tsmcp client");
  });
});

describe("union", () => {
  it("joins the scopes held and those challenged, each once, in first-seen order", () => {
    expect(union("mcp:basic", "mcp:write")).toBe("mcp:basic mcp:write");
    expect(union("a b", "b c")).toBe("a b c");
    expect(union(undefined, "a")).toBe("a");
    expect(union("", undefined)).toBeUndefined();
  });
});

describe("client_secret_basic", () => {
  it("form-urlencodes the id and secret before Basic, leaving - . _ * as they are", async () => {
    const headers = new Headers();
    const auth = clientAuth("client_secret_basic", "s3cr:et+/é", undefined);
    await auth(
      { issuer: "https://as.example.com" },
      { client_id: "pre-registered_client.1" },
      new URLSearchParams(),
      headers,
    );
    const decoded = atob((headers.get("authorization") as string).slice("Basic ".length));
    expect(decoded).toBe("pre-registered_client.1:s3cr%3Aet%2B%2F%C3%A9");
  });
});
