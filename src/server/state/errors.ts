/**
 * How a refused `requestState` surfaces: `InvalidRequestState` carries the real reason to the
 * logger, and the wire only ever sees one frozen error that never varies by cause.
 * Spec: basic/patterns/mrtr §Server obligations (reject state that fails verification).
 */
import { McpError } from "../../protocol/errors.js";

/**
 * Thrown by a {@link RequestStateCodec} (and by the claims checks) for a token it refuses.
 *
 * `reason` is a short, log-only code such as `"malformed"`, `"unknown key"` or `"seal"`; it never
 * reaches the wire and must never contain the token, the plaintext or the principal.
 */
export class InvalidRequestState extends Error {
  override readonly name = "InvalidRequestState";
  /** The log-only reason code (same as `message`). */
  readonly reason: string;

  /**
   * @param reason the log-only reason code.
   * @param options `cause`: what went wrong underneath (logged by type only, never its message).
   */
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options?.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}

/** The JSON-RPC error object every refused `requestState` answers with. */
export interface InvalidRequestStateWireError {
  readonly code: -32602;
  readonly message: "Invalid or expired requestState";
  readonly data: { readonly reason: "invalid_request_state" };
}

/**
 * The one wire error for every `requestState` verification failure, deeply frozen:
 * `{"code":-32602,"message":"Invalid or expired requestState","data":{"reason":"invalid_request_state"}}`.
 * It never varies by cause; the cause goes to the logger. Spec: basic/patterns/mrtr §Error Handling.
 */
export const INVALID_REQUEST_STATE_ERROR: InvalidRequestStateWireError = Object.freeze({
  code: -32602,
  message: "Invalid or expired requestState",
  data: Object.freeze({ reason: "invalid_request_state" }),
});

/** A fresh `McpError` carrying {@link INVALID_REQUEST_STATE_ERROR} (its frozen `data` shared). */
export function invalidRequestStateError(): McpError {
  const { code, message, data } = INVALID_REQUEST_STATE_ERROR;
  return new McpError(code, message, data);
}
