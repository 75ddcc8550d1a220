/**
 * The JWT bearer grant (RFC 7523 §2.1): the client presents a JWT another party issued as the
 * grant itself. Workload identity federation uses it with the token a platform issues to the
 * running workload (a Kubernetes service account token, a cloud instance identity), so no
 * long-lived secret is kept. A refusal is final: the grant is neither retried nor replaced by
 * another. Spec: SEP-1933 (workload identity federation), RFC 7523 §2.1, §3.1.
 */
import * as oauth from "oauth4webapi";
import { checkFunction, checkOptionsObject } from "../../../protocol/options.js";
import {
  type ClientIdentity,
  checkClientIdentity,
  checkIssuer,
  clientOf,
  type ExtensionGrant,
  type ExtensionGrantContext,
  resourceParameters,
  tokenRequest,
  tokenRequestOptions,
} from "./grant.js";

/** The grant type of RFC 7523 §2.1. */
export const JWT_BEARER_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The options of {@link jwtBearerGrant}. */
export interface JwtBearerGrantOptions {
  /** The client as registered with the authorization server; `{ clientId }` alone for `none`. */
  client: ClientIdentity;
  /**
   * The assertion to present, read each time tokens are obtained (a platform rotates its workload
   * tokens; read the file or the metadata endpoint here). Given the authorization server, whose
   * issuer the assertion's `aud` must name.
   */
  assertion: (as: oauth.AuthorizationServer) => string | Promise<string>;
}

/**
 * A grant that obtains tokens with `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` and
 * the assertion `options.assertion` gives.
 *
 * ```ts
 * const auth = new GrantAuthorization({
 *   grant: jwtBearerGrant({
 *     client: { clientId: "billing-worker" },
 *     assertion: () => readFile("/var/run/secrets/tokens/mcp", "utf8"),
 *   }),
 * });
 * ```
 *
 * @throws TypeError when `client` is no {@link ClientIdentity} or `assertion` is no function.
 */
export function jwtBearerGrant(options: JwtBearerGrantOptions): ExtensionGrant {
  const owner = "jwtBearerGrant";
  const checked = checkOptionsObject(owner, options);
  const identity = checkClientIdentity(owner, "client", checked.client);
  if (checked.assertion === undefined) throw new TypeError(`${owner} option "assertion" is required`);
  checkFunction(owner, "assertion", checked.assertion);
  const assertionOf = checked.assertion;
  return {
    grantTypes: [JWT_BEARER_GRANT_TYPE],
    redirectUris: [],
    obtain: async (context) => presentAssertion(context, identity, await assertionOf(context.as)),
  };
}

/**
 * Sends one JWT bearer grant request with `assertion` at the context's authorization server.
 *
 * @throws TypeError when `assertion` is no non-empty string; OAuthError "registration" when the
 *   identity belongs to another authorization server, "token" on a refusal.
 */
export function presentAssertion(
  context: ExtensionGrantContext,
  identity: ClientIdentity,
  assertion: unknown,
): Promise<oauth.TokenEndpointResponse> {
  if (typeof assertion !== "string" || assertion === "") {
    throw new TypeError("the JWT bearer assertion must be a non-empty string");
  }
  checkIssuer(identity, context.as);
  const { client, clientAuth } = clientOf(identity);
  return tokenRequest(context.as.token_endpoint, async () => {
    const response = await oauth.genericTokenEndpointRequest(
      context.as,
      client,
      clientAuth,
      JWT_BEARER_GRANT_TYPE,
      { assertion, ...resourceParameters(context) },
      tokenRequestOptions(context),
    );
    return oauth.processGenericTokenEndpointResponse(context.as, client, response);
  });
}
