/**
 * Who the client is to an authorization server, in the spec's order of preference: pre-registered
 * credentials; else its Client ID Metadata Document URL as `client_id` when the server advertises
 * `client_id_metadata_document_supported`; else a registration made earlier with this server (by
 * issuer), or a new one by Dynamic Client Registration (RFC 7591). Then how it authenticates at the
 * token endpoint: `client_secret_basic`, `client_secret_post`, `private_key_jwt` or `none`, through
 * oauth4webapi. Spec: basic/authorization/client-registration.
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { isLoopback, isNamedFailure, type OAuthHttp, requestOptions } from "./http.js";
import type { StoredClient, TokenStore } from "./token-store.js";

/** The token endpoint authentication methods the client supports. */
export type TokenEndpointAuthMethod =
  | "client_secret_basic"
  | "client_secret_post"
  | "private_key_jwt"
  | "none";

/** The methods, in the order the client prefers them when registering. */
export const TOKEN_ENDPOINT_AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  "none",
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
];

/** A private key for `private_key_jwt` (RFC 7523): the key, and its `kid` when the server needs one. */
export interface ClientPrivateKey {
  readonly key: oauth.CryptoKey;
  readonly kid?: string;
}

/** Credentials the client was given for an authorization server (pre-registration). */
export interface PreRegisteredClient {
  /** The client identifier. */
  readonly clientId: string;
  /** The client secret, for a confidential client. */
  readonly clientSecret?: string;
  /**
   * How to authenticate at the token endpoint. Default: `private_key_jwt` with `privateKey`, else
   * with a secret the first of `client_secret_basic`, `client_secret_post` the server supports,
   * else `none`.
   */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** The key for `private_key_jwt`. */
  readonly privateKey?: ClientPrivateKey;
  /**
   * The issuer these credentials belong to: they are used only with that authorization server, and
   * another one is an error rather than a silent mismatch. Required with `clientSecret` or
   * `privateKey`, so a secret is never sent to whatever authorization server a server names.
   */
  readonly issuer?: string;
}

/** What the client says about itself when it registers (RFC 7591 §2), beyond what is derived. */
export interface ClientRegistrationOptions {
  /** The human-readable name shown on consent screens. */
  readonly clientName: string;
  /** The redirect URIs (empty for a grant without a redirect). */
  readonly redirectUris: readonly string[];
  /** The grant types it uses (`authorization_code`, `refresh_token`, ...). */
  readonly grantTypes: readonly string[];
  /** `https://` URL of its Client ID Metadata Document, when it has one. */
  readonly clientMetadataUrl?: string;
  /** Its pre-registered credentials, when it has some. */
  readonly preRegistered?: PreRegisteredClient;
  /** Its key for `private_key_jwt` with a metadata document. */
  readonly privateKey?: ClientPrivateKey;
}

/** The client as oauth4webapi takes it, with its token endpoint authentication. */
export interface IdentifiedClient {
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
  /** How it was identified. */
  readonly source: "pre-registered" | "metadata-document" | "registered";
}

/**
 * Identifies the client to `as`.
 *
 * @throws OAuthError "registration" when pre-registered credentials belong to another issuer, or
 *   there is no way to identify the client (no pre-registration, no metadata document support, no
 *   `registration_endpoint`), or registration fails; "timeout" when the MCP request times out
 *   during registration. OAuthResponseTooLargeError for a registration response over
 *   `http.maxResponseBytes`.
 */
export async function identifyClient(
  http: OAuthHttp,
  as: oauth.AuthorizationServer,
  options: ClientRegistrationOptions,
  store: TokenStore,
): Promise<IdentifiedClient> {
  const pre = options.preRegistered;
  if (pre !== undefined) {
    if (pre.issuer !== undefined && pre.issuer !== as.issuer) {
      throw new OAuthError(
        "registration",
        `the pre-registered client is for ${pre.issuer}, but the server's authorization server is ${as.issuer}`,
      );
    }
    const method = pre.tokenEndpointAuthMethod ?? defaultMethod(as, pre.clientSecret, pre.privateKey);
    return {
      client: { client_id: pre.clientId, token_endpoint_auth_method: method },
      auth: clientAuth(method, pre.clientSecret, pre.privateKey),
      source: "pre-registered",
    };
  }
  if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
    const method: TokenEndpointAuthMethod = options.privateKey === undefined ? "none" : "private_key_jwt";
    return {
      client: { client_id: options.clientMetadataUrl, token_endpoint_auth_method: method },
      auth: clientAuth(method, undefined, options.privateKey),
      source: "metadata-document",
    };
  }
  const stored = await store.getClient(as.issuer);
  const registered = stored ?? (await register(http, as, options));
  if (stored === undefined) await store.setClient(as.issuer, registered);
  const method = (registered.token_endpoint_auth_method ?? "client_secret_basic") as TokenEndpointAuthMethod;
  return {
    client: { ...registered, token_endpoint_auth_method: method } as oauth.Client,
    auth: clientAuth(method, registered.client_secret, options.privateKey),
    source: "registered",
  };
}

/** Dynamic Client Registration (RFC 7591 §3). */
async function register(
  http: OAuthHttp,
  as: oauth.AuthorizationServer,
  options: ClientRegistrationOptions,
): Promise<StoredClient> {
  if (as.registration_endpoint === undefined) {
    throw new OAuthError(
      "registration",
      `the authorization server ${as.issuer} offers no way to identify this client: no pre-registered ` +
        "credentials were given, it does not support Client ID Metadata Documents (or none was given), " +
        "and it has no registration_endpoint",
    );
  }
  const supported = methodsSupported(as);
  const method = TOKEN_ENDPOINT_AUTH_METHODS.find(
    (m) => supported.includes(m) && (m !== "private_key_jwt" || options.privateKey !== undefined),
  );
  const metadata: Partial<oauth.OmitSymbolProperties<oauth.Client>> = {
    client_name: options.clientName,
    redirect_uris: [...options.redirectUris],
    grant_types: [...options.grantTypes],
    response_types: options.grantTypes.includes("authorization_code") ? ["code"] : [],
    application_type: applicationType(options.redirectUris),
    ...(method === undefined ? {} : { token_endpoint_auth_method: method }),
  };
  try {
    const response = await oauth.dynamicClientRegistrationRequest(
      as,
      metadata,
      requestOptions(http, as.registration_endpoint, "client registration response"),
    );
    const client = await oauth.processDynamicClientRegistrationResponse(await withSecretExpiry(response));
    return {
      ...client,
      ...(client.token_endpoint_auth_method === undefined && method !== undefined
        ? { token_endpoint_auth_method: method }
        : {}),
    } as StoredClient;
  } catch (error) {
    if (http.signal.aborted || isNamedFailure(error)) throw error;
    // No cause: oauth4webapi's error may hold the response body, an issued secret among it.
    throw new OAuthError("registration", `registration with ${as.issuer} failed: ${describe(error)}`);
  }
}

/**
 * The registration response with `client_secret_expires_at: 0` (never) added when it issued a
 * secret without saying when it expires: RFC 7591 §3.2.1 requires the field, but servers in use
 * leave it out, and a secret without an expiry is one that does not expire.
 */
async function withSecretExpiry(response: Response): Promise<Response> {
  if (response.status !== 201) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const fields = body as Record<string, unknown> | undefined;
  const patched =
    typeof fields === "object" &&
    fields !== null &&
    fields.client_secret !== undefined &&
    fields.client_secret_expires_at === undefined
      ? JSON.stringify({ ...fields, client_secret_expires_at: 0 })
      : text;
  return new Response(patched, { status: response.status, headers: response.headers });
}

/**
 * `native` for a client whose redirect URIs are all loopback or a private scheme (a desktop app,
 * a command-line tool), `web` otherwise. Spec: basic/authorization/client-registration
 * §Application Type and Redirect URI Constraints.
 */
function applicationType(redirectUris: readonly string[]): "native" | "web" {
  const native = redirectUris.every((uri) => {
    const url = new URL(uri);
    return (url.protocol !== "https:" && url.protocol !== "http:") || isLoopback(url);
  });
  return native ? "native" : "web";
}

/** The server's `token_endpoint_auth_methods_supported`; RFC 8414 §2's default when absent. */
function methodsSupported(as: oauth.AuthorizationServer): readonly string[] {
  return as.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
}

function defaultMethod(
  as: oauth.AuthorizationServer,
  secret: string | undefined,
  privateKey: ClientPrivateKey | undefined,
): TokenEndpointAuthMethod {
  if (privateKey !== undefined) return "private_key_jwt";
  if (secret === undefined) return "none";
  return methodsSupported(as).includes("client_secret_post") &&
    !methodsSupported(as).includes("client_secret_basic")
    ? "client_secret_post"
    : "client_secret_basic";
}

/**
 * oauth4webapi's client authentication for `method`.
 *
 * @throws OAuthError "registration" when the method needs a secret or key the client lacks.
 */
export function clientAuth(
  method: string,
  secret: string | undefined,
  privateKey: ClientPrivateKey | undefined,
): oauth.ClientAuth {
  switch (method) {
    case "none":
      return oauth.None();
    case "client_secret_basic":
    case "client_secret_post":
      if (secret === undefined) {
        throw new OAuthError("registration", `token endpoint authentication ${method} needs a client secret`);
      }
      return method === "client_secret_basic" ? clientSecretBasic(secret) : oauth.ClientSecretPost(secret);
    case "private_key_jwt":
      if (privateKey === undefined) {
        throw new OAuthError(
          "registration",
          "token endpoint authentication private_key_jwt needs a private key",
        );
      }
      return oauth.PrivateKeyJwt(privateKey);
    default:
      throw new OAuthError(
        "registration",
        `token endpoint authentication ${JSON.stringify(method)} is not supported`,
      );
  }
}

/**
 * `client_secret_basic`: HTTP Basic with the client id and secret each form-urlencoded first
 * (RFC 6749 §2.3.1, Appendix B) by the WHATWG `application/x-www-form-urlencoded` serializer, which
 * leaves `-`, `.`, `_` and `*` as they are; oauth4webapi's own encoder also escapes those, which
 * authorization servers that do not decode the pair (many do not) then refuse.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    const encode = (value: string) => new URLSearchParams([["", value]]).toString().slice(1);
    headers.set("authorization", `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}

/**
 * An error's message, for wrapping; for an OAuth error response (from an endpoint, or an
 * authorization response such as `error=access_denied`, RFC 6749 §4.1.2.1), its `error` code and
 * description (never a token or a code: those are not in error responses).
 */
export function describe(error: unknown): string {
  if (error instanceof oauth.ResponseBodyError) {
    const description = error.error_description === undefined ? "" : ` (${error.error_description})`;
    return `HTTP ${error.status} ${error.error}${description}`;
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    const description = error.error_description === undefined ? "" : ` (${error.error_description})`;
    return `${error.error}${description}`;
  }
  return error instanceof Error ? error.message : String(error);
}
