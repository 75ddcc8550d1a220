/**
 * The extension grants of the client's OAuth layer: tokens without a user at a browser (client
 * credentials, workload identity through a JWT bearer assertion, enterprise-managed authorization)
 * and DPoP-bound tokens. Spec: the ext-auth extension specifications, SEP-1932, SEP-1933.
 */
export { type ClientCredentialsGrantOptions, clientCredentialsGrant } from "./client-credentials.js";
export { DEFAULT_DPOP_ALGORITHM, DPoPProver } from "./dpop.js";
export {
  type EnterpriseIdentityProvider,
  type EnterpriseManagedGrantOptions,
  enterpriseManagedGrant,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  TOKEN_EXCHANGE_GRANT_TYPE,
} from "./enterprise-managed.js";
export type { ClientIdentity, ExtensionGrant, ExtensionGrantContext } from "./grant.js";
export {
  GrantAuthorization,
  type GrantAuthorizationOptions,
  TOKEN_EXPIRY_MARGIN_MS,
} from "./grant-authorization.js";
export { JWT_BEARER_GRANT_TYPE, type JwtBearerGrantOptions, jwtBearerGrant } from "./jwt-bearer.js";
