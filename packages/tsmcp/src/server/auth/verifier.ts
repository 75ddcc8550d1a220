/**
 * The small interface every access-token verifier implements, and the one error it throws for a
 * token it refuses. `bearerAuth` turns that refusal into a 401 challenge. Spec:
 * basic/authorization §Token Handling (OAuth 2.1 §5.2), RFC 6750 §3.1.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";
import type { AuthInfo } from "../../transport/dispatcher.js";

/**
 * Checks an access token and says whom it speaks for. Implement it to plug in any token format
 * (opaque tokens through a database lookup, a vendor SDK): resolve with the `AuthInfo` (with the
 * token's `clientId`, `issuer` and `subject`, consistently, as principal binding hashes them;
 * `scopes`; `expiresAtMs`), reject with {@link InvalidTokenError} for a token that is not valid
 * for this resource (answered 401 `invalid_token`). Any other rejection means the token could not
 * be checked (the authorization server is down): the request is answered 500.
 */
export interface TokenVerifier {
  /** Resolves with whom `token` speaks for; rejects with {@link InvalidTokenError} when it is not valid here. */
  verify(token: string): Promise<AuthInfo>;
  /**
   * Milliseconds of clock difference this verifier tolerates on a token's expiry; `bearerAuth`
   * allows the same when it re-checks `expiresAtMs`, so a token the verifier accepts is never
   * refused as expired afterwards. Default {@link DEFAULT_CLOCK_SKEW_MS}.
   */
  readonly clockSkewMs?: number;
}

/** Milliseconds of clock difference tolerated on `exp`, `nbf` and `iat`, by default. */
export const DEFAULT_CLOCK_SKEW_MS = 30_000;

/**
 * A token refused by a verifier (bad signature, wrong issuer or audience, expired, revoked,
 * inactive). Its message is log-only; the client is told only `invalid_token`. The underlying
 * failure, if any, is its `cause`.
 */
export class InvalidTokenError extends TsmcpError {
  override readonly name = "InvalidTokenError";
  /** `"ERR_INVALID_TOKEN"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.InvalidTokenError;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The scopes of a `scope` claim (space-separated, RFC 9068 §2.2.3), else of an `scp` claim, as an
 * array (Okta) or a space-separated string (Microsoft Entra ID).
 */
export function scopesOfClaims(claims: Readonly<Record<string, unknown>>): string[] {
  const claim = typeof claims.scope === "string" ? claims.scope : claims.scp;
  if (typeof claim === "string") return claim.split(" ").filter((scope) => scope !== "");
  if (Array.isArray(claim)) return claim.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/** The scopes of `required` that `auth` was not granted (all of them without `auth`). */
export function missingScopes(auth: AuthInfo | undefined, required: readonly string[]): string[] {
  const granted = new Set(auth?.scopes ?? []);
  return required.filter((scope) => !granted.has(scope));
}
