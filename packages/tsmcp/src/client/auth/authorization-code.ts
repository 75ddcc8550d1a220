/**
 * The authorization code grant with PKCE (S256): the authorization URL carries `client_id`,
 * `redirect_uri`, the code challenge, a fresh `state`, the `resource` (RFC 8707) and the chosen
 * scope; the user's step is a callback that takes that URL and gives back the URL the
 * authorization server redirected to; the response is checked (state, RFC 9207 `iss` against the
 * recorded issuer, `error`) before the code goes to the token endpoint with the verifier and the
 * `resource`. All of it through oauth4webapi. Spec: basic/authorization §Authorization Flow Steps,
 * §Authorization Response Validation, §Resource Parameter Implementation; OAuth 2.1 §4.1, §7.5.2
 * (PKCE), RFC 9207 §2.4.
 */
import * as oauth from "oauth4webapi";
import { checkFunction } from "../../protocol/options.js";
import { OAuthError } from "./errors.js";
import type { GrantContext, OAuthGrant } from "./grant.js";
import { endpointProblem, isNamedFailure, stepFailure } from "./http.js";
import { describe } from "./registration.js";

/** What the user's step is given besides the authorization URL. */
export interface RedirectContext {
  /** Aborts when the MCP request that needed authorization is given up (timeout, cancel, close). */
  readonly signal: AbortSignal;
}

/**
 * The user's step: send the user (a browser) to `authorizationUrl`, and resolve with the full URL
 * the authorization server redirected back to (`redirectUri?code=...&state=...&iss=...`), as
 * received: it is checked here, not by the callback. A CLI opens the browser and listens on its
 * loopback redirect URI; a headless client follows the URL itself.
 */
export type RedirectHandler = (
  authorizationUrl: URL,
  context: RedirectContext,
) => Promise<string | URL> | string | URL;

/** Options of an {@link AuthorizationCodeGrant}. */
export interface AuthorizationCodeGrantOptions {
  /**
   * Where the authorization server sends the user back: an absolute URL (a loopback
   * `http://127.0.0.1:<port>/callback` for a CLI, or a private-use scheme for a native app).
   */
  readonly redirectUri: string;
  /** The user's step. */
  readonly redirect: RedirectHandler;
}

/** The authorization code grant with PKCE: a user authorizes the client. */
export class AuthorizationCodeGrant implements OAuthGrant {
  readonly grantTypes = ["authorization_code", "refresh_token"] as const;
  readonly redirectUris: readonly string[];
  readonly #redirectUri: string;
  readonly #redirect: RedirectHandler;

  /**
   * @throws TypeError when `redirectUri` is not an absolute URL or `redirect` is not a function.
   */
  constructor(options: AuthorizationCodeGrantOptions) {
    const owner = "AuthorizationCodeGrant";
    this.#redirectUri = absoluteUrl(owner, "redirectUri", options?.redirectUri);
    if (options.redirect === undefined) throw new TypeError(`${owner} option "redirect" is required`);
    checkFunction(owner, "redirect", options.redirect);
    this.#redirect = options.redirect;
    this.redirectUris = [this.#redirectUri];
  }

  /**
   * Runs the flow.
   *
   * @throws OAuthError "authorization" when the server's `authorization_endpoint` is not `https:`
   *   (or `http:` to a loopback host), the server does not offer PKCE with S256, the user's
   *   step fails, or the response is refused (wrong or missing `state`, an `iss` that is not the
   *   recorded issuer, an `iss` missing where the server promised one, an `error`); "token" when
   *   the token endpoint refuses the code; "timeout" when the MCP request times out during the
   *   user's step or the token request. OAuthResponseTooLargeError for a token response over the
   *   bound.
   */
  async obtain(context: GrantContext): Promise<oauth.TokenEndpointResponse> {
    const { as, client, clientAuth, resource, scope, http } = context;
    if (as.authorization_endpoint === undefined) {
      throw new OAuthError(
        "authorization",
        `the authorization server ${as.issuer} has no authorization_endpoint`,
      );
    }
    // The URL goes to a browser or the platform's opener: only https: (or loopback http:).
    const problem = endpointProblem("authorization_endpoint", as.authorization_endpoint);
    if (problem !== undefined) {
      throw new OAuthError("authorization", `the authorization server ${as.issuer} is refused: ${problem}`);
    }
    if (!as.code_challenge_methods_supported?.includes("S256")) {
      throw new OAuthError(
        "authorization",
        `the authorization server ${as.issuer} does not advertise PKCE with S256 (code_challenge_methods_supported)`,
      );
    }
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    const query = url.searchParams;
    query.set("response_type", "code");
    query.set("client_id", client.client_id);
    query.set("redirect_uri", this.#redirectUri);
    query.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    query.set("code_challenge_method", "S256");
    query.set("state", state);
    query.set("resource", resource);
    if (scope !== undefined) query.set("scope", scope);

    let returned: URL;
    try {
      returned = new URL(await this.#redirect(url, { signal: http.signal }));
    } catch (error) {
      if (http.signal.aborted)
        throw stepFailure(http, "the user's sign-in (the authorization step)", http.signal.reason);
      throw new OAuthError("authorization", `the authorization step failed: ${describe(error)}`, {
        cause: error,
      });
    }
    let parameters: URLSearchParams;
    try {
      // The recorded issuer is `as.issuer`, from metadata whose issuer was checked at discovery.
      parameters = oauth.validateAuthResponse(as, client, returned, state);
    } catch (error) {
      // No cause: oauth4webapi's error holds the response's parameters, the code among them.
      throw new OAuthError("authorization", `the authorization response was refused: ${describe(error)}`);
    }
    const redeem = async () => {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuth,
        parameters,
        this.#redirectUri,
        verifier,
        {
          ...context.requestOptions(as.token_endpoint),
          ...(context.dpop === undefined ? {} : { DPoP: context.dpop }),
          additionalParameters: { resource },
        },
      );
      return oauth.processAuthorizationCodeResponse(as, client, response);
    };
    try {
      // A `use_dpop_nonce` refusal is answered once, with the nonce the handle kept (RFC 9449 §8).
      return await redeem().catch((error: unknown) => {
        if (!oauth.isDPoPNonceError(error)) throw error;
        return redeem();
      });
    } catch (error) {
      if (isNamedFailure(error)) throw error;
      if (http.signal.aborted) throw stepFailure(http, "the token request", http.signal.reason);
      // No cause: oauth4webapi's error may hold the response body, tokens and all.
      throw new OAuthError(
        "token",
        `the token endpoint of ${as.issuer} refused the code: ${describe(error)}`,
      );
    }
  }
}

/**
 * `value` as an absolute URL's text, unchanged.
 *
 * @throws TypeError naming the option otherwise.
 */
export function absoluteUrl(owner: string, option: string, value: unknown): string {
  if (typeof value === "string" && URL.canParse(value)) return value;
  throw new TypeError(`${owner} option "${option}" must be an absolute URL, got ${JSON.stringify(value)}`);
}
