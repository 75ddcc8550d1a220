/**
 * Serving extensions on a `Server`: the registration (`server.extension(ext, { settings, handlers })`)
 * and the dispatch of an extension's methods, in both eras. A registered extension is advertised as
 * `capabilities.extensions[ext.id]` (in `server/discover`, and in the `initialize` result of a
 * 2025-era session); its methods are served by the handlers given, after the extension's params
 * schema; its `requiresClientDeclaration` methods need the request (or the 2025-era session) to
 * declare the extension (-32021 otherwise); results get `resultType: "complete"` and, for
 * `cacheable` methods, the server's cache hints. Spec: https://modelcontextprotocol.io/extensions/overview
 * (Negotiation), basic/index §Error Codes.
 */
import { McpError } from "../protocol/errors.js";
import {
  checkExtensionSettings,
  type Extension,
  type ExtensionMethodSpec,
  type ExtensionParams,
  type ExtensionResult,
  type ExtensionServerSettings,
  isExtension,
} from "../protocol/extension.js";
import type { JSONRPCNotification, Params } from "../protocol/jsonrpc.js";
import type { Implementation } from "../protocol/schema/base.js";
import { META } from "../protocol/versions.js";
import { environmentOf, type RequestContext } from "./context.js";
import type { WireResult } from "./middleware.js";
import { describeIssue } from "./request-meta.js";
import { extensionCapability, missingCapability, type RequiredCapability } from "./required-capability.js";
import { type CacheHint, InvalidHandlerResultError } from "./shaping.js";

/**
 * One handler per method of `E`: called with the request's context (`Ctx`) and the params as the
 * method's schema returns them (without `_meta`: read `ctx.meta`); returns the complete result
 * (without `resultType`, which the server stamps), at once or as a promise. What it throws answers
 * as from any handler: an `McpError` as itself, anything else -32603 (logged).
 */
export type ExtensionHandlers<E extends Extension, Ctx = RequestContext> = {
  readonly [M in keyof E["methods"] & string]: (
    ctx: Ctx,
    params: ExtensionParams<E, M>,
  ) => ExtensionResult<E, M> | PromiseLike<ExtensionResult<E, M>>;
};

/** What `server.extension(ext, registration)` takes. */
export interface ExtensionRegistration<E extends Extension, Ctx = RequestContext> {
  /**
   * The settings advertised under `capabilities.extensions[ext.id]`, checked against
   * `ext.serverSettings` at registration. Default `{}`.
   */
  settings?: ExtensionServerSettings<E>;
  /** One handler per method of the extension (none for an extension without methods). */
  handlers: ExtensionHandlers<E, Ctx>;
}

/** One served method of a registered extension. */
export interface ExtensionMethodEntry {
  readonly extension: Extension;
  readonly spec: ExtensionMethodSpec;
  readonly handler: (ctx: RequestContext, params: unknown) => unknown;
  /** The capability a request must declare, for `requiresClientDeclaration` methods. */
  readonly required: RequiredCapability | undefined;
}

/** True for an object that is not an array (a JSON object's shape). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a registration and returns the extension's settings and served methods.
 *
 * @throws TypeError when `ext` is not a `defineExtension` result, the settings do not match
 *   `ext.serverSettings`, a method of `ext` has no handler, a handler names no method of `ext`, or
 *   `isTaken(ext.id)` / `isTaken(method)` says another registration has it.
 */
export function checkRegistration(
  owner: string,
  ext: unknown,
  registration: unknown,
  taken: { readonly ids: ReadonlySet<string>; readonly methods: ReadonlyMap<string, ExtensionMethodEntry> },
): { settings: Record<string, unknown>; methods: Map<string, ExtensionMethodEntry> } {
  if (!isExtension(ext)) {
    throw new TypeError(`${owner}.extension: the first argument must be an extension from defineExtension`);
  }
  const where = `${owner}.extension(${ext.id})`;
  if (taken.ids.has(ext.id)) throw new TypeError(`${where}: the extension is registered already`);
  if (!isPlainObject(registration)) {
    throw new TypeError(`${where}: the second argument must be { settings?, handlers }`);
  }
  const settings = checkExtensionSettings(where, ext.serverSettings, registration.settings);
  const handlers = registration.handlers ?? {};
  if (!isPlainObject(handlers)) throw new TypeError(`${where}: handlers must be an object of functions`);
  for (const name of Object.keys(handlers)) {
    if (!Object.hasOwn(ext.methods, name)) {
      throw new TypeError(`${where}: handler "${name}" names no method of the extension`);
    }
  }
  const methods = new Map<string, ExtensionMethodEntry>();
  for (const [method, spec] of Object.entries(ext.methods)) {
    const handler = handlers[method];
    if (typeof handler !== "function") {
      throw new TypeError(`${where}: method "${method}" needs a handler function`);
    }
    const other = taken.methods.get(method);
    if (other !== undefined) {
      throw new TypeError(
        `${where}: method "${method}" is served by the extension ${other.extension.id} already`,
      );
    }
    methods.set(method, {
      extension: ext,
      spec,
      handler: handler as ExtensionMethodEntry["handler"],
      required: spec.requiresClientDeclaration === true ? extensionCapability(ext.id) : undefined,
    });
  }
  return { settings, methods };
}

/**
 * The params of an extension method as its schema returns them (`_meta` left out: the context
 * holds it).
 *
 * @throws McpError -32021 for a `requiresClientDeclaration` method the request did not declare;
 *   -32602 `Invalid params: ...` when the schema refuses them.
 */
export function extensionParams(
  method: string,
  entry: ExtensionMethodEntry,
  params: Params,
  context: RequestContext,
): unknown {
  const required = entry.required;
  if (required !== undefined && !required.isDeclared(context.clientCapabilities)) {
    throw missingCapability(required, method);
  }
  let raw: Record<string, unknown> = params;
  if (Object.hasOwn(params, "_meta")) {
    raw = {};
    for (const key of Object.keys(params)) if (key !== "_meta") raw[key] = params[key];
  }
  const parsed = entry.spec.params.safeParse(raw);
  if (!parsed.success) {
    throw McpError.of("INVALID_PARAMS", `Invalid params: ${describeIssue(parsed.error.issues)}`);
  }
  return parsed.data;
}

/**
 * Shapes an extension handler's result: checked against the method's result schema, then a new
 * object with `resultType: "complete"`, the cache hints of a `cacheable` method where the handler
 * gave none, and `serverInfo` stamped in `_meta` (when given).
 *
 * @throws InvalidHandlerResultError when the result is not an object, says another `resultType`, or
 *   does not match the result schema.
 */
export function shapeExtensionResult(
  method: string,
  entry: ExtensionMethodEntry,
  result: unknown,
  serverInfo: Implementation | undefined,
  cacheHint: (method: string) => CacheHint,
): WireResult {
  if (!isPlainObject(result)) {
    throw new InvalidHandlerResultError(
      `the ${method} handler returned ${result === null ? "null" : typeof result}, not a result object`,
    );
  }
  if (result.resultType !== undefined && result.resultType !== "complete") {
    throw new InvalidHandlerResultError(
      `${method} answers complete results only, got resultType ${String(result.resultType)}`,
    );
  }
  const checked = entry.spec.result.safeParse(result);
  if (!checked.success) {
    throw new InvalidHandlerResultError(
      `the ${method} result does not match the extension's schema: ${describeIssue(checked.error.issues)}`,
    );
  }
  const shaped: WireResult = { resultType: "complete" };
  for (const key of Object.keys(result)) {
    if (key !== "resultType" && key !== "_meta") shaped[key] = result[key];
  }
  if (entry.spec.cacheable === true) {
    const hint = cacheHint(method);
    if (shaped.ttlMs === undefined) shaped.ttlMs = hint.ttlMs;
    if (shaped.cacheScope === undefined) shaped.cacheScope = hint.cacheScope;
  }
  const meta = result._meta;
  if (serverInfo !== undefined) {
    shaped._meta = { ...(isPlainObject(meta) ? meta : {}), [META.serverInfo]: serverInfo };
  } else if (meta !== undefined) {
    shaped._meta = meta;
  }
  return shaped;
}

/**
 * The notification `method` of `ext` with `params`, checked against the declared schema.
 *
 * @throws TypeError when `ext` declares no such notification or the params do not match.
 */
export function extensionNotification(
  owner: string,
  ext: Extension,
  method: string,
  params: unknown,
): JSONRPCNotification {
  if (!isExtension(ext)) {
    throw new TypeError(
      `${owner}.notifyExtension: the first argument must be an extension from defineExtension`,
    );
  }
  const schema = Object.hasOwn(ext.notifications, method) ? ext.notifications[method] : undefined;
  if (schema === undefined) {
    throw new TypeError(
      `${owner}.notifyExtension: the extension ${ext.id} declares no notification "${method}"`,
    );
  }
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    throw new TypeError(
      `${owner}.notifyExtension(${ext.id}): ${method} params do not match the schema: ${describeIssue(parsed.error.issues)}`,
    );
  }
  return { jsonrpc: "2.0", method, params: (params ?? {}) as Params };
}

/**
 * Sends `notification` on the channel of the request of `context`: its response stream (2026-07-28
 * HTTP, stdio), or its 2025-era session. Nothing is sent once the request is over or cancelled.
 */
export function sendOnRequest(context: RequestContext, notification: JSONRPCNotification): void {
  const env = environmentOf(context);
  if (env.signal.aborted) return;
  if (env.notify !== undefined) env.notify(notification);
  else env.session?.notify(notification);
}
