/**
 * Small pieces of async plumbing the layers share: following an `AbortSignal` (a request's own
 * signal that also aborts when the caller's does), what to report once one aborted, and a promise
 * settled from outside.
 */
import { isTsmcpError } from "./local-errors.js";

/**
 * Calls `listener` with the abort reason once `signal` aborts. Returns the function that removes
 * the listener (call it when the work ends first). An absent signal never aborts; a signal that is
 * already aborted does not call `listener` (check `signal.aborted` first).
 */
export function onAbort(signal: AbortSignal | undefined, listener: (reason: unknown) => void): () => void {
  if (signal === undefined) return () => {};
  const handler = () => listener(signal.reason);
  signal.addEventListener("abort", handler, { once: true });
  return () => signal.removeEventListener("abort", handler);
}

/**
 * Aborts `controller` with `signal`'s reason when `signal` aborts (at once when it already has).
 * Returns the function that undoes the link; call it when the linked work settles, so a
 * long-lived caller signal does not keep a listener per request.
 */
export function linkSignal(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal?.aborted) {
    controller.abort(signal.reason);
    return () => {};
  }
  return onAbort(signal, (reason) => controller.abort(reason));
}

/** A promise with its `resolve` and `reject` at hand. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * A promise to settle from outside. With `handled: true` a rejection nobody awaits yet is not
 * reported as unhandled (the holder still sees it when it awaits the promise).
 */
export function deferred<T>(options: { handled?: boolean } = {}): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  if (options.handled === true) promise.catch(() => {});
  return { promise, resolve, reject };
}

/**
 * The error to report for `error`, which a request ended with after its `signal` aborted: the
 * signal's reason, unless one of tsmcp's local errors on `error`'s `cause` chain (itself included)
 * has that reason as its own `cause`: such an error says which step the abort interrupted (an
 * authorization step that timed out, say), and `error` stands as it is. Used once `signal.aborted`.
 */
export function abortFailure(signal: AbortSignal, error: unknown): unknown {
  const reason: unknown = signal.reason;
  const seen = new Set<unknown>();
  for (let at = error; at instanceof Error && !seen.has(at); at = at.cause) {
    seen.add(at);
    if (at.cause === reason && isTsmcpError(at)) return error;
  }
  return reason;
}
