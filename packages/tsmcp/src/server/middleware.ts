/**
 * The server's middleware chain. Middleware wraps every request after its `_meta` is validated and
 * before its params are: auth, the requestState boundary and your own cross-cutting code plug in
 * here. The chain is composed once, when middleware is added, never per request.
 */
import type { Params } from "../protocol/jsonrpc.js";
import type { RequestContext } from "./context.js";
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
}

/** Continues the chain with (possibly rewritten) request; resolves with the shaped result. */
export type Next = (request: MiddlewareRequest) => Promise<WireResult>;

/**
 * A middleware: inspect or rewrite the request, call `next`, inspect or rewrite the result.
 * Throw an `McpError` to answer with that error instead.
 */
export type Middleware = (request: MiddlewareRequest, next: Next) => Promise<WireResult>;

/** Wraps `inner` in `middleware`, so that `middleware` runs first. */
export function wrap(middleware: Middleware, inner: Next): Next {
  return (request) => middleware(request, inner);
}
