/**
 * The client credentials grant: a client acting on its own behalf (a service, a scheduled job)
 * obtains tokens with its own credentials, a client secret (`client_secret_basic`) or a signed
 * JWT assertion (`private_key_jwt`), and no user. Spec: ext-auth oauth-client-credentials,
 * OAuth 2.1 §4.2, RFC 7523 §2.2.
 */
import * as oauth from "oauth4webapi";
import { checkOptionsObject } from "../../../protocol/options.js";
import {
  type ClientIdentity,
  checkClientIdentity,
  checkIssuer,
  clientOf,
  type ExtensionGrant,
  resourceParameters,
  tokenRequest,
  tokenRequestOptions,
} from "./grant.js";

/** The options of {@link clientCredentialsGrant}. */
export interface ClientCredentialsGrantOptions {
  /** The client as registered with the authorization server: a secret or a private key. */
  client: ClientIdentity;
}

/**
 * A grant that obtains tokens with `grant_type=client_credentials`, the `resource` parameter, and
 * the scope the challenge or the resource's metadata names.
 *
 * ```ts
 * const auth = new GrantAuthorization({
 *   grant: clientCredentialsGrant({
 *     client: { clientId: "reporter", clientSecret, issuer: "https://auth.example.com" },
 *   }),
 * });
 * ```
 *
 * @throws TypeError when `client` is no {@link ClientIdentity} or has neither a secret nor a key
 *   (the client credentials grant needs a confidential client).
 */
export function clientCredentialsGrant(options: ClientCredentialsGrantOptions): ExtensionGrant {
  const owner = "clientCredentialsGrant";
  const identity = checkClientIdentity(owner, "client", checkOptionsObject(owner, options).client);
  if (!("clientSecret" in identity) && !("privateKey" in identity)) {
    throw new TypeError(`${owner} option "client" must have a clientSecret or a privateKey`);
  }
  const { client, clientAuth } = clientOf(identity);
  return {
    grantTypes: ["client_credentials"],
    redirectUris: [],
    obtain: async (context) => {
      checkIssuer(identity, context.as);
      return tokenRequest(context.as.token_endpoint, async () => {
        const response = await oauth.clientCredentialsGrantRequest(
          context.as,
          client,
          clientAuth,
          resourceParameters(context),
          tokenRequestOptions(context),
        );
        return oauth.processClientCredentialsResponse(context.as, client, response);
      });
    },
  };
}
