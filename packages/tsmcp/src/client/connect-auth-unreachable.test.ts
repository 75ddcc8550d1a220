/**
 * `Client.connect` to a protected server whose authorization server cannot be reached (nothing
 * listens on its port): the failure is an `OAuthError` that names the step (a metadata,
 * registration or token request) and its URL, with the step's reason and the network error as its
 * `cause`. A scripted protected resource and authorization server on 127.0.0.1; the unreachable
 * endpoints are on a port that was bound and closed again.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as oauth from "oauth4webapi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TransportError } from "../transport/transport.js";
import { OAuthError } from "./auth/errors.js";
import { clientCredentialsGrant } from "./auth/extensions/client-credentials.js";
import { GrantAuthorization } from "./auth/extensions/grant-authorization.js";
import type { OAuthHttp } from "./auth/http.js";
import { OAuthClientProvider } from "./auth/provider.js";
import { refreshTokens } from "./auth/refresh.js";
import { Client } from "./client.js";

const TIMEOUT_MS = 5000;
const REDIRECT_URI = "http://127.0.0.1:8765/callback";

let server: Server;
let origin: string;
/** An origin on 127.0.0.1 where nothing listens. */
let closed: string;
/** The issuer the protected resource metadata names. */
let issuer: string;
/** The authorization server metadata served at this origin's well-known URL. */
let asMetadata: Record<string, unknown>;

function json(res: ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function route(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", origin);
  switch (url.pathname) {
    case "/mcp":
      res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${origin}/prm"` });
      return void res.end();
    case "/prm":
      return void json(res, { resource: `${origin}/mcp`, authorization_servers: [issuer] });
    case "/.well-known/oauth-authorization-server":
      return void json(res, asMetadata);
    default:
      res.writeHead(404).end();
  }
}

async function closedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

beforeEach(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => route(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closed = await closedOrigin();
  issuer = origin;
  asMetadata = {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${closed}/token`,
    registration_endpoint: `${closed}/register`,
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
    grant_types_supported: ["authorization_code", "client_credentials"],
  };
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

/** Expects `error` to be the network failure of a request to a closed port. */
function expectRefused(error: unknown): void {
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).cause).toMatchObject({ code: "ECONNREFUSED" });
}

/** The authorization code grant's user step: consents at once, echoing the request's state. */
function consent(url: URL): string {
  return `${REDIRECT_URI}?code=the-code&state=${url.searchParams.get("state")}`;
}

function connect(auth: OAuthClientProvider | GrantAuthorization): Promise<unknown> {
  return Client.connect(`${origin}/mcp`, { auth, timeoutMs: TIMEOUT_MS }).then(
    () => expect.fail("connected"),
    (e: unknown) => e,
  );
}

describe("Client.connect when the authorization server cannot be reached", () => {
  it("names the authorization server metadata request and its URL, with reason discovery", async () => {
    issuer = closed;
    const auth = new OAuthClientProvider({
      redirectUri: REDIRECT_URI,
      redirect: consent,
      client: { clientId: "pre-registered" },
    });
    const error = await connect(auth);
    const url = `${closed}/.well-known/oauth-authorization-server`;
    expect((error as Error).message).toMatch(
      new RegExp(
        `^authorization failed: the authorization server metadata request to ${url} failed: connection refused \\(ECONNREFUSED\\)$`,
      ),
    );
    const cause = oauthCause(error);
    expect(cause.reason).toBe("discovery");
    expectRefused(cause.cause);
  });

  it("names the client registration request and its URL, with reason registration", async () => {
    const auth = new OAuthClientProvider({ redirectUri: REDIRECT_URI, redirect: consent });
    const error = await connect(auth);
    expect((error as Error).message).toBe(
      `authorization failed: the client registration request to ${closed}/register failed: connection refused (ECONNREFUSED)`,
    );
    const cause = oauthCause(error);
    expect(cause.reason).toBe("registration");
    expectRefused(cause.cause);
  });

  it("names the token request of the authorization code grant and its URL, with reason token", async () => {
    const auth = new OAuthClientProvider({
      redirectUri: REDIRECT_URI,
      redirect: consent,
      client: { clientId: "pre-registered" },
    });
    const error = await connect(auth);
    expect((error as Error).message).toBe(
      `authorization failed: the token request to ${closed}/token failed: connection refused (ECONNREFUSED)`,
    );
    const cause = oauthCause(error);
    expect(cause.reason).toBe("token");
    expectRefused(cause.cause);
  });

  it("names the token request of a client credentials grant and its URL, with reason token", async () => {
    const auth = new GrantAuthorization({
      grant: clientCredentialsGrant({ client: { clientId: "svc", clientSecret: "s3cret", issuer: origin } }),
    });
    const error = await connect(auth);
    expect((error as Error).message).toBe(
      `authorization failed: the token request to ${closed}/token failed: connection refused (ECONNREFUSED)`,
    );
    const cause = oauthCause(error);
    expect(cause.reason).toBe("token");
    expectRefused(cause.cause);
  });
});

describe("a token refresh when the token endpoint cannot be reached", () => {
  it("fails with an OAuthError token naming the token request and its URL", async () => {
    const http: OAuthHttp = { fetch, signal: new AbortController().signal };
    const as = { issuer: origin, token_endpoint: `${closed}/token` };
    const identified = {
      client: { client_id: "pre-registered" },
      auth: oauth.None(),
      source: "pre-registered" as const,
    };
    const error = await refreshTokens(http, as, identified, `${origin}/mcp`, {
      accessToken: "old",
      tokenType: "Bearer",
      refreshToken: "r",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).reason).toBe("token");
    expect((error as Error).message).toBe(
      `the token request to ${closed}/token failed: connection refused (ECONNREFUSED)`,
    );
    expectRefused((error as Error).cause);
  });
});
