/**
 * Cancellation without an `AbortSignal` until one is needed. Making a signal costs microseconds,
 * and most requests end without anyone listening to theirs: a {@link LazyAbortController} records
 * the abort and calls plain listeners, and makes its signal only when something reads `signal`.
 * Request options marked by {@link carryingAbortSource} carry one to this package's transports, which
 * read it with {@link abortSourceOf}; any other reader of `options.signal` gets a real signal.
 */
import { onAbort } from "../protocol/async.js";

/** A request's cancellation as a transport reads it. */
export interface AbortSource {
  /** True once aborted. */
  readonly aborted: boolean;
  /** Why (once aborted). */
  readonly reason: unknown;
  /** An `AbortSignal` that follows this source (made on first read where it is lazy). */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` with the reason once this aborts; returns the function that removes it. Not
   * called when already aborted (check `aborted` first).
   */
  onAbort(listener: (reason: unknown) => void): () => void;
}

/** An abort controller whose `AbortSignal` is made on first read of `signal`. */
export class LazyAbortController implements AbortSource {
  #controller: AbortController | undefined;
  #listeners: ((reason: unknown) => void)[] | undefined;
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

  get aborted(): boolean {
    return this.#aborted;
  }

  /** The reason `abort` was called with (an `AbortError` DOMException when none was given). */
  get reason(): unknown {
    return this.#reason;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) return () => {};
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners?.indexOf(listener) ?? -1;
      if (at !== -1) this.#listeners?.splice(at, 1);
    };
  }

  /** Aborts (idempotent): records `reason`, calls the listeners once, aborts the signal if made. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException("This operation was aborted", "AbortError") : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    this.#controller?.abort(this.#reason);
    if (listeners !== undefined) for (const listener of listeners) listener(this.#reason);
  }
}

const sources = new WeakMap<object, AbortSource>();

/**
 * Marks request `options` as carrying `source`, whose `signal` they must return (a getter, so the
 * signal is made only if read): this package's transports read `source` itself through
 * {@link abortSourceOf}. Returns `options`.
 */
export function carryingAbortSource<T extends { readonly signal?: AbortSignal }>(
  options: T,
  source: LazyAbortController,
): T {
  sources.set(options, source);
  return options;
}

/** The cancellation of request `options`: the source they carry, else their `signal`, else none. */
export function abortSourceOf(
  options: { readonly signal?: AbortSignal } | undefined,
): AbortSource | undefined {
  if (options === undefined) return undefined;
  const carried = sources.get(options);
  if (carried !== undefined) return carried;
  const signal = options.signal;
  if (signal === undefined) return undefined;
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason;
    },
    signal,
    onAbort: (listener) => onAbort(signal, listener),
  };
}
