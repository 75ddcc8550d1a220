/**
 * The checks of the options a `Server` and an `MCPServer` share, run in their constructors so a
 * wrong option fails when the server is built, never at its first request. Each error names the
 * owner and the option: `TypeError: Server option "version" must be a string`.
 */
import { checkLogger } from "../protocol/logger.js";
import { CACHEABLE_METHODS, isKnownMethod } from "../protocol/methods.js";
import {
  checkBoolean,
  checkInteger,
  checkObject,
  checkOptionsObject,
  checkString,
  isObject,
  optionTypeError,
} from "../protocol/options.js";
import { checkTelemetryOption } from "../telemetry/options.js";

/** The options every server takes. */
export interface CommonServerOptions {
  version?: unknown;
  info?: unknown;
  instructions?: unknown;
  cache?: unknown;
  logger?: unknown;
  telemetry?: unknown;
  maxResourceSubscriptions?: unknown;
  maxTaskSubscriptions?: unknown;
}

/** The string fields of `info` (besides `icons`, an array). */
const INFO_STRINGS = ["title", "description", "websiteUrl"] as const;

/**
 * Checks `version`, `info`, `instructions`, `cache`, `logger`, `maxResourceSubscriptions` and
 * `maxTaskSubscriptions`, and that `options` is an object.
 *
 * @throws TypeError for an option of the wrong type (a `logger` without all four methods, an
 *   `info.icons` that is not an array, ...); RangeError for a cache hint out of range or a
 *   `cache.methods` key that names a core method that is not cacheable (or a notification; other
 *   names may be extension methods, checked by `Server.extension`), or a `maxResourceSubscriptions` or
 *   `maxTaskSubscriptions` that is not an integer >= 1.
 */
export function checkCommonServerOptions(owner: string, options: unknown): void {
  const {
    version,
    info,
    instructions,
    cache,
    logger,
    telemetry,
    maxResourceSubscriptions,
    maxTaskSubscriptions,
  } = checkOptionsObject(owner, options as CommonServerOptions | undefined);
  checkString(owner, "version", version);
  checkObject(owner, "info", info);
  if (isObject(info)) {
    for (const field of INFO_STRINGS) checkString(owner, `info.${field}`, info[field]);
    if (info.icons !== undefined && !Array.isArray(info.icons)) {
      throw optionTypeError(owner, "info.icons", "an array");
    }
  }
  checkString(owner, "instructions", instructions);
  checkInteger(owner, "maxResourceSubscriptions", maxResourceSubscriptions, { min: 1, unit: "URIs" });
  checkInteger(owner, "maxTaskSubscriptions", maxTaskSubscriptions, { min: 1, unit: "task ids" });
  checkCache(owner, cache);
  if (logger !== undefined) checkLogger(logger, owner);
  checkTelemetryOption(owner, telemetry);
}

function checkCache(owner: string, cache: unknown): void {
  checkObject(owner, "cache", cache);
  if (!isObject(cache)) return;
  checkCacheHint(owner, "cache", cache);
  checkObject(owner, "cache.methods", cache.methods);
  for (const [method, hint] of Object.entries(cache.methods ?? {})) {
    const name = `cache.methods["${method}"]`;
    // A name outside the core protocol may be an extension's method: Server.extension checks it.
    if (!CACHEABLE_METHODS.has(method) && isCoreName(method)) {
      throw new RangeError(`${owner} option "${name}": ${JSON.stringify(method)} is not a cacheable method`);
    }
    checkObject(owner, name, hint);
    checkCacheHint(owner, name, hint as Record<string, unknown>);
  }
}

/** True for a method or notification name of the core protocol (no extension may take it). */
function isCoreName(method: string): boolean {
  return (
    isKnownMethod(method) ||
    method === "initialize" ||
    method === "ping" ||
    method.startsWith("notifications/")
  );
}

/** A cache hint: `ttlMs` a non-negative integer, `cacheScope` "public" or "private". */
function checkCacheHint(owner: string, name: string, hint: Record<string, unknown>): void {
  checkInteger(owner, `${name}.ttlMs`, hint.ttlMs, { unit: "milliseconds" });
  const scope = hint.cacheScope;
  if (scope === undefined || scope === "public" || scope === "private") return;
  if (typeof scope !== "string") throw optionTypeError(owner, `${name}.cacheScope`, "a string");
  throw new RangeError(`${owner} option "${name}.cacheScope" must be "public" or "private", got ${scope}`);
}

/** Checks the `Server`-only options: `capabilities` (an object) and `stampServerInfo` (a boolean). */
export function checkLowLevelServerOptions(owner: string, options: Record<string, unknown>): void {
  checkObject(owner, "capabilities", options.capabilities);
  checkBoolean(owner, "stampServerInfo", options.stampServerInfo);
}
