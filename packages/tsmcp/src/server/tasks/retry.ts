/**
 * Store writes a task's runner must not lose to a short outage (the outcome of finished work, the
 * marking of a task its server stops running): a failed attempt is made again after a back-off that
 * doubles up to a bound, for as long as the write still makes sense (the runner still holds the
 * task's lease, the task has not expired). The store stays the judge: an attempt that answers
 * (even "nothing changed") ends the retries.
 */
import type { Clock } from "../../protocol/clock.js";

/** The wait before the second attempt, milliseconds; each later wait doubles, up to the bound. */
export const FIRST_RETRY_DELAY_MS = 100;

/** How {@link persistently} goes on. */
export interface RetryOptions {
  /** The clock the waits are measured on. */
  readonly clock: Clock;
  /** The longest wait between two attempts, milliseconds. */
  readonly maxDelayMs: number;
  /** Why no further attempt may be made now, or undefined while one may. Asked after each failure. */
  stopReason(): string | undefined;
  /** Ends a wait early (another attempt is then decided by `stopReason`). */
  readonly signal?: AbortSignal | undefined;
  /** Hears each failed attempt (1 for the first). */
  failed(error: unknown, attempt: number): void;
}

/** The outcome of {@link persistently}: the write's answer, or why it was given up and its last error. */
export type Persisted<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reason: string; readonly error: unknown };

/**
 * The clock's `sleep`, or for a clock given with only `now()`, a wait on the system timers; either
 * resolves early, never rejects, when `signal` aborts.
 */
export function sleepOf(clock: Clock): (ms: number, signal?: AbortSignal) => Promise<void> {
  if (typeof clock.sleep === "function") return (ms, signal) => clock.sleep(ms, signal).catch(() => {});
  return (ms, signal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
}

/** Runs `attempt` until it resolves, or until `options.stopReason()` names a reason to stop. */
export async function persistently<T>(
  attempt: () => Promise<T>,
  options: RetryOptions,
): Promise<Persisted<T>> {
  const sleep = sleepOf(options.clock);
  let delayMs = Math.min(FIRST_RETRY_DELAY_MS, options.maxDelayMs);
  for (let attempts = 1; ; attempts++) {
    try {
      return { ok: true, value: await attempt() };
    } catch (error) {
      options.failed(error, attempts);
      let reason = options.stopReason();
      if (reason === undefined) {
        await sleep(delayMs, options.signal);
        delayMs = Math.min(delayMs * 2, options.maxDelayMs);
        reason = options.stopReason();
      }
      if (reason !== undefined) return { ok: false, reason, error };
    }
  }
}
