/**
 * Declaring an MCP extension once: its identifier, the settings each side advertises under
 * `capabilities.extensions`, the request methods and notifications it adds with their wire schemas,
 * and the `_meta` keys it owns. A declaration is data: servers register it with handlers, clients
 * with their settings, and both sides check the peer's messages of the extension against it.
 * Spec: https://modelcontextprotocol.io/extensions/overview (Negotiation), SEP-2133.
 */
import type * as z from "zod";
import { METHODS } from "./methods.js";

/** One request method an extension adds, client -> server. */
export interface ExtensionMethodSpec<
  Params extends z.ZodType = z.ZodType,
  Result extends z.ZodType = z.ZodType,
> {
  /**
   * The params as the server accepts them, without `_meta` (the server checks `_meta` as for a core
   * method and hands the handler the request's). A request whose params this schema refuses is
   * answered -32602.
   */
  params: Params;
  /** The complete result, without `resultType` (the server stamps `"complete"`). */
  result: Result;
  /**
   * Its complete result carries `ttlMs` and `cacheScope` (server/utilities/caching), filled from
   * the server's cache hints where the handler gives none. Default `false`.
   */
  cacheable?: boolean;
  /**
   * Only a request that declares the extension in its client capabilities may call it; any other
   * is answered -32021 with `data.requiredCapabilities.extensions` naming the extension (the tasks
   * extension's rule). Default `false`: the server's declaration alone is enough (the Skills
   * extension's rule).
   */
  requiresClientDeclaration?: boolean;
}

/** A JSON object: what `capabilities.extensions` holds for each extension (its settings). */
export type JSONObject = Record<string, unknown>;

/** The methods of an extension by name. */
export type ExtensionMethods = Readonly<Record<string, ExtensionMethodSpec>>;
/** The notifications of an extension by method name, each with the schema of its params. */
export type ExtensionNotifications = Readonly<Record<string, z.ZodType>>;

/** What {@link defineExtension} takes. */
export interface ExtensionDeclaration<
  Id extends string = string,
  Methods extends ExtensionMethods = ExtensionMethods,
  Notifications extends ExtensionNotifications = ExtensionNotifications,
  ServerSettings extends z.ZodType = z.ZodType,
  ClientSettings extends z.ZodType = z.ZodType,
> {
  /**
   * `{vendor-prefix}/{extension-name}`, the vendor prefix a reversed domain name
   * (`io.modelcontextprotocol/skills`, `com.example/audit`): the key under
   * `capabilities.extensions` on both sides.
   */
  id: Id;
  /** The settings object a server advertises for it; absent: any JSON object. */
  serverSettings?: ServerSettings;
  /** The settings object a client declares for it; absent: any JSON object. */
  clientSettings?: ClientSettings;
  /** The request methods it adds (client -> server). None by default. */
  methods?: Methods;
  /** The notifications it adds (server -> client). None by default. */
  notifications?: Notifications;
  /** The `_meta` keys it owns (on requests, results, tools or resources), each with a prefix. */
  metaKeys?: readonly string[];
}

/** A checked extension declaration (see {@link defineExtension}). */
export interface Extension<
  Id extends string = string,
  Methods extends ExtensionMethods = ExtensionMethods,
  Notifications extends ExtensionNotifications = ExtensionNotifications,
  ServerSettings extends z.ZodType = z.ZodType,
  ClientSettings extends z.ZodType = z.ZodType,
> {
  readonly id: Id;
  readonly serverSettings: ServerSettings | undefined;
  readonly clientSettings: ClientSettings | undefined;
  readonly methods: Methods;
  readonly notifications: Notifications;
  readonly metaKeys: readonly string[];
}

/** The params a handler of `Method` of `E` receives (after the schema, `_meta` aside). */
export type ExtensionParams<E extends Extension, Method extends keyof E["methods"]> = z.output<
  E["methods"][Method]["params"]
>;
/** The result a handler of `Method` of `E` returns (before `resultType` and cache hints). */
export type ExtensionResult<E extends Extension, Method extends keyof E["methods"]> = z.input<
  E["methods"][Method]["result"]
>;
/** The result a client receives for `Method` of `E`, as its schema returns it. */
export type ExtensionResultOutput<E extends Extension, Method extends keyof E["methods"]> = z.output<
  E["methods"][Method]["result"]
>;

/** The settings object of an extension's side: its schema's input, or any JSON object without one. */
export type ExtensionSettingsInput<S extends z.ZodType | undefined> = S extends z.ZodType
  ? unknown extends z.input<S>
    ? JSONObject
    : z.input<S>
  : JSONObject;

/** The server settings `E` advertises (what `server.extension` takes as `settings`). */
export type ExtensionServerSettings<E extends Extension> = ExtensionSettingsInput<E["serverSettings"]>;

/** The client settings `E` declares (what a client's `extensions` option takes as `settings`). */
export type ExtensionClientSettings<E extends Extension> = ExtensionSettingsInput<E["clientSettings"]>;

/** True for an object that is not an array (a JSON object's shape). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks settings against an extension's schema (any JSON object without one).
 *
 * @throws TypeError naming `where` and the problem.
 */
export function checkExtensionSettings(
  where: string,
  schema: z.ZodType | undefined,
  settings: unknown,
): JSONObject {
  const given = settings ?? {};
  if (!isPlainObject(given)) {
    throw new TypeError(
      `${where}: settings must be an object, got ${Array.isArray(given) ? "an array" : typeof given}`,
    );
  }
  if (schema === undefined) return structuredClone(given) as JSONObject;
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    throw new TypeError(
      `${where}: settings do not match the extension's schema: ${describeIssues(parsed.error.issues)}`,
    );
  }
  if (!isPlainObject(parsed.data)) throw new TypeError(`${where}: the settings schema must give an object`);
  return parsed.data as JSONObject;
}

/** True when `value` looks like what `defineExtension` returns. */
export function isExtension(value: unknown): value is Extension {
  const ext = value as Partial<Extension> | null;
  return (
    typeof ext === "object" &&
    ext !== null &&
    typeof ext.id === "string" &&
    typeof ext.methods === "object" &&
    typeof ext.notifications === "object"
  );
}

/** The first problem of a zod failure: `path: message` (`limit: Too big: expected ...`). */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (issue === undefined) return "invalid";
  return issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`;
}

/** A dot-separated label of the prefix: a letter first, a letter or digit last, hyphens inside. */
const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
/** An extension identifier: a reversed domain name of two labels or more, a slash, a name. */
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})+/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);
/** A `_meta` key with a prefix: labels and a slash, then a name (empty names are not owned). */
const PREFIXED_META_KEY = new RegExp(`^${LABEL}(?:\\.${LABEL})*/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$`);
/** The prefixes the core protocol reserves for its own methods and notifications. */
const NOTIFICATION_PREFIX = "notifications/";

/** True when `id` has the form of an extension identifier (`io.modelcontextprotocol/skills`). */
export function isExtensionId(id: string): boolean {
  return EXTENSION_ID.test(id);
}

/**
 * Checks an extension declaration and returns it frozen, for registering with a server
 * (`server.extension(...)`) and a client (the `extensions` option).
 *
 * @example
 * const audit = defineExtension({
 *   id: "com.example/audit",
 *   methods: { "audit/recent": { params: z.object({ limit: z.number().int().max(100) }), result: z.object({ entries: z.array(z.string()) }) } },
 * });
 * @throws TypeError when `id` is not `{vendor-prefix}/{name}`, a method is a core method (or a
 *   notification name), a notification does not start with `notifications/`, or a `_meta` key has
 *   no prefix.
 */
export function defineExtension<
  const Id extends string,
  const Methods extends ExtensionMethods = Record<never, ExtensionMethodSpec>,
  const Notifications extends ExtensionNotifications = Record<never, z.ZodType>,
  ServerSettings extends z.ZodType = z.ZodType,
  ClientSettings extends z.ZodType = z.ZodType,
>(
  declaration: ExtensionDeclaration<Id, Methods, Notifications, ServerSettings, ClientSettings>,
): Extension<Id, Methods, Notifications, ServerSettings, ClientSettings> {
  const { id } = declaration;
  if (typeof id !== "string" || !EXTENSION_ID.test(id)) {
    throw new TypeError(
      `defineExtension: id must be "{vendor-prefix}/{extension-name}" with a reversed domain name as the prefix (e.g. "com.example/audit"), got ${JSON.stringify(id)}`,
    );
  }
  const methods = declaration.methods ?? ({} as Methods);
  for (const [method, spec] of Object.entries(methods)) {
    if (Object.hasOwn(METHODS, method) || method === "initialize" || method === "ping") {
      throw new TypeError(
        `defineExtension(${id}): "${method}" is a core method; an extension adds methods of its own`,
      );
    }
    if (method.startsWith(NOTIFICATION_PREFIX)) {
      throw new TypeError(
        `defineExtension(${id}): "${method}" names a notification; declare it under notifications`,
      );
    }
    if (typeof spec?.params?.safeParse !== "function" || typeof spec.result?.safeParse !== "function") {
      throw new TypeError(
        `defineExtension(${id}): method "${method}" needs zod schemas for params and result`,
      );
    }
  }
  const notifications = declaration.notifications ?? ({} as Notifications);
  for (const [method, schema] of Object.entries(notifications)) {
    if (!method.startsWith(NOTIFICATION_PREFIX)) {
      throw new TypeError(
        `defineExtension(${id}): notification "${method}" must start with "${NOTIFICATION_PREFIX}"`,
      );
    }
    if (typeof schema?.safeParse !== "function") {
      throw new TypeError(
        `defineExtension(${id}): notification "${method}" needs a zod schema for its params`,
      );
    }
  }
  const metaKeys = [...(declaration.metaKeys ?? [])];
  for (const key of metaKeys) {
    if (typeof key !== "string" || !PREFIXED_META_KEY.test(key)) {
      throw new TypeError(
        `defineExtension(${id}): _meta key ${JSON.stringify(key)} needs a prefix (e.g. "${id.split("/")[0]}/key")`,
      );
    }
  }
  return Object.freeze({
    id,
    serverSettings: declaration.serverSettings,
    clientSettings: declaration.clientSettings,
    methods: Object.freeze({ ...methods }),
    notifications: Object.freeze({ ...notifications }),
    metaKeys: Object.freeze(metaKeys),
  }) as Extension<Id, Methods, Notifications, ServerSettings, ClientSettings>;
}
