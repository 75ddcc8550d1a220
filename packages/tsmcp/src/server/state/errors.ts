/**
 * How a refused `requestState` surfaces: `InvalidRequestState` carries the real reason to the
 * logger, and the wire only ever sees one frozen error that never varies by cause.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow) (reject state that fails
 * verification).
 */

import { ERRORS, McpError } from "../../protocol/errors.js";
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";

/**
 * Why a `requestState` was refused, as logged (never sent):
 * - `"malformed"`: not a token or envelope of the expected shape (a non-string state included);
 * - `"unknown key"`: sealed under a key id this server does not hold;
 * - `"seal"`: the authentication tag does not verify (tampered, or another key);
 * - `"codec error"`: the codec threw something other than `InvalidRequestState`, or returned the
 *   wrong type;
 * - `"expired"` / `"minted in the future"`: outside its lifetime (`exp`, `iat` against the clock);
 * - `"request binding"`: minted for another method, tool or arguments (or they cannot be bound);
 * - `"audience"`: minted by a server with another audience;
 * - `"principal"` / `"principal drift"`: minted for another principal, or bound to one where the
 *   request has none (or the other way round);
 * - `"principal binding error"`: the policy's `bindPrincipal` threw or returned a non-string;
 * - `"replayed"`: a single-use target's state that was already used once;
 * - `"replay cache error"`: the replay cache could not record a single-use state's first use
 *   (full, unreachable), so the state is refused;
 * - `"rejected"`: a custom codec's own refusal (its `detail` says why).
 */
export type InvalidRequestStateReason =
  | "malformed"
  | "unknown key"
  | "seal"
  | "codec error"
  | "expired"
  | "minted in the future"
  | "request binding"
  | "audience"
  | "principal"
  | "principal drift"
  | "principal binding error"
  | "replayed"
  | "replay cache error"
  | "rejected";

/** Every {@link InvalidRequestStateReason}. */
export const INVALID_REQUEST_STATE_REASONS: ReadonlySet<InvalidRequestStateReason> = new Set([
  "malformed",
  "unknown key",
  "seal",
  "codec error",
  "expired",
  "minted in the future",
  "request binding",
  "audience",
  "principal",
  "principal drift",
  "principal binding error",
  "replayed",
  "replay cache error",
  "rejected",
]);

/**
 * Thrown by a {@link RequestStateCodec} (and by the claims checks) for a token it refuses.
 *
 * `reason` is one code of a closed set (what operators grep for); `detail` is free text beside
 * it. Both are log-only: they never reach the wire and must never contain the token, the
 * plaintext or the principal. A reason outside the set (a codec written in JavaScript, say) reads
 * as `"rejected"` with that text as `detail`.
 */
export class InvalidRequestState extends TsmcpError {
  override readonly name = "InvalidRequestState";
  /** `"ERR_INVALID_REQUEST_STATE"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.InvalidRequestState;
  /** The log-only reason code. */
  readonly reason: InvalidRequestStateReason;
  /** Log-only free text beside the reason (`"bindPrincipal returned number, ..."`), if any. */
  readonly detail: string | undefined;

  /**
   * @param reason the log-only reason code.
   * @param options `detail`: free log-only text; `cause`: what went wrong underneath (logged by
   *   type only, never its message).
   */
  constructor(reason: InvalidRequestStateReason, options?: { detail?: string; cause?: unknown }) {
    const known = INVALID_REQUEST_STATE_REASONS.has(reason);
    const code: InvalidRequestStateReason = known ? reason : "rejected";
    const detail = known ? options?.detail : String(reason);
    super(
      detail === undefined ? code : `${code}: ${detail}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.reason = code;
    this.detail = detail;
  }
}

/** The JSON-RPC error object every refused `requestState` answers with. */
export interface InvalidRequestStateWireError {
  readonly code: (typeof ERRORS)["INVALID_PARAMS"]["code"];
  readonly message: "Invalid or expired requestState";
  readonly data: { readonly reason: "invalid_request_state" };
}

/**
 * The one wire error for every `requestState` verification failure, deeply frozen:
 * `{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}`.
 * It never varies by cause; the cause goes to the logger. Spec: basic/patterns/mrtr §Error Handling.
 */
export const INVALID_REQUEST_STATE_ERROR: InvalidRequestStateWireError = Object.freeze({
  code: ERRORS.INVALID_PARAMS.code,
  message: "Invalid or expired requestState",
  data: Object.freeze({ reason: "invalid_request_state" }),
});

/** A fresh `McpError` carrying {@link INVALID_REQUEST_STATE_ERROR} (its frozen `data` shared). */
export function invalidRequestStateError(): McpError {
  const { code, message, data } = INVALID_REQUEST_STATE_ERROR;
  return new McpError(code, message, data);
}
