/**
 * Time as tsmcp reads it: wall-clock milliseconds and cancellable waits. Servers and clients take
 * a `Clock` so that expiry and back-off can be driven deterministically.
 */
import { onAbort } from "./async.js";

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
