/**
 * What the extension grants share: the interface a grant implements (obtain tokens for one
 * resource from one authorization server, without a user at a browser), the client identities
 * they authenticate with at a token endpoint (`client_secret_basic`, `private_key_jwt`, `none`),
 * and the mapping of a token endpoint's refusal to an `OAuthError`. Spec: OAuth 2.1 §2.4 (client
 * authentication), RFC 7523 §2.2 (`private_key_jwt`), RFC 8707 (the `resource` parameter).
 */
import * as oauth from "oauth4webapi";
import { isObject, optionError, optionTypeError } from "../../../protocol/options.js";
import { OAuthError } from "../errors.js";
import type { OAuthRequestOptions } from "../http.js";

/** Everything a grant needs to obtain tokens from one authorization server for one resource. */
export interface ExtensionGrantContext {
  /** The authorization server's validated metadata (RFC 8414). */
  readonly as: oauth.AuthorizationServer;
  /** The `resource` parameter (RFC 8707): the resource identifier as its metadata publishes it. */
  readonly resource: string;
  /** The scopes to request, space-separated; undefined omits the parameter. */
  readonly scope: string | undefined;
  /** The DPoP handle when tokens are to be sender-constrained (RFC 9449 §5); absent otherwise. */
  readonly dpop?: oauth.DPoPHandle | undefined;
  /** oauth4webapi's request options for a request to `url` (fetch, signal, loopback HTTP). */
  requestOptions(url: string | URL | undefined): OAuthRequestOptions;
}

/**
 * A way to obtain tokens without a user: client credentials, a JWT bearer assertion, ... It
 * brings its own client identity (these grants need a client registered beforehand).
 */
export interface ExtensionGrant {
  /** The grant types it sends at the authorization server's token endpoint (RFC 7591 `grant_types`). */
  readonly grantTypes: readonly string[];
  /** The redirect URIs to register: none, these grants have no redirect. */
  readonly redirectUris: readonly string[];
  /**
   * Obtains tokens (the token endpoint's response, checked by oauth4webapi).
   *
   * @throws OAuthError "token" when a token endpoint refuses or answers no usable token (its
   *   `error` code in the message, and no `cause`: a response body may hold tokens); the signal's
   *   reason when it aborts.
   */
  obtain(context: ExtensionGrantContext): Promise<oauth.TokenEndpointResponse>;
}

/**
 * How a client is identified and authenticated at a token endpoint:
 * - `{ clientId, clientSecret }`: `client_secret_basic` (OAuth 2.1 §2.4.1);
 * - `{ clientId, privateKey }`: `private_key_jwt` (RFC 7523 §2.2), a signed assertion whose `iss`
 *   and `sub` are the client id and whose `aud` is the authorization server's issuer; `kid` names
 *   the key when the server holds several;
 * - `{ clientId }`: `none`, the client id in the body (a public client).
 *
 * `issuer` is the authorization server the client is registered with: its credentials are used
 * only there, and another one is refused (OAuthError "registration"). Required with a secret or a
 * key, so they never go to whatever authorization server a server names; optional otherwise.
 */
export type ClientIdentity =
  | { readonly clientId: string; readonly clientSecret: string; readonly issuer: string }
  | {
      readonly clientId: string;
      readonly privateKey: oauth.CryptoKey;
      readonly kid?: string;
      readonly issuer: string;
    }
  | { readonly clientId: string; readonly issuer?: string };

/**
 * Checks a client identity option.
 *
 * @throws TypeError naming `owner` and `option` when it is no object, `clientId` is no non-empty
 *   string, `clientSecret` is no string, `privateKey` is no private `CryptoKey`, both a secret
 *   and a key are given, or (unless `issuerOptional`, for a client whose token endpoint is
 *   configured, not discovered) a secret or a key comes without its `issuer`.
 */
export function checkClientIdentity(
  owner: string,
  option: string,
  value: unknown,
  issuerOptional = false,
): ClientIdentity {
  if (!isObject(value)) throw optionTypeError(owner, option, "an object with a clientId");
  const { clientId, clientSecret, privateKey, kid, issuer } = value;
  if (issuer !== undefined && (typeof issuer !== "string" || !URL.canParse(issuer)))
    throw optionTypeError(owner, `${option}.issuer`, "an absolute URL");
  if (typeof clientId !== "string" || clientId === "")
    throw optionTypeError(owner, `${option}.clientId`, "a non-empty string");
  if (clientSecret !== undefined && typeof clientSecret !== "string")
    throw optionTypeError(owner, `${option}.clientSecret`, "a string");
  if (privateKey !== undefined && !(isObject(privateKey) && privateKey.type === "private"))
    throw optionTypeError(owner, `${option}.privateKey`, "a private CryptoKey");
  if (kid !== undefined && typeof kid !== "string") throw optionTypeError(owner, `${option}.kid`, "a string");
  if (clientSecret !== undefined && privateKey !== undefined)
    throw optionError(owner, option, "must have a clientSecret or a privateKey, not both");
  if (!issuerOptional && issuer === undefined && (clientSecret !== undefined || privateKey !== undefined))
    throw new TypeError(
      `${owner} option "${option}.issuer" is required with a clientSecret or privateKey: the credentials ` +
        "are sent only to the authorization server they were issued by",
    );
  return value as ClientIdentity;
}

/**
 * @throws OAuthError "registration" when `identity` belongs to another authorization server than
 *   `as`: its credentials are not sent there.
 */
export function checkIssuer(identity: ClientIdentity, as: oauth.AuthorizationServer): void {
  if (identity.issuer !== undefined && identity.issuer !== as.issuer) {
    throw new OAuthError(
      "registration",
      `the client ${identity.clientId} is registered with ${identity.issuer}, but the server's authorization server is ${as.issuer}`,
    );
  }
}

/** One credential, application/x-www-form-urlencoded as the WHATWG URL standard serializes it. */
function formEncoded(value: string): string {
  return new URLSearchParams([["", value]]).toString().slice(1);
}

/**
 * `client_secret_basic` (OAuth 2.1 §2.4.1): the client id and secret, each form-urlencoded, joined
 * by a colon and base64-encoded in the `Authorization` header. The WHATWG serializer leaves
 * `-._*` as they are, as most servers expect; oauth4webapi's own encoder escapes them too, which
 * servers that compare the credentials without decoding them refuse.
 */
function clientSecretBasic(clientSecret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const credentials = `${formEncoded(client.client_id)}:${formEncoded(clientSecret)}`;
    headers.set("authorization", `Basic ${btoa(credentials)}`);
  };
}

/** The oauth4webapi client and client authentication for an identity. */
export function clientOf(identity: ClientIdentity): { client: oauth.Client; clientAuth: oauth.ClientAuth } {
  const client: oauth.Client = { client_id: identity.clientId };
  if ("clientSecret" in identity) return { client, clientAuth: clientSecretBasic(identity.clientSecret) };
  if ("privateKey" in identity) {
    const key =
      identity.kid === undefined ? identity.privateKey : { key: identity.privateKey, kid: identity.kid };
    return { client, clientAuth: oauth.PrivateKeyJwt(key) };
  }
  return { client, clientAuth: oauth.None() };
}

/** The token request options for a grant: the context's request options and its DPoP handle. */
export function tokenRequestOptions(
  context: ExtensionGrantContext,
  as: oauth.AuthorizationServer = context.as,
): oauth.TokenEndpointRequestOptions {
  return {
    ...context.requestOptions(as.token_endpoint),
    ...(context.dpop === undefined || as !== context.as ? {} : { DPoP: context.dpop }),
  };
}

/** The `resource` and `scope` parameters every grant sends. */
export function resourceParameters(context: ExtensionGrantContext): Record<string, string> {
  return { resource: context.resource, ...(context.scope === undefined ? {} : { scope: context.scope }) };
}

/**
 * Runs a token request and its response check. A `use_dpop_nonce` refusal (RFC 9449 §8) runs it
 * once more: oauth4webapi's DPoP handle has kept the server's nonce and puts it in the new proof.
 * Any other refusal becomes an `OAuthError` "token" that names the endpoint and the server's
 * `error` code (never a token). oauth4webapi's error is not kept as its cause: it may hold the
 * response body, tokens and all.
 */
export async function tokenRequest<T>(endpoint: string | undefined, run: () => Promise<T>): Promise<T> {
  try {
    try {
      return await run();
    } catch (error) {
      if (!oauth.isDPoPNonceError(error)) throw error;
      return await run();
    }
  } catch (error) {
    if (error instanceof OAuthError) throw error;
    if (error instanceof oauth.ResponseBodyError) {
      const description = error.error_description === undefined ? "" : ` (${error.error_description})`;
      throw new OAuthError("token", `the token endpoint ${endpoint} refused: ${error.error}${description}`);
    }
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      // A refused client authentication may come as a 401 challenge instead (RFC 6749 §5.2).
      const code = error.cause.map((challenge) => challenge.parameters.error).find((e) => e !== undefined);
      throw new OAuthError(
        "token",
        `the token endpoint ${endpoint} refused: ${code ?? `HTTP ${error.status}`}`,
      );
    }
    if (error instanceof oauth.OperationProcessingError || error instanceof oauth.UnsupportedOperationError) {
      throw new OAuthError(
        "token",
        `the token endpoint ${endpoint} answered no usable token: ${error.message}`,
      );
    }
    throw error;
  }
}
