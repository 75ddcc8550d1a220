/**
 * A real OAuth authorization server for tests: `oidc-provider` on 127.0.0.1, issuing access tokens
 * signed with its own keys (JWT, RFC 9068) or opaque ones, publishing its JWKS and answering token
 * introspection over HTTP. Its signing keys can be rotated while it runs; the JWKS fetches are
 * counted. A second client, {@link CLI_CLIENT_ID}, runs the authorization code grant (PKCE,
 * `resource`, refresh tokens that rotate): the user's step needs no person, since the server's own
 * interaction endpoint signs the user in as {@link TestAuthorizationServer.user} and grants every
 * scope asked for.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";
import { memoryAdapter } from "./memory-adapter.js";

/** The one OAuth client both test users sign in with. */
export const CLIENT_ID = "notes-app";
/** The resource server's own client, for introspection. */
export const RESOURCE_CLIENT_ID = "notes-mcp";
export const RESOURCE_CLIENT_SECRET = "notes-mcp-secret-0123456789abcdef";
/** The command-line client that runs the authorization code grant (client_secret_basic). */
export const CLI_CLIENT_ID = "notes-cli";
export const CLI_CLIENT_SECRET = "notes-cli-secret-0123456789abcdef";
/** Its loopback redirect URI (nothing listens there: the callback URL is read from the redirect). */
export const CLI_REDIRECT_URI = "http://127.0.0.1:8765/callback";
/**
 * A pre-registered native client (client_secret_basic) whose loopback redirect URI may come back
 * on any port (RFC 8252 §7.3), for a command line with an ephemeral redirect listener.
 */
export const NATIVE_CLIENT_ID = "notes-native";
export const NATIVE_CLIENT_SECRET = "notes-native-secret-0123456789abcdef";

export interface TestAuthorizationServer {
  readonly issuer: string;
  readonly jwksUri: string;
  readonly introspectionEndpoint: string;
  /** How many times its JWKS was fetched. */
  readonly jwksFetches: number;
  /** How many introspection requests it answered. */
  readonly introspections: number;
  /** How many users it signed in through its interaction endpoint (authorization code grants). */
  readonly authorizations: number;
  /** How many token endpoint requests it answered (code exchanges and refreshes). */
  readonly tokenRequests: number;
  /** Who the interaction endpoint signs in. Default "alice". */
  user: string;
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

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /**
   * Opens Dynamic Client Registration (RFC 7591, no initial access token). A registered `native`
   * client with a loopback redirect URI may then come back on any port (RFC 8252 §7.3). Default false.
   */
  readonly dynamicRegistration?: boolean;
}

function providerWith(issuer: string, keys: JWK[], options: AuthorizationServerOptions): Provider {
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: "notes-app-secret-0123456789abcdef",
        grant_types: ["authorization_code"],
        redirect_uris: ["http://127.0.0.1/callback"],
      },
      {
        client_id: CLI_CLIENT_ID,
        client_secret: CLI_CLIENT_SECRET,
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [CLI_REDIRECT_URI],
      },
      {
        client_id: NATIVE_CLIENT_ID,
        client_secret: NATIVE_CLIENT_SECRET,
        application_type: "native",
        grant_types: ["authorization_code", "refresh_token"],
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
    ttl: { AccessToken: 3600, Grant: 3600, RefreshToken: 3600, Interaction: 600, Session: 600 },
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    cookies: { keys: ["test-cookie-key-0123456789abcdef"] },
    adapter: memoryAdapter(),
    features: {
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client) => client.clientId === RESOURCE_CLIENT_ID,
      },
      devInteractions: { enabled: false },
      registration: { enabled: options.dynamicRegistration === true },
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

export async function startAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  let callback: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let jwksFetches = 0;
  let introspections = 0;
  let authorizations = 0;
  let tokenRequests = 0;
  let user = "alice";
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/jwks")) jwksFetches++;
    if (req.url?.startsWith("/token/introspection")) introspections++;
    else if (req.url?.startsWith("/token")) tokenRequests++;
    if (req.url?.startsWith("/interaction/")) {
      authorizations++;
      finishInteraction(provider, user, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    (callback as (req: IncomingMessage, res: ServerResponse) => void)(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys = [await signingKey("key-1")];
  let provider = providerWith(issuer, keys, options);
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
    get authorizations() {
      return authorizations;
    },
    get tokenRequests() {
      return tokenRequests;
    },
    get user() {
      return user;
    },
    set user(name: string) {
      user = name;
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
      provider = providerWith(issuer, keys, options);
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

/**
 * The interaction endpoint: signs `user` in and grants every scope the authorization request asked
 * for (resource scopes and OpenID ones such as `offline_access`), then lets the provider redirect
 * back to the client.
 */
async function finishInteraction(
  provider: Provider,
  user: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const clientId = String(details.params.client_id);
  const grant =
    (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({ accountId: user, clientId });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(resource, scopes.join(" "));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: user }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}
