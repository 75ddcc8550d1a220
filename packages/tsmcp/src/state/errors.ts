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
