/**
 * A real OAuth authorization server for tests: `oidc-provider` on 127.0.0.1, issuing access tokens
 * signed with its own keys (JWT, RFC 9068) or opaque ones, publishing its JWKS and answering token
 * introspection over HTTP. Its signing keys can be rotated while it runs; the JWKS fetches are
 * counted.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/** The one OAuth client both test users sign in with. */
export const CLIENT_ID = "notes-app";
/** The resource server's own client, for introspection. */
export const RESOURCE_CLIENT_ID = "notes-mcp";
export const RESOURCE_CLIENT_SECRET = "notes-mcp-secret-0123456789abcdef";

export interface TestAuthorizationServer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly introspectionEndpoint: string;
  /** How many times its JWKS was fetched. */
  readonly jwksFetches: number;
  /** How many introspection requests it answered. */
  readonly introspections: number;
  /**
   * A real access token for `user` of {@link CLIENT_ID}, issued for `audience` with `scopes`: a JWT
   * signed with the current key, or an opaque token (introspectable).
   */
  issue(
    user: string,
    audience: string,
    scopes: readonly string[],
    format?: "jwt" | "opaque",
  ): Promise<string>;
  /** Starts signing with a fresh key; the JWKS then publishes it first, the old one after. */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}

function providerWith(issuer: string, keys: JWK[]): Provider {
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: "notes-app-secret-0123456789abcdef",
        grant_types: ["authorization_code"],
        redirect_uris: ["http://127.0.0.1/callback"],
      },
      {
        client_id: RESOURCE_CLIENT_ID,
        client_secret: RESOURCE_CLIENT_SECRET,
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: { keys },
    ttl: { AccessToken: 3600, Grant: 3600 },
    cookies: { keys: ["test-cookie-key-0123456789abcdef"] },
    features: {
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client) => client.clientId === RESOURCE_CLIENT_ID,
      },
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx, resource) => ({
          audience: resource,
          scope: "notes:read notes:write",
          accessTokenFormat: "jwt",
        }),
      },
    },
  });
  provider.on("server_error", (_ctx, error) => {
    throw error;
  });
  return provider;
}

export async function startAuthorizationServer(): Promise<TestAuthorizationServer> {
  let callback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let jwksFetches = 0;
  let introspections = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/jwks")) jwksFetches++;
    if (req.url?.startsWith("/token/introspection")) introspections++;
    (callback as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys = [await signingKey("key-1")];
  let provider = providerWith(issuer, keys);
  callback = provider.callback();

  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    introspectionEndpoint: `${issuer}/token/introspection`,
    get jwksFetches() {
      return jwksFetches;
    },
    get introspections() {
      return introspections;
    },
    async issue(user, audience, scopes, format = "jwt") {
      const client = await provider.Client.find(CLIENT_ID);
      if (client === undefined) throw new Error(`no client ${CLIENT_ID}`);
      const resourceServer = {
        audience,
        scope: scopes.join(" "),
        accessTokenFormat: format,
        jwt: { sign: { alg: "RS256" as const } },
      };
      const grant = new provider.Grant({ accountId: user, clientId: CLIENT_ID });
      grant.addResourceScope(audience, scopes.join(" "));
      const token = new provider.AccessToken({
        accountId: user,
        client,
        grantId: await grant.save(),
        gty: "authorization_code",
        scope: scopes.join(" "),
        resourceServer,
      });
      return token.save();
    },
    async rotateKeys() {
      keys.unshift(await signingKey(`key-${keys.length + 1}`));
      provider = providerWith(issuer, keys);
      callback = provider.callback();
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
