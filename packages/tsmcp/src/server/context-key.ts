/**
 * Typed request values: a middleware provides a value under a {@link ContextKey}
 * (`next(request.with(tenant, value))`), and everything that runs after it for that request (later
 * middleware, handlers, resolvers, completers, a tool's task) reads it back with `ctx.get(tenant)`,
 * typed by the key. Values belong to one request; each `with` makes a new request and context,
 * leaving the one it was called on as it was.
 */
import { ERRORS, McpError } from "../protocol/errors.js";

declare const VALUE_TYPE: unique symbol;

/**
 * The name and type of one request value. Make one per kind of value with {@link contextKey} and
 * share it between the middleware that provides the value and the code that reads it; two keys
 * are distinct even with the same name.
 */
export interface ContextKey<T> {
  /** A name for messages (a missing value's error names it); not used to find the value. */
  readonly name: string;
  /**
   * Type-only brand: ties the key to `T` (invariantly), and keeps object literals from passing for
   * keys. Absent at run time.
   */
  readonly [VALUE_TYPE]: (value: T) => T;
}

/**
 * A new key for request values of type `T`:
 *
 * ```ts
 * const tenant = contextKey<Tenant>("tenant");
 * mcp.use((request, next) => next(request.with(tenant, tenantOf(request.context.auth))));
 * mcp.tool("usage", {}, (_args, ctx) => `Tenant ${ctx.get(tenant).id}`);
 * ```
 *
 * @param name - shown in the error of a missing value; any non-empty string.
 * @throws TypeError when `name` is not a non-empty string.
 */
export function contextKey<T>(name: string): ContextKey<T> {
  if (typeof name !== "string" || name === "") {
    throw new TypeError("contextKey: name must be a non-empty string");
  }
  return Object.freeze({ name }) as ContextKey<T>;
}

/** The values of one request, newest first: each `with` adds a link in front of the ones it had. */
export interface ContextValues {
  readonly key: ContextKey<unknown>;
  readonly value: unknown;
  readonly older: ContextValues | undefined;
}

/**
 * The key under which a request context holds its values (internal). A context that wraps another
 * reads through to the values of the one it wraps.
 */
export const VALUES: unique symbol = Symbol("tsmcp.requestValues");

/** A request context that carries request values. */
export interface CarriesValues {
  readonly [VALUES]: ContextValues | undefined;
}

/** The values `context` carries (none for a context tsmcp did not build). */
export function valuesOf(context: object): ContextValues | undefined {
  return (context as Partial<CarriesValues>)[VALUES];
}

/** `values` with `value` under `key` in front (the newest value of a key wins). */
export function addValue<T>(values: ContextValues | undefined, key: ContextKey<T>, value: T): ContextValues {
  if (typeof key !== "object" || key === null || typeof key.name !== "string") {
    throw new TypeError("request.with: key must be a ContextKey made by contextKey()");
  }
  return { key: key as ContextKey<unknown>, value, older: values };
}

/** Whether `values` hold `key`, and its newest value. */
function lookup(values: ContextValues | undefined, key: object): { value: unknown } | undefined {
  for (let link = values; link !== undefined; link = link.older) {
    if (link.key === key) return link;
  }
  return undefined;
}

/** The newest value of `key` in `values`, or `undefined` when none was provided. */
export function findValue<T>(values: ContextValues | undefined, key: ContextKey<T>): T | undefined {
  return lookup(values, key)?.value as T | undefined;
}

/**
 * The newest value of `key` in `values`.
 *
 * @throws McpError -32603 "Internal error" when no middleware provided it; its `cause` (logged
 *   by the server, never sent) names the key.
 */
export function getValue<T>(values: ContextValues | undefined, key: ContextKey<T>): T {
  const found = lookup(values, key);
  if (found !== undefined) return found.value as T;
  throw new McpError(ERRORS.INTERNAL_ERROR.code, "Internal error", undefined, {
    cause: new Error(
      `No value for the context key "${key.name}": no middleware provided it for this request ` +
        "(add one with mcp.use(), calling next(request.with(key, value)), before anything reads it)",
    ),
  });
}
