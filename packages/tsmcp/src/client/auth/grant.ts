/**
 * The seam between the provider (discovery, client identity, token keeping, challenges) and the
 * way tokens are first obtained: a grant. The authorization code grant with PKCE is the one for a
 * user; a grant for a client acting on its own behalf (client credentials, a JWT bearer assertion,
 * a token exchange) fits the same interface, and a sender-constrained (DPoP) provider hands its
 * proof handle to every grant through the context. Spec: basic/authorization §Authorization Flow
 * Steps; OAuth 2.1 §4.
 */
import type * as oauth from "oauth4webapi";
import type { OAuthHttp, OAuthRequestOptions } from "./http.js";

/** Everything a grant needs to obtain tokens from one authorization server for one resource. */
export interface GrantContext {
  /** The authorization server's validated metadata. */
  readonly as: oauth.AuthorizationServer;
  /** The client as identified to that server. */
  readonly client: oauth.Client;
  /** How the client authenticates at the token endpoint. */
  readonly clientAuth: oauth.ClientAuth;
  /** The `resource` parameter (RFC 8707): the protected resource's identifier. */
  readonly resource: string;
  /** The scopes to request, space-separated; undefined omits the parameter. */
  readonly scope: string | undefined;
  /** The DPoP handle when tokens are to be sender-constrained (RFC 9449 §5); absent otherwise. */
  readonly dpop?: oauth.DPoPHandle | undefined;
  /** How to make requests (the provider's `fetch`, the MCP request's signal). */
  readonly http: OAuthHttp;
  /** oauth4webapi's request options for a request to `url` (fetch, signal, loopback HTTP). */
  requestOptions(url: string | URL | undefined): OAuthRequestOptions;
}

/** A way to obtain tokens. */
export interface OAuthGrant {
  /**
   * The grant types to register the client with (RFC 7591 `grant_types`), `refresh_token`
   * included when the grant can use refresh tokens.
   */
  readonly grantTypes: readonly string[];
  /** The redirect URIs to register (empty for a grant without a redirect). */
  readonly redirectUris: readonly string[];
  /**
   * Obtains tokens (the token endpoint's response, already checked by oauth4webapi).
   *
   * @throws OAuthError when the grant fails; the signal's reason when it aborts.
   */
  obtain(context: GrantContext): Promise<oauth.TokenEndpointResponse>;
}
