/**
 * A request the server refused at the HTTP layer for want of authorization: a 401 (no credential,
 * or one it does not accept) or 403 (a credential short of a scope) with a `WWW-Authenticate`
 * challenge. The error names the challenge's `error` and `error_description`, so a stale or
 * rotated token reads as what it is. Spec: basic/authorization §Token Handling, §Scope Challenge
 * Handling; RFC 6750 §3.
 */
import { ERROR_CODES, type TsmcpErrorCode } from "../../../protocol/local-errors.js";
import { TransportError } from "../../transport.js";
import { type AuthChallenge, authChallengeOf } from "./challenge.js";
import type { HttpClientAnswer } from "./http-answer.js";

/** Characters of an `error_description` an error message quotes at most. */
const MAX_DESCRIPTION_CHARS = 300;

/**
 * The server answered 401 or 403 with a `Bearer` (or `DPoP`) challenge, and the transport's
 * authorization hook (if any) did not send the request again. `httpStatus` is the answer's status;
 * `challenge` what it said: `error` (`invalid_token` for a token refused, expired or revoked;
 * `insufficient_scope`), `errorDescription`, `scope`, `resourceMetadata`. The message names the
 * status, the URL, the error and its description: "HTTP 401 from https://mcp.example.com/mcp:
 * invalid_token (The access token is invalid or expired)".
 */
export class AuthorizationRefusedError extends TransportError {
  override readonly name: string = "AuthorizationRefusedError";
  /** `"ERR_AUTHORIZATION_REFUSED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.AuthorizationRefusedError;
  /** The challenge of the answer. */
  readonly challenge: AuthChallenge;

  constructor(url: URL | string, httpStatus: 401 | 403, challenge: AuthChallenge) {
    super(`HTTP ${httpStatus} from ${String(url)}: ${describe(challenge)}`, { httpStatus });
    this.challenge = challenge;
  }
}

/** What a challenge says, in a few words. */
function describe(challenge: AuthChallenge): string {
  const { error, errorDescription } = challenge;
  if (error === undefined) return `the server asks for authorization (${challenge.scheme} challenge)`;
  if (errorDescription === undefined) return error;
  const quoted =
    errorDescription.length > MAX_DESCRIPTION_CHARS
      ? `${errorDescription.slice(0, MAX_DESCRIPTION_CHARS)}…`
      : errorDescription;
  return `${error} (${quoted})`;
}

/**
 * The {@link AuthorizationRefusedError} of a 401 or 403 answer with a `Bearer` or `DPoP`
 * challenge, else undefined (another status, no challenge, or one that does not parse).
 */
export async function authorizationRefusal(
  response: HttpClientAnswer,
  url: URL,
): Promise<AuthorizationRefusedError | undefined> {
  const status = response.status;
  if (status !== 401 && status !== 403) return undefined;
  const challenge = await authChallengeOf(status, response.header("www-authenticate"));
  return challenge === undefined ? undefined : new AuthorizationRefusedError(url, status, challenge);
}
