/**
 * Result shaping, the last step before a result leaves the handler: `resultType` filled in,
 * `serverInfo` stamped in `_meta`, cache hints on cacheable complete results, and the
 * `InputRequiredResult` rules enforced (only on the three carrier methods, never with cache hints,
 * never empty). Spec: basic/index §resultType, server/utilities/caching, basic/patterns/mrtr.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../protocol/local-errors.js";
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS, isInputRequired } from "../protocol/methods.js";
import type { CacheScope, Implementation } from "../protocol/schema/base.js";
import { META } from "../protocol/versions.js";
import type { WireResult } from "./middleware.js";

/** A cache hint: how long a result stays fresh and who may share it. */
export interface CacheHint {
  /** Milliseconds the result stays fresh; a non-negative integer. 0 = stale at once. */
  ttlMs: number;
  /** "public" = any client may share it; "private" = only the same authorization context. */
  cacheScope: CacheScope;
}

/** The cache hint a server puts on results that carry none of their own. */
export const DEFAULT_CACHE_HINT: Readonly<CacheHint> = Object.freeze({ ttlMs: 0, cacheScope: "private" });

/**
 * Checks a partial cache hint given as an option: `ttlMs` a non-negative integer of milliseconds,
 * `cacheScope` "public" or "private".
 *
 * @throws RangeError naming `where` (e.g. `cache.ttlMs must be ...`) otherwise.
 */
export function checkCacheHint(hint: Partial<CacheHint> | undefined, where: string): void {
  if (hint?.ttlMs !== undefined && !(Number.isSafeInteger(hint.ttlMs) && hint.ttlMs >= 0)) {
    throw new RangeError(`${where}.ttlMs must be a non-negative integer of milliseconds, got ${hint.ttlMs}`);
  }
  if (hint?.cacheScope !== undefined && hint.cacheScope !== "public" && hint.cacheScope !== "private") {
    throw new RangeError(`${where}.cacheScope must be "public" or "private", got ${String(hint.cacheScope)}`);
  }
}

const SERVER_INFO_KEY: string = META.serverInfo;

/** Why a handler's result cannot be sent; the cause goes to the logger, the client sees -32603. */
export class InvalidHandlerResultError extends TsmcpError {
  override readonly name = "InvalidHandlerResultError";
  /** `"ERR_INVALID_HANDLER_RESULT"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.InvalidHandlerResultError;
}

/**
 * Checks a result a handler answered with `resultType: "task"` (a `CreateTaskResult` of the tasks
 * extension): only `tools/call` may, only for a request that may receive it (`acceptsTasks`, asked
 * only for such a result: it declared the extension), and never with a `requestState` or `inputRequests`. Any other result
 * passes. Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md
 * §Polymorphic Results).
 *
 * @throws InvalidHandlerResultError otherwise.
 */
export function checkTaskResult(method: string, result: unknown, acceptsTasks: () => boolean): void {
  if (typeof result !== "object" || result === null || (result as WireResult).resultType !== "task") return;
  if (method !== "tools/call") throw new InvalidHandlerResultError(`${method} may not answer with a task`);
  if (!acceptsTasks()) {
    throw new InvalidHandlerResultError(
      "tools/call answered with a task for a request that did not declare the tasks extension",
    );
  }
  const task = result as WireResult;
  if (task.requestState !== undefined || task.inputRequests !== undefined) {
    throw new InvalidHandlerResultError("a CreateTaskResult carries neither requestState nor inputRequests");
  }
}

/**
 * Shapes a handler's result for `method`, returning a new object (the handler's is not touched).
 *
 * @throws InvalidHandlerResultError when the result is not an object, or is an
 *   `InputRequiredResult` on a method that may not carry one or with neither field.
 */
export function shapeResult(
  method: string,
  result: unknown,
  serverInfo: Implementation | undefined,
  cacheHint: (method: string) => CacheHint,
): WireResult {
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new InvalidHandlerResultError(
      `the ${method} handler returned ${result === null ? "null" : typeof result}, not a result object`,
    );
  }
  const source = result as WireResult;
  const inputRequiredResult = isInputRequired(source);
  if (inputRequiredResult) {
    if (!INPUT_REQUIRED_METHODS.has(method)) {
      throw new InvalidHandlerResultError(`${method} may not answer with an InputRequiredResult`);
    }
    const requests = source.inputRequests;
    const hasRequests = typeof requests === "object" && requests !== null && Object.keys(requests).length > 0;
    if (!hasRequests && typeof source.requestState !== "string") {
      throw new InvalidHandlerResultError(
        "an InputRequiredResult needs inputRequests, requestState, or both",
      );
    }
  }
  // A fresh object, filled key by key (no spread-then-delete: deleting keys deoptimises objects).
  const shaped: WireResult = { resultType: source.resultType ?? "complete" };
  for (const key of Object.keys(source)) {
    if (key === "resultType" || key === "_meta") continue;
    if (inputRequiredResult && (key === "ttlMs" || key === "cacheScope")) continue;
    shaped[key] = source[key];
  }
  if (!inputRequiredResult && shaped.resultType === "complete" && CACHEABLE_METHODS.has(method)) {
    const hint = cacheHint(method);
    if (shaped.ttlMs === undefined) shaped.ttlMs = hint.ttlMs;
    if (shaped.cacheScope === undefined) shaped.cacheScope = hint.cacheScope;
  }
  const meta = source._meta;
  if (serverInfo !== undefined) {
    const stamped: Record<string, unknown> = {};
    if (typeof meta === "object" && meta !== null) {
      for (const key of Object.keys(meta)) stamped[key] = (meta as Record<string, unknown>)[key];
    }
    stamped[SERVER_INFO_KEY] = serverInfo;
    shaped._meta = stamped;
  } else if (meta !== undefined) {
    shaped._meta = meta;
  }
  return shaped;
}
