/**
 * The request context a middleware's `request.with(key, value)` hands on: the context it was called
 * on, read through field by field, plus one more request value. The context it wraps is unchanged,
 * so a middleware earlier in the chain never sees what a later one provided.
 */
import type { RequestContext } from "./context.js";
import { addValue, type ContextKey, type ContextValues, VALUES, valuesOf } from "./context-key.js";
import { ContextView } from "./context-view.js";
import { attachRequestTrace, requestTraceOf } from "./request-trace.js";

/** A request context with request values, over the context it wraps. */
class ValuedContext extends ContextView {
  readonly #values: ContextValues;

  constructor(base: RequestContext, values: ContextValues) {
    super(base);
    this.#values = values;
    // The request's trace record follows the request, whichever context carries it on.
    const trace = requestTraceOf(base);
    if (trace !== undefined) attachRequestTrace(this, trace);
  }

  override get [VALUES](): ContextValues {
    return this.#values;
  }

  /** The context under every value: wrapping a valued context again wraps what it wraps. */
  static baseOf(context: RequestContext): RequestContext {
    return context instanceof ValuedContext ? context.base : context;
  }
}

/**
 * A new context over `context` that also carries `value` under `key` (`context` is unchanged).
 *
 * @throws TypeError when `key` is not a `ContextKey`.
 */
export function contextWith<T>(context: RequestContext, key: ContextKey<T>, value: T): RequestContext {
  return new ValuedContext(ValuedContext.baseOf(context), addValue(valuesOf(context), key, value));
}

/**
 * `to` carrying the request values of `from` (`to` itself when `from` has none): a context built
 * afresh for the same request, as a task's, keeps what middleware provided.
 */
export function withValuesOf(from: RequestContext, to: RequestContext): RequestContext {
  const values = valuesOf(from);
  return values === undefined ? to : new ValuedContext(ValuedContext.baseOf(to), values);
}
