/**
 * An abort controller whose `AbortSignal` is made only when something reads `signal`: making a
 * signal costs microseconds, and most calls finish without anyone listening to theirs. Until then
 * `aborted` and `reason` answer, and a signal made after the abort reads as aborted.
 */
export class LazyAbortController {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  /** The signal, made on first read (already aborted when `abort` came first). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** True once `abort` was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** The reason `abort` was called with (an `AbortError` DOMException when none was given). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Aborts (idempotent): records `reason` and aborts the signal if one was made. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    this.#controller?.abort(this.#reason);
  }
}
