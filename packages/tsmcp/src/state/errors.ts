/**
 * The local errors of the state seams' in-memory defaults.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../protocol/local-errors.js";

/**
 * A `MemoryReplayCache` holds its maximum of live entries and cannot take one more: it refuses
 * rather than forget a live entry (which would let that state run again). The requestState
 * boundary refuses the state (-32602) and logs `replay cache error`.
 */
export class ReplayCacheFullError extends TsmcpError {
  override readonly name = "ReplayCacheFullError";
  /** `"ERR_REPLAY_CACHE_FULL"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ReplayCacheFullError;
  /** The cache's bound, in entries. */
  readonly maxEntries: number;

  constructor(maxEntries: number) {
    super(`The replay cache holds its maximum of ${maxEntries} live entries and cannot take another`);
    this.maxEntries = maxEntries;
  }
}

/**
 * A state store or message bus cannot do what was asked because its engine is unreachable or
 * failing (a lost Redis connection, a command timeout) or has no room for the write (Redis at
 * `maxmemory`, a `MemoryTaskStore` at its bound in bytes). Nothing was stored. The HTTP handler
 * answers the request 503 with `Retry-After` ({@link StateUnavailableError.retryAfterMs}) and
 * serves again once the engine is back; implementations of the state seams reject with it.
 */
export class StateUnavailableError extends TsmcpError {
  override readonly name = "StateUnavailableError";
  /** `"ERR_STATE_UNAVAILABLE"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.StateUnavailableError;
  /** Milliseconds after which a retry may succeed (the engine's reconnect delay), at least 1000. */
  readonly retryAfterMs: number;

  constructor(message: string, options: { cause?: unknown; retryAfterMs?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterMs = Math.max(1000, options.retryAfterMs ?? 1000);
  }
}

/** True when `error` is a {@link StateUnavailableError} (by its stable code, across copies of the SDK). */
export function isStateUnavailable(error: unknown): error is StateUnavailableError {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === ERROR_CODES.StateUnavailableError
  );
}
