/**
 * Time as tsmcp reads it: wall-clock milliseconds and cancellable waits. Servers and clients take
 * a `Clock` so that expiry and back-off can be driven deterministically.
 */
import { onAbort } from "./async.js";
import { optionTypeError } from "./options.js";

/** A source of time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(() => {
        stopListening();
        resolve();
      }, ms);
      const stopListening = onAbort(signal, (reason) => {
        clearTimeout(timer);
        reject(reason);
      });
    }),
});

/**
 * Checks the `clock` option of `owner`: undefined (the system clock), or an object with a `now()`
 * function.
 *
 * @throws TypeError naming `owner` for anything else.
 */
export function checkClock(owner: string, clock: unknown): void {
  if (clock === undefined) return;
  if (typeof clock !== "object" || clock === null || typeof (clock as Clock).now !== "function") {
    throw optionTypeError(owner, "clock", "a Clock (with now())");
  }
}
