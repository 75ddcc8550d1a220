/**
 * The server's middleware chain. Middleware wraps every request after its `_meta` is validated and
 * before its params are: auth, the requestState boundary and your own cross-cutting code plug in
 * here. The chain is composed once, when middleware is added, never per request.
 */
import type { Params } from "../protocol/jsonrpc.js";
import type { RequestContext } from "./context.js";
import type { ContextKey } from "./context-key.js";
import { contextWith } from "./context-values.js";
import type { Logger } from "./logger.js";

/** A result object as it goes on the wire (`resultType`, `_meta`, and the method's fields). */
export type WireResult = Record<string, unknown>;

/** One request as middleware sees it. Replace `params` by passing a new request to `next`. */
export interface MiddlewareRequest {
  /** The JSON-RPC method. */
  readonly method: string;
  /** The raw params (unvalidated beyond `_meta`); never mutate, pass a copy to `next`. */
  readonly params: Params;
  /** The request context handlers will receive. */
  readonly context: RequestContext;
  /** The server's logger, for diagnostics a middleware emits. */
  readonly logger: Logger;
  /**
   * This request with `value` provided under `key`, for `next`: later middleware, handlers,
   * resolvers and completers read it with `context.get(key)` / `ctx.get(key)`, typed by the key.
   * A new request over a new context; this one is unchanged (earlier middleware never sees the
   * value). Providing a key again hides the older value from what runs after.
   *
   * `T` comes from the key alone (`value` is checked against it, never widens it), so an object
   * literal with literal-typed fields fits a key of that type.
   *
   * @throws TypeError when `key` is not a `ContextKey` (see `contextKey`).
   */
  with<T>(key: ContextKey<T>, value: NoInfer<T>): MiddlewareRequest;
}

/** Continues the chain with (possibly rewritten) request; resolves with the shaped result. */
export type Next = (request: MiddlewareRequest) => Promise<WireResult>;

/**
 * A middleware: inspect or rewrite the request, call `next`, inspect or rewrite the result.
 * Throw an `McpError` to answer with that error instead.
 */
export type Middleware = (request: MiddlewareRequest, next: Next) => Promise<WireResult>;

/**
 * One step of the composed chain: answers at once when nothing in it waits, else a promise. A
 * failure is thrown when it happens before anything waited, a rejection after.
 */
export type Step = (request: MiddlewareRequest) => WireResult | Promise<WireResult>;

/** A middleware's step form: takes a {@link Step}, and answers at once when nothing waited. */
export type StepMiddleware = (request: MiddlewareRequest, next: Step) => WireResult | Promise<WireResult>;

/** The step form of each middleware built by {@link stepMiddleware}. */
const STEP_FORMS = new WeakMap<Middleware, StepMiddleware>();

/** True for a value `await` would wait on (a promise or another thenable). */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A `Middleware` whose chain runs `step` directly (no promise when nothing waits). Called as a
 * `Middleware` (by hand, or wrapped in other code) it still returns a promise: a throw of `step`
 * becomes its rejection.
 */
export function stepMiddleware(step: StepMiddleware): Middleware {
  const middleware: Middleware = (request, next) => {
    try {
      return Promise.resolve(step(request, next));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  STEP_FORMS.set(middleware, step);
  return middleware;
}

/**
 * Wraps `inner` in `middleware`, so that `middleware` runs first. A middleware built by
 * {@link stepMiddleware} is given `inner` itself; any other is given a `Next` that always returns
 * a promise (a failure of `inner` is its rejection), as the `Next` type promises.
 */
export function wrap(middleware: Middleware, inner: Step): Step {
  const step = STEP_FORMS.get(middleware);
  if (step !== undefined) return (request) => step(request, inner);
  const next: Next = (request) => {
    try {
      return Promise.resolve(inner(request));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return (request) => middleware(request, next);
}

/** `with` of every request: reads `this`, so a copy made by spreading a request keeps working. */
function requestWith<T>(this: MiddlewareRequest, key: ContextKey<T>, value: T): MiddlewareRequest {
  return { ...this, context: contextWith(this.context, key, value) };
}

/** The request the chain starts with. */
export function middlewareRequest(
  method: string,
  params: Params,
  context: RequestContext,
  logger: Logger,
): MiddlewareRequest {
  return { method, params, context, logger, with: requestWith };
}
