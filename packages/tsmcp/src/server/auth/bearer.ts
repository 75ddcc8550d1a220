/**
 * Bearer-token authentication of the Streamable HTTP server: reads `Authorization: Bearer <token>`,
 * has a {@link TokenVerifier} check it, and answers the OAuth challenges itself: 401 with
 * `WWW-Authenticate: Bearer resource_metadata="..."` when the token is missing or invalid, 403
 * `insufficient_scope` naming every scope needed, for step-up. Spec: basic/authorization
 * §Protected Resource Metadata Discovery Requirements, §Scope Challenge Handling, §Token Handling;
 * RFC 6750 §2.1, §3.
 */
import { checkOptionsObject, optionTypeError, parseHttpUrl } from "../../protocol/options.js";
import {
  type Authenticate,
  type AuthenticateRequest,
  recordRefusal,
} from "../../transport/http/server/authenticate.js";
import { DEFAULT_CLOCK_SKEW_MS, InvalidTokenError, missingScopes, type TokenVerifier } from "./verifier.js";

/** Options of {@link bearerAuth}. */
export interface BearerAuthOptions {
  /** Checks each token; see {@link TokenVerifier}. Required. */
  verifier: TokenVerifier;
  /**
   * Scopes every request needs, whatever it asks for; a token without one of them gets 403
   * `insufficient_scope`. Tools, prompts and resources may each require more (`requiredScopes` at
   * registration). Default none.
   */
  requiredScopes?: readonly string[];
  /**
   * The absolute URL of this server's protected resource metadata, sent as `resource_metadata` in
   * every challenge so the client can find the authorization server; use
   * `resourceMetadataUrl(resource)`. Default: none (the challenge omits it; the client then tries
   * the well-known URLs).
   */
  resourceMetadataUrl?: string;
}

/** The `error_description` of an `invalid_token` refusal (the reason stays in the server's log). */
const INVALID_TOKEN = "The access token is invalid or expired";
/** The `error_description` of an `insufficient_scope` refusal. */
const LACKS_SCOPE = "The access token lacks a required scope";

/** A token (RFC 6750 `b64token`) after `Bearer ` in the `Authorization` header. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** A challenge parameter value as a quoted string (RFC 9110 §5.6.4). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

function checkScopes(owner: string, option: string, scopes: unknown): string[] {
  if (scopes === undefined) return [];
  if (
    !Array.isArray(scopes) ||
    !scopes.every((scope) => typeof scope === "string" && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))
  ) {
    throw optionTypeError(owner, option, "an array of scope tokens (RFC 6749 §3.3)");
  }
  return [...scopes];
}

/**
 * Builds the `authenticate` hook of the Streamable HTTP handler (`createHttpHandler`, `serve`,
 * `MCPServer.httpHandler()`) for OAuth bearer tokens.
 *
 * Per request: no `Authorization: Bearer` token -> 401 `WWW-Authenticate: Bearer
 * resource_metadata="...", scope="..."` (the required scopes, when any); a token the verifier
 * refuses, or whose `expiresAtMs` has passed by more than the verifier's `clockSkewMs` (default
 * `DEFAULT_CLOCK_SKEW_MS`) -> 401 with `error="invalid_token"`; a token without
 * one of `requiredScopes` -> 403 `error="insufficient_scope", scope="..."`; else the verifier's
 * `AuthInfo`. Tokens in the query string are never read. The answers carry a JSON body
 * `{ error, error_description }`, the challenge names `error_description` too, and they expose
 * `WWW-Authenticate` to browsers. Each refusal goes to the handler's logger with its reason
 * (the verifier's `InvalidTokenError` message, the expiry, the missing scopes; never the token):
 * `warn` when a credential was presented, `debug` when none was. The hook's `challenge`
 * builds the 403 for an operation that needs more scopes (the union of `requiredScopes` and the
 * operation's, in one challenge).
 *
 * @throws TypeError when `verifier` has no `verify` method or a `clockSkewMs` that is not a
 *   non-negative integer, `requiredScopes` is not an array of scope tokens, or `resourceMetadataUrl` is not an absolute http(s) URL.
 */
export function bearerAuth(options: BearerAuthOptions): Authenticate {
  const owner = "bearerAuth";
  checkOptionsObject(owner, options);
  const { verifier } = options;
  if (typeof verifier?.verify !== "function") throw optionTypeError(owner, "verifier", "a TokenVerifier");
  const required = checkScopes(owner, "requiredScopes", options.requiredScopes);
  const skewMs = verifier.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
  if (!Number.isSafeInteger(skewMs) || skewMs < 0) {
    throw optionTypeError(owner, "verifier.clockSkewMs", "a non-negative integer of milliseconds");
  }
  const metadataUrl =
    options.resourceMetadataUrl === undefined
      ? undefined
      : parseHttpUrl(`${owner} option "resourceMetadataUrl"`, options.resourceMetadataUrl).href;

  function header(params: Record<string, string | undefined>): string {
    const parts = Object.entries({ ...params, resource_metadata: metadataUrl })
      .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== "")
      .map(([name, value]) => `${name}=${quoted(value)}`);
    return parts.length === 0 ? "Bearer" : `Bearer ${parts.join(", ")}`;
  }

  /** The refusal: `status` with `challenge`, and `reason` recorded for the handler's log. */
  function answer(
    status: number,
    challenge: string,
    reason: string,
    error?: string,
    description?: string,
  ): Response {
    const body = error === undefined ? { error: "unauthorized" } : { error, error_description: description };
    const response = new Response(JSON.stringify(body), {
      status,
      headers: {
        "Content-Type": "application/json",
        "WWW-Authenticate": challenge,
        "Access-Control-Expose-Headers": "WWW-Authenticate",
      },
    });
    return recordRefusal(response, { ...(error === undefined ? {} : { error }), reason });
  }

  function challenge(scopes: readonly string[]): string {
    const all = [...new Set([...required, ...scopes])];
    return header({ error: "insufficient_scope", scope: all.join(" ") });
  }

  async function authenticate(request: AuthenticateRequest) {
    const presented = request.headers.get("authorization");
    const match = BEARER.exec(presented ?? "");
    if (match === null) {
      const reason =
        presented === null ? "no Authorization header" : "no bearer token in the Authorization header";
      return answer(401, header({ scope: required.join(" ") }), reason);
    }
    const invalid = (reason: string) =>
      answer(
        401,
        header({ error: "invalid_token", error_description: INVALID_TOKEN, scope: required.join(" ") }),
        reason,
        "invalid_token",
        INVALID_TOKEN,
      );
    let auth: Awaited<ReturnType<TokenVerifier["verify"]>>;
    try {
      auth = await verifier.verify(match[1] as string);
    } catch (error) {
      if (error instanceof InvalidTokenError) return invalid(error.message);
      throw error;
    }
    if (auth.expiresAtMs !== undefined && !(auth.expiresAtMs + skewMs > Date.now())) {
      return invalid(`the token expired at ${new Date(auth.expiresAtMs).toISOString()}`);
    }
    const missing = missingScopes(auth, required);
    if (missing.length > 0) {
      return answer(
        403,
        header({ error: "insufficient_scope", error_description: LACKS_SCOPE, scope: required.join(" ") }),
        `the token lacks the scopes ${missing.join(" ")}`,
        "insufficient_scope",
        LACKS_SCOPE,
      );
    }
    return auth;
  }
  return Object.assign(authenticate, { challenge });
}
