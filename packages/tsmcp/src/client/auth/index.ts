/**
 * OAuth for connecting to protected MCP servers: `OAuthClientProvider` (pass it as `auth` to
 * `Client.connect`), its grants, token stores and error. Spec: basic/authorization.
 */
export {
  AuthorizationCodeGrant,
  type AuthorizationCodeGrantOptions,
  type RedirectContext,
  type RedirectHandler,
} from "./authorization-code.js";
export type { AuthChallenge } from "./challenge.js";
export { OAuthError, type OAuthErrorReason } from "./errors.js";
export { FileTokenStore, TOKEN_FILE_MODE } from "./file-token-store.js";
export type { GrantContext, OAuthGrant } from "./grant.js";
export type { OAuthHttp, OAuthRequestOptions } from "./http.js";
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
