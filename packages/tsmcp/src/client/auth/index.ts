/**
 * tsmcp/client/auth: OAuth for connecting to protected MCP servers: `OAuthClientProvider` (pass
 * it as `auth` to `Client.connect`), its grants (authorization code, refresh, and the extension
 * grants: client credentials, JWT bearer, enterprise-managed), DPoP, token stores and `OAuthError`.
 * An entry of its own so `tsmcp/client` stays free of the OAuth library for clients that sign in
 * to nothing. Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization
 */
export {
  AuthorizationCodeGrant,
  type AuthorizationCodeGrantOptions,
  type RedirectContext,
  type RedirectHandler,
} from "./authorization-code.js";
export type { AuthChallenge } from "./challenge.js";
export {
  type OAuthDocument,
  OAuthError,
  type OAuthErrorReason,
  OAuthResponseTooLargeError,
} from "./errors.js";
export {
  type ClientCredentialsGrantOptions,
  type ClientIdentity,
  clientCredentialsGrant,
  DEFAULT_DPOP_ALGORITHM,
  DPoPProver,
  type EnterpriseIdentityProvider,
  type EnterpriseManagedGrantOptions,
  type ExtensionGrant,
  type ExtensionGrantContext,
  enterpriseManagedGrant,
  GrantAuthorization,
  type GrantAuthorizationOptions,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  JWT_BEARER_GRANT_TYPE,
  type JwtBearerGrantOptions,
  jwtBearerGrant,
  TOKEN_EXCHANGE_GRANT_TYPE,
  TOKEN_EXPIRY_MARGIN_MS,
} from "./extensions/index.js";
export { FileTokenStore, TOKEN_FILE_MODE } from "./file-token-store.js";
export type { GrantContext, OAuthGrant } from "./grant.js";
export { DEFAULT_OAUTH_MAX_RESPONSE_BYTES, type OAuthHttp, type OAuthRequestOptions } from "./http.js";
export {
  DEFAULT_CLIENT_NAME,
  DEFAULT_MAX_STEP_UPS,
  OAuthClientProvider,
  type OAuthClientProviderOptions,
  TOKEN_REFRESH_MARGIN_MS,
} from "./provider.js";
export type { ClientPrivateKey, PreRegisteredClient, TokenEndpointAuthMethod } from "./registration.js";
export {
  InMemoryTokenStore,
  type OAuthTokens,
  type StoredClient,
  type TokenKey,
  type TokenStore,
} from "./token-store.js";
