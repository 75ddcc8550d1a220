/**
 * When a client reconnects to an SSE stream: after the server's `retry:` milliseconds when it sent
 * one (the client must respect it; a value outside {@link MIN_SERVER_RETRY_MS} ..
 * {@link MAX_SERVER_RETRY_MS} is brought into that range, so a hostile `retry: 0` cannot make it
 * spin and a huge one cannot overflow a timer), else after the client's own delay; the delay
 * doubles with each reconnection in a row that delivered no message, and the client gives up after
 * a bounded number of them. Spec (2025-11-25): basic/transports §Sending Messages to the Server
 * (SSE polling), §Resumability and Redelivery.
 */
import type { SseCursor } from "./event-stream.js";

/**
 * Reconnections in a row that deliver no JSON-RPC message (priming events and comments do not
 * count) before the client gives up, by default.
 */
export const DEFAULT_MAX_RECONNECT_ATTEMPTS = 5;
/** Milliseconds before the first reconnection when the server sent no `retry:`, by default. */
export const DEFAULT_RECONNECT_DELAY_MS = 1000;
/** The longest delay between two attempts when the server sent no `retry:`: 30 seconds. */
export const MAX_RECONNECT_DELAY_MS = 30_000;
/** The shortest wait the client accepts from a server's `retry:`, in milliseconds: 100. */
export const MIN_SERVER_RETRY_MS = 100;
/**
 * The longest wait the client accepts from a server's `retry:`, in milliseconds: 10 minutes (a
 * larger value is waited as this long; `setTimeout` cannot wait more than about 24.8 days).
 */
export const MAX_SERVER_RETRY_MS = 10 * 60 * 1000;

/** How a transport reconnects. */
export interface ReconnectPolicy {
  /** Reconnections in a row that deliver no message before giving up. */
  readonly maxAttempts: number;
  /** Milliseconds before reconnecting when the server sent no `retry:`. */
  readonly delayMs: number;
}

/** The server's `retry:` milliseconds brought into {@link MIN_SERVER_RETRY_MS} .. {@link MAX_SERVER_RETRY_MS}. */
export function clampServerRetry(retryMs: number): number {
  return Math.min(Math.max(retryMs, MIN_SERVER_RETRY_MS), MAX_SERVER_RETRY_MS);
}

/**
 * Milliseconds to wait before the next reconnection, after `failures` reconnections in a row that
 * delivered no message (0 after one that did, or before the first): `base * 2^failures`, where
 * `base` is the server's `retry:` clamped by {@link clampServerRetry} when the cursor has one,
 * else `policy.delayMs`; at most {@link MAX_RECONNECT_DELAY_MS}, or the clamped `retry:` when that
 * is longer (the server's wait is never shortened).
 */
export function reconnectDelay(policy: ReconnectPolicy, cursor: SseCursor, failures: number): number {
  const fromServer = cursor.retryMs !== undefined;
  const base = fromServer ? clampServerRetry(cursor.retryMs as number) : policy.delayMs;
  const cap = fromServer ? Math.max(base, MAX_RECONNECT_DELAY_MS) : MAX_RECONNECT_DELAY_MS;
  // The exponent is bounded so that `0 * 2^n` stays 0 (not NaN) however many failures there were.
  return Math.min(base * 2 ** Math.min(Math.max(0, failures), 32), cap);
}

/**
 * An AbortController for one connection, aborted when `parent` aborts; `unlink` removes its
 * listener from `parent` once the connection has ended, so a long-lived `parent` does not gather
 * one listener per reconnection.
 */
export function linkedController(parent: AbortSignal): { signal: AbortSignal; unlink(): void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, unlink: () => {} };
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { signal: controller.signal, unlink: () => parent.removeEventListener("abort", onAbort) };
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
