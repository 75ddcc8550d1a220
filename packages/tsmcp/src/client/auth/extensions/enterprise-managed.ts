/**
 * Enterprise-managed authorization: a user signed in to the client through the enterprise's
 * identity provider (IdP); the client exchanges that identity assertion at the IdP for an Identity
 * Assertion JWT Authorization Grant (ID-JAG, RFC 8693 token exchange), then presents the ID-JAG to
 * the MCP server's authorization server as a JWT bearer grant (RFC 7523). The IdP's policy decides;
 * the user sees no consent screen. Spec: ext-auth enterprise-managed-authorization §4, §5.
 */
import * as oauth from "oauth4webapi";
import {
  checkFunction,
  checkOptionsObject,
  isObject,
  optionTypeError,
  parseHttpUrl,
} from "../../../protocol/options.js";
import { OAuthError } from "../errors.js";
import {
  type ClientIdentity,
  checkClientIdentity,
  checkIssuer,
  clientOf,
  type ExtensionGrant,
  tokenRequest,
  tokenRequestOptions,
} from "./grant.js";
import { JWT_BEARER_GRANT_TYPE, presentAssertion } from "./jwt-bearer.js";

/** The grant type of RFC 8693 §2.1. */
export const TOKEN_EXCHANGE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:token-exchange";
/** The token type of an ID-JAG (the `requested_token_type` and the expected `issued_token_type`). */
export const ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag";
/** The token type of an OpenID Connect ID token (RFC 8693 §3): the default subject token type. */
export const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";

/** The enterprise identity provider, as the client knows it from single sign-on. */
export interface EnterpriseIdentityProvider {
  /** The IdP's token endpoint (where the token exchange goes); an absolute http(s) URL. */
  tokenEndpoint: string;
  /** The IdP's issuer; default the token endpoint's origin. */
  issuer?: string;
  /** The client as registered with the IdP for single sign-on (a secret when the IdP requires one). */
  client: ClientIdentity;
}

/** The options of {@link enterpriseManagedGrant}. */
export interface EnterpriseManagedGrantOptions {
  /** The client as registered with the MCP server's authorization server. */
  client: ClientIdentity;
  /** The IdP the user signed in with. */
  idp: EnterpriseIdentityProvider;
  /** The user's identity assertion (an ID token from single sign-on), read each time tokens are obtained. */
  subjectToken: () => string | Promise<string>;
  /** The assertion's type; default {@link ID_TOKEN_TYPE} (`...:saml2` for a SAML assertion). */
  subjectTokenType?: string;
}

/**
 * A grant that exchanges the user's identity assertion at the IdP for an ID-JAG naming the MCP
 * server's authorization server (`audience`) and resource (`resource`), then presents it there as
 * a JWT bearer grant with the client's own authentication.
 *
 * ```ts
 * const auth = new GrantAuthorization({
 *   grant: enterpriseManagedGrant({
 *     client: { clientId: "chat-app", clientSecret, issuer: "https://auth.example.com" },
 *     idp: { tokenEndpoint: "https://acme.idp.example/oauth2/token", client: { clientId: "chat-sso", clientSecret: ssoSecret } },
 *     subjectToken: () => session.idToken,
 *   }),
 * });
 * ```
 *
 * @throws TypeError when a client is no {@link ClientIdentity}, `idp.tokenEndpoint` (or
 *   `idp.issuer`) is no absolute http(s) URL, or `subjectToken` is no function.
 */
export function enterpriseManagedGrant(options: EnterpriseManagedGrantOptions): ExtensionGrant {
  const owner = "enterpriseManagedGrant";
  const checked = checkOptionsObject(owner, options);
  const identity = checkClientIdentity(owner, "client", checked.client);
  if (!isObject(checked.idp)) throw optionTypeError(owner, "idp", "an object");
  const tokenEndpoint = parseHttpUrl(`${owner} option "idp.tokenEndpoint"`, checked.idp.tokenEndpoint);
  if (checked.idp.issuer !== undefined) parseHttpUrl(`${owner} option "idp.issuer"`, checked.idp.issuer);
  const issuer = (checked.idp.issuer as string | undefined) ?? tokenEndpoint.origin;
  // The IdP's token endpoint is configured, not discovered: its client needs no issuer.
  const idpIdentity = checkClientIdentity(owner, "idp.client", checked.idp.client, true);
  if (checked.subjectToken === undefined) throw new TypeError(`${owner} option "subjectToken" is required`);
  checkFunction(owner, "subjectToken", checked.subjectToken);
  if (checked.subjectTokenType !== undefined && typeof checked.subjectTokenType !== "string")
    throw optionTypeError(owner, "subjectTokenType", "a string");
  const subjectTokenOf = checked.subjectToken;
  const subjectTokenType = checked.subjectTokenType ?? ID_TOKEN_TYPE;
  const idp: oauth.AuthorizationServer = { issuer, token_endpoint: tokenEndpoint.href };
  const { client: idpClient, clientAuth: idpClientAuth } = clientOf(idpIdentity);

  return {
    grantTypes: [JWT_BEARER_GRANT_TYPE],
    redirectUris: [],
    async obtain(context) {
      checkIssuer(identity, context.as);
      const subjectToken = await subjectTokenOf();
      if (typeof subjectToken !== "string" || subjectToken === "") {
        throw new TypeError(`${owner}: the subject token must be a non-empty string`);
      }
      const exchanged = await tokenRequest(idp.token_endpoint, async () => {
        const response = await oauth.genericTokenEndpointRequest(
          idp,
          idpClient,
          idpClientAuth,
          TOKEN_EXCHANGE_GRANT_TYPE,
          {
            requested_token_type: ID_JAG_TOKEN_TYPE,
            audience: context.as.issuer,
            resource: context.resource,
            ...(context.scope === undefined ? {} : { scope: context.scope }),
            subject_token: subjectToken,
            subject_token_type: subjectTokenType,
          },
          tokenRequestOptions(context, idp),
        );
        // An ID-JAG is no access token: RFC 8693 §2.2.1 has it say so with `token_type` `N_A`.
        return oauth.processGenericTokenEndpointResponse(idp, idpClient, response, {
          recognizedTokenTypes: { n_a: () => {} },
        });
      });
      if (exchanged.issued_token_type !== ID_JAG_TOKEN_TYPE) {
        throw new OAuthError(
          "token",
          `the identity provider ${idp.token_endpoint} issued ${JSON.stringify(exchanged.issued_token_type)}, not an ID-JAG`,
        );
      }
      return presentAssertion(context, identity, exchanged.access_token);
    },
  };
}
