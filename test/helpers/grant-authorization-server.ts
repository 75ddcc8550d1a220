/**
 * A real authorization server for the client's headless grants: `oidc-provider` on 127.0.0.1 with
 * the client credentials grant (a `client_secret_basic` client and a `private_key_jwt` one),
 * DPoP-bound tokens (optionally demanding its nonce), and two grants registered on it: the JWT
 * bearer grant (RFC 7523) for a workload token or an ID-JAG, and the token exchange (RFC 8693) an
 * enterprise identity provider answers with an ID-JAG, so one server plays both the IdP and the
 * MCP server's authorization server. Access tokens are JWTs for the requested resource. Each token
 * request's grant type is recorded. Tokens name the client (`client_id`, `sub`), not the user.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type CryptoKey,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";
import { memoryAdapter } from "./memory-adapter.js";

export const SECRET_CLIENT_ID = "reporter";
export const SECRET_CLIENT_SECRET = "reporter-secret-0123456789abcdef";
export const KEY_CLIENT_ID = "signer";
/** The workload's client: public, JWT bearer grant only. */
export const WORKLOAD_CLIENT_ID = "worker";
/** The client of the enterprise flow: authenticates with a secret, presents ID-JAGs. */
export const ENTERPRISE_CLIENT_ID = "chat-app";
export const ENTERPRISE_CLIENT_SECRET = "chat-app-secret-0123456789abcdef";
/** The resource scopes every token may carry. */
export const RESOURCE_SCOPES = "notes:read notes:write";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

export interface GrantAuthorizationServer {
  readonly issuer: string;
  readonly jwksUri: string;
  /** The private key of the {@link KEY_CLIENT_ID} client (its public half is registered). */
  readonly clientKey: CryptoKey;
  /** Signs a workload token (as a platform would) with `audience`, default the issuer. */
  workloadToken(audience?: string): Promise<string>;
  /** Signs the ID token single sign-on gave `user` of {@link ENTERPRISE_CLIENT_ID}. */
  idToken(user: string): Promise<string>;
  /** The grant type of each token request, in order. */
  readonly grantTypes: readonly string[];
  close(): Promise<void>;
}

export interface GrantAuthorizationServerOptions {
  /** Demands its DPoP nonce on every DPoP token request (RFC 9449 §8). Default false. */
  requireDPoPNonce?: boolean;
}

function fail(ctx: KoaContextWithOIDC, error: string, description: string): void {
  ctx.status = 400;
  ctx.body = { error, error_description: description };
}

export async function startGrantAuthorizationServer(
  options: GrantAuthorizationServerOptions = {},
): Promise<GrantAuthorizationServer> {
  const client = await generateKeyPair("ES256", { extractable: true });
  const workload = await generateKeyPair("ES256");
  const sso = await generateKeyPair("ES256");
  const idp = await generateKeyPair("ES256");
  const signing: JWK = {
    ...(await exportJWK((await generateKeyPair("RS256", { extractable: true })).privateKey)),
    kid: "as-1",
    alg: "RS256",
    use: "sig",
  };
  const grantTypes: string[] = [];

  const server = createServer((req, res) => callback(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: SECRET_CLIENT_ID,
        client_secret: SECRET_CLIENT_SECRET,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: KEY_CLIENT_ID,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "private_key_jwt",
        token_endpoint_auth_signing_alg: "ES256",
        jwks: { keys: [{ ...(await exportJWK(client.publicKey)), alg: "ES256", use: "sig" }] },
      },
      {
        client_id: WORKLOAD_CLIENT_ID,
        grant_types: [JWT_BEARER],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "none",
      },
      {
        client_id: ENTERPRISE_CLIENT_ID,
        client_secret: ENTERPRISE_CLIENT_SECRET,
        grant_types: [JWT_BEARER, TOKEN_EXCHANGE],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [signing] },
    cookies: { keys: ["test-cookie-key-0123456789abcdef"] },
    adapter: memoryAdapter(),
    // An explicit lifetime: the default one is a function oidc-provider asks to replace.
    ttl: { ClientCredentials: 3600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      dPoP: {
        enabled: true,
        nonceSecret: Buffer.alloc(32, 7),
        requireNonce: () => options.requireDPoPNonce === true,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as unknown as string,
        getResourceServerInfo: (_ctx, resource) => ({
          audience: resource,
          scope: RESOURCE_SCOPES,
          accessTokenFormat: "jwt",
        }),
      },
    },
  });
  provider.on("server_error", (_ctx, error) => {
    throw error;
  });
  provider.use(async (ctx, next) => {
    if (ctx.path === "/token" && ctx.method === "POST") {
      await next();
      const grantType = (ctx.oidc?.params?.grant_type as string | undefined) ?? "?";
      grantTypes.push(grantType);
      return;
    }
    await next();
  });

  /** Issues a JWT access token for the grant's client, the requested resource and scope. */
  async function issue(ctx: KoaContextWithOIDC): Promise<void> {
    const oidc = ctx.oidc;
    const resource = oidc.params?.resource as string | undefined;
    const scope = (oidc.params?.scope as string | undefined) ?? RESOURCE_SCOPES;
    if (resource === undefined || oidc.client === undefined)
      return fail(ctx, "invalid_target", "resource is required");
    const token = new provider.ClientCredentials({ client: oidc.client, scope });
    // oidc-provider's resource server class; its typings leave it out.
    const { ResourceServer } = provider as unknown as {
      ResourceServer: new (identifier: string, info: Record<string, unknown>) => typeof token.resourceServer;
    };
    token.resourceServer = new ResourceServer(resource, {
      audience: resource,
      scope: RESOURCE_SCOPES,
      accessTokenFormat: "jwt",
      jwt: { sign: { alg: "RS256" } },
    });
    const value = await token.save();
    ctx.body = { access_token: value, expires_in: token.expiration, token_type: token.tokenType, scope };
  }

  provider.registerGrantType(
    JWT_BEARER,
    async (ctx, next) => {
      const assertion = ctx.oidc.params?.assertion as string | undefined;
      if (assertion === undefined) return fail(ctx, "invalid_request", "assertion is required");
      try {
        if (decodeProtectedHeader(assertion).typ === "oauth-id-jag+jwt") {
          const { payload } = await jwtVerify(assertion, idp.publicKey, {
            issuer,
            audience: issuer,
            typ: "oauth-id-jag+jwt",
          });
          if (payload.client_id !== ctx.oidc.client?.clientId)
            return fail(ctx, "invalid_grant", "client_id mismatch");
          if (payload.resource !== ctx.oidc.params?.resource)
            return fail(ctx, "invalid_grant", "resource mismatch");
          await issue(ctx);
        } else {
          await jwtVerify(assertion, workload.publicKey, { audience: issuer });
          await issue(ctx);
        }
      } catch (error) {
        return fail(ctx, "invalid_grant", (error as Error).message);
      }
      await next();
    },
    ["assertion", "scope", "resource"],
  );

  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx, next) => {
      const params = (ctx.oidc.params ?? {}) as Record<string, string | undefined>;
      if (
        params.requested_token_type !== ID_JAG ||
        params.subject_token === undefined ||
        params.audience === undefined
      )
        return fail(
          ctx,
          "invalid_request",
          "an ID-JAG exchange needs subject_token, audience and requested_token_type",
        );
      try {
        const { payload } = await jwtVerify(params.subject_token, sso.publicKey, {
          issuer,
          audience: ctx.oidc.client?.clientId,
        });
        const idJag = await new SignJWT({ client_id: ctx.oidc.client?.clientId, resource: params.resource })
          .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" })
          .setIssuer(issuer)
          .setSubject(payload.sub as string)
          .setAudience(params.audience)
          .setIssuedAt()
          .setExpirationTime("5m")
          .setJti(crypto.randomUUID())
          .sign(idp.privateKey);
        ctx.body = { access_token: idJag, issued_token_type: ID_JAG, token_type: "N_A", expires_in: 300 };
      } catch (error) {
        return fail(ctx, "invalid_grant", (error as Error).message);
      }
      await next();
    },
    ["subject_token", "subject_token_type", "requested_token_type", "audience", "resource", "scope"],
  );

  const callback = provider.callback();
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    clientKey: client.privateKey,
    get grantTypes() {
      return grantTypes;
    },
    workloadToken: (audience = issuer) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer("https://workloads.example")
        .setSubject("billing-worker")
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(workload.privateKey),
    idToken: (user) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer(issuer)
        .setSubject(user)
        .setAudience(ENTERPRISE_CLIENT_ID)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(sso.privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
