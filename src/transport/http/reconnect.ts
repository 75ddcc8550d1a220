/**
 * When a client reconnects to an SSE stream: after the server's `retry:` milliseconds when it sent
 * one (the client must respect it), else after a delay that doubles with each failed attempt, and
 * never more than a bounded number of times in a row. Spec (2025-11-25): basic/transports
 * §Sending Messages to the Server (SSE polling), §Resumability and Redelivery.
 */
import type { SseCursor } from "./event-stream.js";

/** Reconnection attempts in a row, without an event received, before giving up, by default. */
export const DEFAULT_MAX_RECONNECT_ATTEMPTS = 5;
/** Milliseconds before the first reconnection when the server sent no `retry:`, by default. */
export const DEFAULT_RECONNECT_DELAY_MS = 1000;
/** The longest delay between two attempts when the server sent no `retry:`: 30 seconds. */
export const MAX_RECONNECT_DELAY_MS = 30_000;

/** How a transport reconnects. */
export interface ReconnectPolicy {
  readonly maxAttempts: number;
  readonly delayMs: number;
}

/**
 * Milliseconds to wait before reconnection attempt `attempt` (1-based): the server's `retry:`
 * when the cursor has one, else `delayMs * 2^(attempt-1)`, at most {@link MAX_RECONNECT_DELAY_MS}.
 */
export function reconnectDelay(policy: ReconnectPolicy, cursor: SseCursor, attempt: number): number {
  if (cursor.retryMs !== undefined) return cursor.retryMs;
  return Math.min(policy.delayMs * 2 ** Math.max(0, attempt - 1), MAX_RECONNECT_DELAY_MS);
}

/** Resolves after `ms` milliseconds; rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
