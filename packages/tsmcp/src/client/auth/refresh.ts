/**
 * Tokens from a token endpoint response, as the client keeps them, and the refresh token grant
 * (with the `resource` parameter) through oauth4webapi; a rotated refresh token replaces the old
 * one, and the old one stays when the server issues none. Spec: basic/authorization §Refresh
 * Tokens; OAuth 2.1 §4.3, RFC 8707 §2.
 */
import * as oauth from "oauth4webapi";
import { type OAuthHttp, requestOptions } from "./http.js";
import type { IdentifiedClient } from "./registration.js";
import type { OAuthTokens } from "./token-store.js";

/**
 * What to keep of a token response: `requestedScope` stands for the granted one when the server
 * does not say, `previousRefreshToken` for the refresh token when it issues none.
 */
export function tokensFrom(
  response: oauth.TokenEndpointResponse,
  requestedScope: string | undefined,
  previousRefreshToken: string | undefined,
): OAuthTokens {
  const refreshToken = response.refresh_token ?? previousRefreshToken;
  const scope = response.scope ?? requestedScope;
  return {
    accessToken: response.access_token,
    tokenType: response.token_type,
    ...(refreshToken === undefined ? {} : { refreshToken }),
    ...(response.expires_in === undefined ? {} : { expiresAtMs: Date.now() + response.expires_in * 1000 }),
    ...(scope === undefined ? {} : { scope }),
  };
}

/**
 * Runs the refresh token grant for `tokens` (which must hold a refresh token), with a DPoP proof
 * when `dpop` is given (a DPoP-bound refresh token needs one, RFC 9449 §5).
 *
 * @throws what oauth4webapi throws for a refusal or a bad response; OAuthResponseTooLargeError for
 *   a token response over `http.maxResponseBytes`; OAuthError "timeout"; OAuthError "token" naming
 *   the token request and its URL when it fails on the network; the signal's reason.
 */
export async function refreshTokens(
  http: OAuthHttp,
  as: oauth.AuthorizationServer,
  identified: IdentifiedClient,
  resource: string,
  tokens: OAuthTokens,
  dpop?: oauth.DPoPHandle,
): Promise<OAuthTokens> {
  const refreshToken = tokens.refreshToken as string;
  const refresh = async () => {
    const response = await oauth.refreshTokenGrantRequest(
      as,
      identified.client,
      identified.auth,
      refreshToken,
      {
        ...requestOptions(http, as.token_endpoint),
        ...(dpop === undefined ? {} : { DPoP: dpop }),
        additionalParameters: { resource },
      },
    );
    return oauth.processRefreshTokenResponse(as, identified.client, response);
  };
  // A `use_dpop_nonce` refusal is answered once, with the nonce the handle kept (RFC 9449 §8).
  const processed = await refresh().catch((error: unknown) => {
    if (!oauth.isDPoPNonceError(error)) throw error;
    return refresh();
  });
  return tokensFrom(processed, tokens.scope, refreshToken);
}
