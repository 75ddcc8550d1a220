/**
 * The client's side of extensions: the `extensions` option (each declared under
 * `capabilities.extensions[ext.id]`, on every 2026-07-28 request's `_meta` and in `initialize` at
 * 2025), an extension method's result checked against its declaration, and the listeners of an
 * extension's notifications. Spec: https://modelcontextprotocol.io/extensions/overview (Negotiation).
 */

import {
  checkExtensionSettings,
  type Extension,
  type ExtensionClientSettings,
  type ExtensionMethodSpec,
  isExtension,
  type JSONObject,
} from "../protocol/extension.js";
import type { JSONRPCNotification } from "../protocol/jsonrpc.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";
import { InvalidServerResponseError } from "./errors.js";
import type { ClientLogger } from "./logger.js";

/**
 * One entry of a client's `extensions` option: an extension (declared with `{}`), or an extension
 * with the settings the client declares for it (checked against `ext.clientSettings`).
 */
export type ClientExtension<E extends Extension = Extension> =
  | E
  | { readonly extension: E; readonly settings?: ExtensionClientSettings<E> };

/**
 * The capabilities `capabilities` with each of `extensions` declared under `extensions[ext.id]`
 * (over an entry `capabilities` has for the same id).
 *
 * @throws TypeError when `extensions` is not an array, an entry is neither an extension nor
 *   `{ extension, settings? }`, an id comes twice, or settings do not match `ext.clientSettings`.
 */
export function withDeclaredExtensions(
  owner: string,
  capabilities: ClientCapabilities,
  extensions: unknown,
): ClientCapabilities {
  if (extensions === undefined) return capabilities;
  if (!Array.isArray(extensions)) {
    throw new TypeError(
      `${owner} option "extensions" must be an array of extensions or { extension, settings }`,
    );
  }
  const declared: Record<string, JSONObject> = {};
  for (const entry of extensions as unknown[]) {
    const ext = isExtension(entry) ? entry : (entry as { extension?: unknown } | null)?.extension;
    if (!isExtension(ext)) {
      throw new TypeError(
        `${owner} option "extensions": each entry must be an extension from defineExtension or { extension, settings }`,
      );
    }
    if (Object.hasOwn(declared, ext.id)) {
      throw new TypeError(`${owner} option "extensions" declares ${ext.id} twice`);
    }
    const settings = entry === ext ? undefined : (entry as { settings?: unknown }).settings;
    declared[ext.id] = checkExtensionSettings(
      `${owner} option "extensions" (${ext.id})`,
      ext.clientSettings,
      settings,
    );
  }
  return { ...capabilities, extensions: { ...capabilities.extensions, ...declared } };
}

/**
 * The method `method` of `ext`.
 *
 * @throws TypeError when `ext` is not from `defineExtension` or declares no such method.
 */
export function extensionMethod(owner: string, ext: unknown, method: unknown): ExtensionMethodSpec {
  if (!isExtension(ext)) {
    throw new TypeError(`${owner}: the first argument must be an extension from defineExtension`);
  }
  if (typeof method !== "string" || !Object.hasOwn(ext.methods, method)) {
    throw new TypeError(`${owner}: the extension ${ext.id} declares no method ${JSON.stringify(method)}`);
  }
  return ext.methods[method] as ExtensionMethodSpec;
}

/**
 * A complete result of an extension method as its schema returns it.
 *
 * @throws InvalidServerResponseError when it is not complete or does not match the schema.
 */
export function checkExtensionResult(
  method: string,
  spec: ExtensionMethodSpec,
  result: Record<string, unknown>,
): unknown {
  const type = result.resultType;
  if (type !== undefined && type !== "complete") {
    throw new InvalidServerResponseError(
      `${method} answers complete results only, got resultType ${String(type)}`,
    );
  }
  const parsed = spec.result.safeParse(result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidServerResponseError(
      `${method}: the result does not match the extension's schema (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"})`,
    );
  }
  return parsed.data;
}

/** One listener of an extension notification. */
interface Listener {
  readonly ext: Extension;
  readonly handler: (params: unknown) => void;
}

/** The listeners of extension notifications, by method; checks each notification's params. */
export class ExtensionNotificationListeners {
  readonly #byMethod = new Map<string, Set<Listener>>();
  readonly #logger: ClientLogger;

  constructor(logger: ClientLogger) {
    this.#logger = logger;
  }

  /**
   * Calls `handler` with the params of every `method` notification of `ext`.
   *
   * @returns the function that removes it (idempotent).
   * @throws TypeError when `ext` declares no notification `method` or `handler` is not a function.
   */
  add(owner: string, ext: unknown, method: unknown, handler: unknown): () => void {
    if (!isExtension(ext)) {
      throw new TypeError(`${owner}: the first argument must be an extension from defineExtension`);
    }
    if (typeof method !== "string" || !Object.hasOwn(ext.notifications, method)) {
      throw new TypeError(
        `${owner}: the extension ${ext.id} declares no notification ${JSON.stringify(method)}`,
      );
    }
    if (typeof handler !== "function") throw new TypeError(`${owner}: handler must be a function`);
    const listener: Listener = { ext, handler: handler as Listener["handler"] };
    let set = this.#byMethod.get(method);
    if (set === undefined) {
      set = new Set();
      this.#byMethod.set(method, set);
    }
    set.add(listener);
    return () => {
      const current = this.#byMethod.get(method);
      current?.delete(listener);
      if (current?.size === 0) this.#byMethod.delete(method);
    };
  }

  /** Hands `notification` to its listeners; params their schema refuses are logged and dropped. */
  deliver(notification: JSONRPCNotification): void {
    if (this.#byMethod.size === 0) return;
    const listeners = this.#byMethod.get(notification.method);
    if (listeners === undefined) return;
    for (const { ext, handler } of [...listeners]) {
      const schema = ext.notifications[notification.method];
      const parsed = schema?.safeParse(notification.params ?? {});
      if (parsed === undefined || !parsed.success) {
        this.#logger.warn(
          `dropped a ${notification.method} notification whose params do not match ${ext.id}`,
          {
            issue: parsed?.error?.issues[0]?.message,
          },
        );
        continue;
      }
      try {
        handler(parsed.data);
      } catch (error) {
        this.#logger.warn(`a ${notification.method} listener threw`, { error });
      }
    }
  }
}
