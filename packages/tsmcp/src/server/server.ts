/**
 * The low-level `Server`: a dispatcher that owns no connection. One instance answers any number of
 * requests, concurrently, from any transport; it keeps nothing about a request after answering it.
 * Each request runs: method lookup -> `_meta` validation -> middleware -> params validation ->
 * handler -> result shaping. Spec: basic/index, server/*, basic/patterns/*.
 *
 * With the `tasks` option it also serves the tasks extension (`io.modelcontextprotocol/tasks`):
 * `tasks/get`, `tasks/update`, `tasks/cancel` and `notifications/tasks` on `subscriptions/listen`
 * (server/tasks).
 *
 * A message the transport hands in with a 2025-era session (`env.session`) takes the handshake
 * era's path instead (server/legacy): `initialize`, then the same chain with who asked read from
 * the session. The server remembers the sessions that completed `initialize` until they end, only
 * to send them list-changed and resource-updated notifications.
 *
 * With telemetry recording (the `telemetry` option, see server/telemetry), every request and
 * notification gets a SERVER span and an `mcp.server.operation.duration` point, in both eras: the
 * handler runs inside the span (so spans it starts nest under it), a failure is logged inside it
 * (so the log line carries its ids), and the span of a multi round-trip leg continues the call's
 * first leg through the requestState boundary. Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
 */

import type * as z from "zod";
import { ERRORS, internalError, McpError, methodNotFound } from "../protocol/errors.js";
import type { Extension } from "../protocol/extension.js";
import {
  errorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Params,
  resultResponse,
} from "../protocol/jsonrpc.js";
import {
  CACHEABLE_METHODS,
  type CacheableMethod,
  isInputRequired,
  isKnownMethod,
  METHODS,
  type MethodSpec,
} from "../protocol/methods.js";
import { checkFunction } from "../protocol/options.js";
import type { Implementation, ServerCapabilities } from "../protocol/schema/base.js";
import type { SubscriptionFilter } from "../protocol/schema/methods.js";
import { TASKS_EXTENSION } from "../protocol/schema/tasks.js";
import { LATEST_PROTOCOL_VERSION, META } from "../protocol/versions.js";
import type { MessageBus } from "../state/message-bus.js";
import { withTraceFields } from "../telemetry/log-fields.js";
import type { TelemetryOption } from "../telemetry/options.js";
import { type Telemetry, telemetryFor } from "../telemetry/telemetry.js";
import type { Dispatcher, LegacySession, RequestEnvironment } from "../transport/dispatcher.js";
import { ServerBroadcast, type ServerEvent } from "./broadcast.js";
import { createRequestContext, environmentOf, type RequestContext } from "./context.js";
import { canListen, deriveCapabilities } from "./discover.js";
import {
  checkRegistration,
  type ExtensionMethodEntry,
  type ExtensionRegistration,
  extensionNotification,
  extensionParams,
  sendOnRequest,
  shapeExtensionResult,
} from "./extensions.js";
import { HANDLER_FOR_METHOD, type HandledMethod, type ServerHandlers } from "./handlers.js";
import {
  DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS,
  dispatchLegacy,
  type LegacyCore,
  type LegacyTasks,
  receiveLegacyNotification,
} from "./legacy/dispatch.js";
import {
  checkLegacyInputRequired,
  DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS,
  type LegacyInputRequired,
  REFUSED_INPUT_REQUIRED_REASON,
  refusedInputRequired,
} from "./legacy/input-required.js";
import { LegacySessions } from "./legacy/sessions.js";
import { type LogFields, type Logger, stderrLogger } from "./logger.js";
import {
  isThenable,
  type Middleware,
  type MiddlewareRequest,
  middlewareRequest,
  type Step,
  type WireResult,
  wrap,
} from "./middleware.js";
import { checkCommonServerOptions, checkLowLevelServerOptions } from "./options.js";
import { plainCallToolParams } from "./plain-shapes.js";
import { describeIssue, readRequestMeta } from "./request-meta.js";
import { requestTraceOf } from "./request-trace.js";
import { extensionCapability, missingCapability } from "./required-capability.js";
import {
  type CacheHint,
  checkTaskResult,
  DEFAULT_CACHE_HINT,
  InvalidHandlerResultError,
  shapeResult,
} from "./shaping.js";
import { legacyHandshake, PARAMS_AFTER_META, withoutNullRetryFields } from "./stateless-entry.js";
import { DEFAULT_MAX_TASK_SUBSCRIPTIONS, type ListKind, SubscriptionHub } from "./subscriptions.js";
import { LegacyTaskStatus } from "./tasks/legacy-status.js";
import { TaskManager } from "./tasks/manager.js";
import { serveTaskMethod, TASK_METHODS } from "./tasks/methods.js";
import type { TaskOptions } from "./tasks/options.js";
import { acceptsTaskResult, TASKS_CAPABILITY, toDetailedTask } from "./tasks/wire.js";
import { RequestSpan } from "./telemetry/request-span.js";
import { watchSessionDuration } from "./telemetry/session.js";

/**
 * Every 2026-07-28 result carries resultType (spec: basic/index §Result): a result a middleware
 * answered with by itself, unshaped, may lack it.
 */
function withResultType(result: WireResult): WireResult {
  return result.resultType === undefined ? { resultType: "complete", ...result } : result;
}

/** Cache hints for cacheable results that set none themselves. Spec: server/utilities/caching. */
export interface CacheOptions extends Partial<CacheHint> {
  /**
   * Per-method hints, over the defaults above: a cacheable core method (`CacheableMethod`) or a
   * `cacheable` method of an extension the server registers (`server.extension`). A core method
   * that is not cacheable is refused at construction (RangeError); an extension method that is not
   * `cacheable`, when its extension is registered (TypeError); a name no registered extension
   * claims is logged as a warning at the first request and ignored.
   */
  methods?: Partial<Record<CacheableMethod | (string & {}), Partial<CacheHint>>>;
}

/** Options of a low-level `Server`. */
export interface ServerOptions extends ServerHandlers {
  /** The server's version, in `serverInfo`. Default "0.0.0". */
  version?: string;
  /** More of the server's self-description (`title`, `description`, `icons`, `websiteUrl`). */
  info?: Omit<Partial<Implementation>, "name" | "version">;
  /**
   * Guidance for the model: returned by `server/discover`, and in the `initialize` result of a
   * 2025-era session.
   */
  instructions?: string;
  /** Cache hints; default `{ ttlMs: 0, cacheScope: "private" }`. */
  cache?: CacheOptions;
  /** Capabilities merged over the ones derived from the handlers. */
  capabilities?: ServerCapabilities;
  /** Stamp `io.modelcontextprotocol/serverInfo` on every result's `_meta`. Default true. */
  stampServerInfo?: boolean;
  /** Where diagnostics go. Default: warnings and errors to stderr. */
  logger?: Logger;
  /**
   * Records OpenTelemetry spans and metrics through `@opentelemetry/api` (an optional peer
   * dependency): `true` (default) through the global providers when the API is present, an object
   * for given providers, `false` for nothing. Without the API, or with no provider registered,
   * nothing is recorded. See docs/telemetry.md. Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
   */
  telemetry?: TelemetryOption;
  /**
   * What a handler's `InputRequiredResult` becomes on a 2025-era session (which has no
   * `InputRequiredResult`): `"refuse"` (default) answers a -32603 saying a 2025-era session cannot
   * carry it; `"fulfil"` asks the client over the session's back-channel and calls the handler again
   * with the answers. See {@link LegacyInputRequired} for which to choose.
   */
  legacyInputRequired?: LegacyInputRequired;
  /**
   * The most resource URIs one 2025-era session may subscribe to with `resources/subscribe`; one
   * more is refused with -32602. Default {@link DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS} (1000). Spec
   * (2025-11-25): server/resources §Subscriptions.
   */
  maxResourceSubscriptions?: number;
  /**
   * The most task ids one `subscriptions/listen` request may list in `notifications.taskIds` (the
   * tasks extension); a longer list is refused with -32602 naming the limit. Default
   * {@link DEFAULT_MAX_TASK_SUBSCRIPTIONS} (1000). Spec:
   * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Status
   * Notifications).
   */
  maxTaskSubscriptions?: number;
  /**
   * Serves the tasks extension (`io.modelcontextprotocol/tasks`): `server/discover` advertises
   * `capabilities.extensions["io.modelcontextprotocol/tasks"]`, and `tasks/get`, `tasks/update`,
   * `tasks/cancel` and `subscriptions/listen`'s `taskIds` are served for the requests that declare
   * the extension (-32021 for the others). Give the `TaskManager` your `onCallTool` creates tasks
   * with (`tasks.run(ctx, work)`), or its options (the manager is then `server.tasks`, closed with
   * the server). Default none: no tasks (extensions are opt-in).
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
   */
  tasks?: TaskManager | TaskOptions;
}

/** Enables the tasks extension on a server after its construction (MCPServer, once a tool declares `task`). */
const taskEnablers = new WeakMap<Server, (tasks: TaskManager) => void>();

/**
 * Serves the tasks extension on `server` with `tasks`, as the `tasks` option does (internal: for
 * `MCPServer`, which learns it needs tasks when a tool declares `task`). Does nothing when the server
 * serves tasks already.
 */
export function enableTasks(server: Server, tasks: TaskManager): void {
  taskEnablers.get(server)?.(tasks);
}

/** The revisions a `Server` answers. */
export const SERVER_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([LATEST_PROTOCOL_VERSION]);

/**
 * A low-level MCP server: handlers in, results out.
 *
 * ```ts
 * const server = new Server("Provisioner", {
 *   onCallTool: async (ctx, params) => params.inputResponses?.region
 *     ? { content: [{ type: "text", text: "done" }] }
 *     : inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "provision-v1" }),
 * });
 * ```
 *
 * @throws TypeError when `name` is not a string or an option has the wrong type (a handler that
 *   is not a function, a `logger` without `debug`, `info`, `warn` and `error`, ...), naming it:
 *   `Server option "version" must be a string`; RangeError for a bad cache hint.
 */
export class Server implements Dispatcher {
  /** The server's name, in `serverInfo` (and the default requestState audience). */
  readonly name: string;
  /** What `server/discover` advertises. */
  readonly capabilities: ServerCapabilities;
  /**
   * The stateless revisions this server answers (the `_meta` version of a request without a
   * session); on a 2025-era session it negotiates one of `HANDSHAKE_PROTOCOL_VERSIONS` instead.
   */
  readonly supportedVersions: readonly string[] = SERVER_PROTOCOL_VERSIONS;
  /** The server's identity, stamped on results. */
  readonly serverInfo: Implementation;
  /**
   * Where diagnostics go: the `logger` option (default `stderrLogger`), adding `trace_id` and
   * `span_id` to a line's fields while an OpenTelemetry span is active (when `@opentelemetry/api`
   * is present it is a wrapper of that logger, the same one for every server given it).
   */
  readonly logger: Logger;

  readonly #handlers: ServerHandlers;
  readonly #instructions: string | undefined;
  readonly #stampServerInfo: boolean;
  readonly #cacheHints: Map<string, CacheHint>;
  readonly #subscriptions = new SubscriptionHub();
  readonly #middleware: Middleware[] = [];
  readonly #legacyInputRequired: LegacyInputRequired;
  readonly #maxResourceSubscriptions: number;
  readonly #maxTaskSubscriptions: number;
  readonly #legacy: LegacyCore;
  readonly #broadcast: ServerBroadcast;
  #tasks: TaskManager | undefined;
  #legacyTasks: LegacyTasks | undefined;
  /** Removes this server's listeners of its task manager's changes (a shared manager outlives it). */
  #stopTaskListeners: () => void = () => {};
  /** True when the server built its task manager from options (and so closes it). */
  #ownsTasks = false;
  #chain: Step;
  /** {@link #cacheHint}, bound once: result shaping asks it per cacheable method. */
  readonly #hintOf = (method: string): CacheHint => this.#cacheHint(method);
  /** Where spans and metrics go; `undefined` records nothing. */
  readonly #telemetry: Telemetry | undefined;
  /** The methods of the registered extensions; `undefined` until one is registered (no cost before). */
  #extensionMethods: Map<string, ExtensionMethodEntry> | undefined;
  /** The ids of the registered extensions. */
  readonly #extensionIds = new Set<string>();
  /**
   * The `cache.methods` keys outside the core protocol that no registered extension serves yet;
   * warned of (once) at the first request.
   */
  #unclaimedCacheKeys: Set<string> | undefined;

  constructor(name: string, options: ServerOptions = {}) {
    if (typeof name !== "string") throw new TypeError("Server: name must be a string");
    checkCommonServerOptions("Server", options);
    checkLowLevelServerOptions("Server", options as Record<string, unknown>);
    checkLegacyInputRequired("Server", options.legacyInputRequired);
    // One wrapper for every line the server and its transports log: trace ids when a span is active.
    const logger = withTraceFields(options.logger ?? stderrLogger);
    const tasks =
      options.tasks === undefined || options.tasks instanceof TaskManager
        ? options.tasks
        : new TaskManager({ logger, ...options.tasks });
    this.name = name;
    this.#handlers = {};
    for (const key of Object.values(HANDLER_FOR_METHOD)) {
      const handler = options[key];
      checkFunction("Server", key, handler);
      if (handler !== undefined) (this.#handlers as Record<string, unknown>)[key] = handler;
    }
    const defaultHint: CacheHint = {
      ttlMs: options.cache?.ttlMs ?? DEFAULT_CACHE_HINT.ttlMs,
      cacheScope: options.cache?.cacheScope ?? DEFAULT_CACHE_HINT.cacheScope,
    };
    this.#cacheHints = new Map();
    for (const [method, hint] of Object.entries(options.cache?.methods ?? {})) {
      this.#cacheHints.set(method, { ...defaultHint, ...hint });
    }
    this.#cacheHints.set("*", defaultHint);
    const unclaimed = [...this.#cacheHints.keys()].filter(
      (method) => method !== "*" && !CACHEABLE_METHODS.has(method),
    );
    if (unclaimed.length > 0) this.#unclaimedCacheKeys = new Set(unclaimed);
    this.#instructions = options.instructions;
    this.#stampServerInfo = options.stampServerInfo ?? true;
    this.logger = logger;
    this.serverInfo = { ...options.info, name, version: options.version ?? "0.0.0" };
    this.#telemetry = telemetryFor("server", this.serverInfo.version, options.telemetry);
    this.capabilities = deriveCapabilities(this.#handlers, options.capabilities);
    this.#chain = (request) => this.#terminal(request);
    this.#legacyInputRequired = options.legacyInputRequired ?? "refuse";
    this.#maxResourceSubscriptions = options.maxResourceSubscriptions ?? DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS;
    this.#maxTaskSubscriptions = options.maxTaskSubscriptions ?? DEFAULT_MAX_TASK_SUBSCRIPTIONS;
    this.#legacy = this.#legacyCore();
    this.#broadcast = new ServerBroadcast(
      (event) => this.#deliver(event),
      (level, message, fields) => this.#log(level, message, fields),
      () => this.#deliverEverythingChanged(),
    );
    taskEnablers.set(this, (manager) => this.#enableTasks(manager));
    if (tasks !== undefined) {
      this.#enableTasks(tasks);
      this.#ownsTasks = !(options.tasks instanceof TaskManager);
    }
  }

  /**
   * The task manager this server serves the tasks extension with (the `tasks` option), or
   * `undefined` when it serves none.
   */
  get tasks(): TaskManager | undefined {
    return this.#tasks;
  }

  #enableTasks(tasks: TaskManager): void {
    if (this.#tasks !== undefined) return;
    this.#tasks = tasks;
    this.#legacyTasks = {
      manager: tasks,
      status: new LegacyTaskStatus(tasks, (error) =>
        this.#logError("sending notifications/tasks/status to a session failed", { error }),
      ),
    };
    this.capabilities.extensions = { ...this.capabilities.extensions, [TASKS_EXTENSION]: {} };
    const stopPublishing = tasks.onChange((task) => {
      // A DetailedTask may carry a large result: built only while a listen stream may want it.
      if (this.#subscriptions.size === 0) return;
      this.#subscriptions.publishTask(task.owner, task.taskId, toDetailedTask(task));
    });
    const status = this.#legacyTasks.status;
    this.#stopTaskListeners = () => {
      stopPublishing();
      status.close();
    };
  }

  /** What the 2025-era path reads of this server (the chain read at each call, as `use` replaces it). */
  #legacyCore(): LegacyCore {
    const server = this;
    return {
      get tasks() {
        return server.#legacyTasks;
      },
      serverInfo: this.serverInfo,
      capabilities: this.capabilities,
      instructions: this.#instructions,
      logger: this.logger,
      sessions: new LegacySessions((message, fields) => this.#logError(message, fields)),
      inputRequired: this.#legacyInputRequired,
      maxInputRequiredRounds: DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS,
      maxResourceSubscriptions: this.#maxResourceSubscriptions,
      serves: (method) => this.#serves(method),
      run: (request) => this.#chain(request),
      logError: (message, fields) => this.#logError(message, fields),
    };
  }

  /**
   * Serves an extension (see `defineExtension`): advertises `settings` (default `{}`) as
   * `capabilities.extensions[ext.id]` in `server/discover` and in the `initialize` result of a
   * 2025-era session, and answers each of its methods with `handlers[method](ctx, params)`, in both
   * eras. Params the method's schema refuses are answered -32602; a `requiresClientDeclaration`
   * method called by a request (2025 era: a session) that did not declare the extension, -32021
   * with `data.requiredCapabilities.extensions[ext.id]`; the result gets `resultType: "complete"`
   * and, for a `cacheable` method, `ttlMs`/`cacheScope` from the `cache` option where the handler
   * gave none. A result that does not match the
   * method's result schema is logged and answered -32603. Returns the server.
   * Spec: https://modelcontextprotocol.io/extensions/overview (Negotiation).
   *
   * @throws TypeError when `ext` is not from `defineExtension`, is registered already (the tasks
   *   extension included), the settings do not match `ext.serverSettings`, a method has no handler
   *   (or a handler no method), or another extension serves one of its methods.
   */
  extension<E extends Extension>(ext: E, registration: ExtensionRegistration<E>): this {
    const taken = this.#extensionIds;
    if (this.#tasks !== undefined && (ext as Partial<Extension>)?.id === TASKS_EXTENSION) {
      throw new TypeError(
        `Server.extension(${TASKS_EXTENSION}): the server serves tasks already (the tasks option)`,
      );
    }
    const methods = this.#extensionMethods ?? new Map<string, ExtensionMethodEntry>();
    const checked = checkRegistration("Server", ext, registration, { ids: taken, methods });
    const claimed = [...checked.methods].filter(([method]) => this.#unclaimedCacheKeys?.has(method) === true);
    for (const [method, entry] of claimed) {
      if (entry.spec.cacheable !== true) {
        throw new TypeError(
          `Server.extension(${ext.id}): option cache.methods["${method}"] names a method of the extension that is not cacheable`,
        );
      }
    }
    for (const [method] of claimed) this.#unclaimedCacheKeys?.delete(method);
    for (const [method, entry] of checked.methods) methods.set(method, entry);
    taken.add(ext.id);
    if (methods.size > 0) this.#extensionMethods = methods;
    this.capabilities.extensions = { ...this.capabilities.extensions, [ext.id]: checked.settings };
    return this;
  }

  /**
   * Sends the notification `method` of a registered-or-not extension `ext`, its params checked
   * against the declared schema. With `context` (a handler's), on that request's channel: its
   * response stream at 2026-07-28 (HTTP, stdio), its session at 2025 (nothing once the request is
   * over or cancelled). Without, to every live 2025-era session whose client declared `ext.id` at
   * `initialize` (2026-07-28 has no stream for notifications outside a request but
   * `subscriptions/listen`, which carries only the core notifications: send them with a context).
   *
   * @throws TypeError when `ext` declares no notification `method` or `params` do not match its
   *   schema (a programming error).
   */
  notifyExtension<E extends Extension, N extends keyof E["notifications"] & string>(
    ext: E,
    method: N,
    params: z.input<E["notifications"][N]>,
    context?: RequestContext,
  ): void {
    const notification = extensionNotification("Server", ext, method, params);
    if (context !== undefined) {
      sendOnRequest(context, notification);
      return;
    }
    this.#legacy.sessions.publish(notification, (session) => {
      const declared = session.handshake?.clientCapabilities.extensions;
      return declared !== undefined && Object.hasOwn(declared, ext.id);
    });
  }

  /**
   * Adds a middleware. Middleware added first runs first (outermost), so add auth before the
   * requestState boundary. Returns the server.
   */
  use(middleware: Middleware): this {
    if (typeof middleware !== "function") throw new TypeError("Server.use: middleware must be a function");
    this.#middleware.push(middleware);
    this.#chain = this.#middleware.reduceRight<Step>(
      (next, m) => wrap(m, next),
      (request) => this.#terminal(request),
    );
    return this;
  }

  /**
   * Tells `subscriptions/listen` streams that asked for it, and every live 2025-era session, that
   * the tools, prompts or resources list changed (sessions only when the capability declares
   * `listChanged`). Delivered before it returns; with a bus attached ({@link attachBus}) it is
   * published instead, and every replica delivers it to its own streams and sessions.
   *
   * @returns a promise of `true` once delivered (or published), `false` when the bus refused it
   *   (delivered on this replica only, and logged); it never rejects, so it may be ignored.
   */
  notifyListChanged(kind: ListKind): Promise<boolean> {
    return this.#broadcast.send({ type: "list_changed", kind });
  }

  /**
   * Tells `subscriptions/listen` streams watching `uri` (or a resource it contains), and the 2025-era
   * sessions subscribed to exactly `uri`, that it changed. Delivered before it returns; with a bus
   * attached ({@link attachBus}) it is published instead, and every replica delivers it.
   *
   * @returns a promise of `true` once delivered (or published), `false` when the bus refused it
   *   (delivered on this replica only, and logged); it never rejects, so it may be ignored.
   */
  notifyResourceUpdated(uri: string): Promise<boolean> {
    return this.#broadcast.send({ type: "resource_updated", uri });
  }

  /**
   * Puts the server in fleet mode on `bus` (see `Dispatcher.attachBus`): its list_changed and
   * resources/updated notifications go out on the bus topic `tsmcp:server`, and every replica
   * attached to it, this one included, delivers each to its own `subscriptions/listen` streams and
   * 2025-era sessions. Several attachments of one bus subscribe once.
   *
   * A message on the topic that is not one of these notifications is ignored and logged (warn).
   * When publishing fails (the bus rejects), the notification is logged and delivered on this
   * replica only; when this replica's subscription could not be taken, it is published and also
   * delivered here, and subscribing is tried again every `SUBSCRIBE_RETRY_MS` (1000 ms).
   *
   * The bus delivers at most once, so a replica whose subscription was interrupted (the bus
   * reports a gap through `onGap`, or the subscription had to be taken again) may have missed
   * notifications: it then sends every `subscriptions/listen` stream `resources/updated` for each
   * URI it watches and the `list_changed` it asked for, and every 2025-era session
   * `resources/updated` for each URI it subscribed to and the `list_changed` of each list whose
   * `listChanged` the server declares (logged, warn). These notifications thus arrive at least
   * once; a client treats one as "this may have changed" and reads again.
   *
   * @returns the function that detaches this attachment (idempotent).
   * @throws TypeError when `bus` is not a `MessageBus`, or while another bus is attached.
   */
  attachBus(bus: MessageBus): () => void {
    return this.#broadcast.attach(bus, "Server");
  }

  /** {@inheritDoc transport!Dispatcher.adoptSession} */
  adoptSession(session: LegacySession): void {
    this.#legacy.sessions.add(session);
  }

  /** Hands a notification that belongs to no request to this server's own streams and sessions. */
  #deliver(event: ServerEvent): void {
    if (event.type === "list_changed") {
      this.#subscriptions.publishListChanged(event.kind);
      if (this.capabilities[event.kind]?.listChanged) {
        this.#legacy.sessions.publishListChanged(event.kind, event.id);
      }
      return;
    }
    this.#subscriptions.publishResourceUpdated(event.uri);
    this.#legacy.sessions.publishResourceUpdated(event.uri, event.id);
  }

  /**
   * After a gap in the bus subscription (notifications may have been missed): tells every listen
   * stream and 2025-era session of this replica that whatever it watches may have changed.
   */
  #deliverEverythingChanged(): void {
    this.#subscriptions.publishEverythingChanged();
    const kinds = (["tools", "prompts", "resources"] as const).filter(
      (kind) => this.capabilities[kind]?.listChanged === true,
    );
    this.#legacy.sessions.publishEverythingChanged(kinds, `gap:${crypto.randomUUID()}`);
  }

  /**
   * Ends every open `subscriptions/listen` stream with its final result and stops listening to its
   * task manager's changes; a task manager the server built from its `tasks` options is closed too
   * (its running tasks are marked failed). A `TaskManager` given to it is its giver's to close.
   */
  close(): void {
    this.#subscriptions.closeAll();
    this.#stopTaskListeners();
    if (this.#ownsTasks) void this.#tasks?.close();
  }

  /** {@inheritDoc transport!Dispatcher.handle} */
  async handle(
    message: JSONRPCRequest | JSONRPCNotification,
    env: RequestEnvironment,
  ): Promise<JSONRPCResponse | undefined> {
    const { session } = env;
    if (this.#unclaimedCacheKeys !== undefined) this.#warnUnclaimedCacheKeys();
    const telemetry = this.#telemetry;
    const record =
      telemetry === undefined || !telemetry.recording()
        ? undefined
        : new RequestSpan(telemetry, message, env, session === undefined ? "stateless" : "handshake");
    if (!("id" in message)) {
      if (session !== undefined) receiveLegacyNotification(message, session);
      record?.complete();
      return undefined;
    }
    try {
      let result: WireResult;
      if (session === undefined) {
        const pending = this.#dispatch(message, env, record);
        result = isThenable(pending) ? await pending : pending;
        record?.observe(result);
      } else {
        const legacyEnv = env as RequestEnvironment & { session: LegacySession };
        result = await dispatchLegacy(this.#legacy, message, legacyEnv, record);
        if (telemetry !== undefined && record !== undefined && message.method === "initialize") {
          watchSessionDuration(telemetry, session, env.networkTransport);
        }
      }
      record?.complete();
      return resultResponse(message.id, result);
    } catch (error) {
      const toWire = (thrown: unknown) => this.#toWireError(thrown, message.method);
      // With a span, the failure is logged inside it: the log line carries the span's ids.
      const wire = record === undefined ? toWire(error) : record.failWith(error, toWire);
      return errorResponse(message.id, wire);
    }
  }

  /**
   * Warns, once, of each `cache.methods` key that names neither a cacheable core method nor a
   * cacheable method of a registered extension (by the first request, the extensions are registered).
   */
  #warnUnclaimedCacheKeys(): void {
    const unclaimed = this.#unclaimedCacheKeys ?? [];
    this.#unclaimedCacheKeys = undefined;
    for (const method of unclaimed) {
      this.#log(
        "warn",
        `Server option cache.methods["${method}"] names neither a cacheable core method nor a cacheable method of a registered extension; it is ignored`,
        {},
      );
    }
  }

  /** Logs an error; a logger that throws is ignored, so answering never fails on it. */
  #logError(message: string, fields: LogFields): void {
    this.#log("error", message, fields);
  }

  /** Logs at `level`; a logger that throws is ignored. */
  #log(level: "warn" | "error", message: string, fields: LogFields): void {
    try {
      this.logger[level](message, fields);
    } catch {
      // The dispatcher contract says handle() never rejects.
    }
  }

  /** Answers at once when nothing in the chain waits; throws what happens before anything waited. */
  #dispatch(
    request: JSONRPCRequest,
    env: RequestEnvironment,
    record: RequestSpan | undefined,
  ): WireResult | Promise<WireResult> {
    const { method } = request;
    if (method === "initialize") throw legacyHandshake(request.params, this.supportedVersions);
    if (!this.#serves(method)) throw methodNotFound(method);
    const meta = readRequestMeta(request.params, this.supportedVersions);
    const context = createRequestContext(method, request.id, meta, env);
    record?.attach(context);
    const result = this.#chain(middlewareRequest(method, request.params ?? {}, context, this.logger));
    return isThenable(result) ? result.then(withResultType) : withResultType(result);
  }

  #serves(method: string): boolean {
    if (!isKnownMethod(method)) return this.#extensionMethods?.has(method) === true;
    if (method === "server/discover") return true;
    if (method === "subscriptions/listen") return canListen(this.capabilities);
    if (TASK_METHODS.has(method)) return this.#tasks !== undefined;
    return this.#handlers[HANDLER_FOR_METHOD[method as HandledMethod]] !== undefined;
  }

  /** The end of the chain: with the request's span active (when one records it), {@link #serve}. */
  #terminal(request: MiddlewareRequest): WireResult | Promise<WireResult> {
    if (this.#telemetry !== undefined) {
      const record = requestTraceOf(request.context);
      if (record instanceof RequestSpan) return record.run(() => this.#serve(request));
    }
    return this.#serve(request);
  }

  /**
   * The params as the method's schema returns them (a copy), with `_meta` the context's. A plain
   * `tools/call` is checked by hand (the schema would return it unchanged); -32602 when the schema
   * refuses them.
   */
  #params(
    method: string,
    spec: MethodSpec,
    params: Params,
    context: RequestContext,
  ): Record<string, unknown> {
    const raw = spec.inputRequired ? withoutNullRetryFields(params) : params;
    const plain = method === "tools/call" ? plainCallToolParams(raw) : undefined;
    if (plain !== undefined) {
      plain._meta = context.meta;
      return plain;
    }
    const schema = PARAMS_AFTER_META[method as keyof typeof METHODS];
    // A 2025-era request need not carry `_meta`; the context holds what it had.
    const parsed = schema.safeParse(
      context.session !== undefined && raw._meta === undefined ? { ...raw, _meta: context.meta } : raw,
    );
    if (!parsed.success) {
      throw McpError.of("INVALID_PARAMS", `Invalid params: ${describeIssue(parsed.error.issues)}`);
    }
    const parsedParams = parsed.data as Record<string, unknown>;
    parsedParams._meta = context.meta;
    return parsedParams;
  }

  /**
   * Params validation, the handler (or a built-in method), result shaping: at once when the handler
   * answers at once, else when its promise settles.
   */
  #serve(request: MiddlewareRequest): WireResult | Promise<WireResult> {
    const { method, context } = request;
    const extension = this.#extensionMethods?.get(method);
    if (extension !== undefined) return this.#serveExtension(extension, request);
    const spec: MethodSpec = METHODS[method as keyof typeof METHODS];
    if (spec.extension !== undefined && context.session === undefined) {
      const required = extensionCapability(spec.extension);
      if (!required.isDeclared(context.clientCapabilities)) throw missingCapability(required, method);
    }
    const params = this.#params(method, spec, request.params, context);
    let result: unknown;
    if (method === "server/discover") {
      result = this.#discover();
    } else if (method === "subscriptions/listen") {
      result = this.#listen(context, params.notifications as SubscriptionFilter);
    } else if (TASK_METHODS.has(method)) {
      result = serveTaskMethod(this.#tasks as TaskManager, method, context, params);
    } else {
      const handler = this.#handlers[HANDLER_FOR_METHOD[method as HandledMethod]] as (
        ctx: RequestContext,
        params: unknown,
      ) => unknown;
      result = handler(context, params);
    }
    return isThenable(result)
      ? this.#shapeLater(method, context, result)
      : this.#shape(method, context, result);
  }

  /** An extension's method: its params, its handler, its result shaped (see `extension`). */
  #serveExtension(entry: ExtensionMethodEntry, request: MiddlewareRequest): WireResult | Promise<WireResult> {
    const { method, context } = request;
    const params = extensionParams(method, entry, request.params, context);
    const result = entry.handler(context, params);
    const stamp = context.session === undefined && this.#stampServerInfo ? this.serverInfo : undefined;
    return isThenable(result)
      ? Promise.resolve(result).then((done) => shapeExtensionResult(method, entry, done, stamp, this.#hintOf))
      : shapeExtensionResult(method, entry, result, stamp, this.#hintOf);
  }

  async #shapeLater(
    method: string,
    context: RequestContext,
    pending: PromiseLike<unknown>,
  ): Promise<WireResult> {
    return this.#shape(method, context, await pending);
  }

  /** Checks and shapes a handler's result (see `shapeResult`). */
  #shape(method: string, context: RequestContext, result: unknown): WireResult {
    checkTaskResult(method, result, () => acceptsTaskResult(context));
    if (context.session === undefined) {
      return shapeResult(method, result, this.#stampServerInfo ? this.serverInfo : undefined, this.#hintOf);
    }
    // A 2025-era session: no serverInfo stamp; an InputRequiredResult leaves the chain only to be
    // fulfilled over the back-channel (so a requestState boundary seals it on the way out).
    const shaped = shapeResult(method, result, undefined, this.#hintOf);
    if (isInputRequired(shaped) && this.#legacyInputRequired !== "fulfil") {
      this.#logError(`handler for ${method} returned an invalid result`, {
        reason: REFUSED_INPUT_REQUIRED_REASON,
      });
      throw refusedInputRequired(method);
    }
    return shaped;
  }

  #cacheHint(method: string): CacheHint {
    return this.#cacheHints.get(method) ?? (this.#cacheHints.get("*") as CacheHint);
  }

  #discover(): WireResult {
    const result: WireResult = {
      supportedVersions: [...this.supportedVersions],
      capabilities: this.capabilities,
    };
    if (this.#instructions !== undefined) result.instructions = this.#instructions;
    return result;
  }

  /**
   * Serves `subscriptions/listen`: acknowledges the part of `requested` this server honours, then
   * streams it until the client aborts or the server closes.
   *
   * `taskIds` (the tasks extension) is honoured whole, each id once: the acknowledgement lists
   * "the task IDs it has agreed to send notifications for" (tasks.md §Task Status Notifications),
   * and the server agrees to watch every listed id, sending `notifications/tasks` only for those
   * that are the caller's tasks. The acknowledgement is therefore the same for the caller's tasks,
   * another owner's and unknown ids: it neither reveals that another owner's task exists nor costs
   * a store read per id. A list past `maxTaskSubscriptions` is refused with -32602.
   *
   * @throws McpError -32600 without a streaming transport; -32021 for `taskIds` from a request that
   *   did not declare the tasks extension; -32602 for more `taskIds` than `maxTaskSubscriptions`.
   */
  async #listen(context: RequestContext, requested: SubscriptionFilter): Promise<WireResult> {
    const notify = environmentOf(context).notify;
    if (notify === undefined) {
      throw McpError.of(
        "INVALID_REQUEST",
        "subscriptions/listen needs a transport that can stream notifications",
      );
    }
    const honoured: SubscriptionFilter = {};
    const caps = this.capabilities;
    if (requested.toolsListChanged === true && caps.tools?.listChanged) honoured.toolsListChanged = true;
    if (requested.promptsListChanged === true && caps.prompts?.listChanged)
      honoured.promptsListChanged = true;
    if (requested.resourcesListChanged === true && caps.resources?.listChanged)
      honoured.resourcesListChanged = true;
    if (requested.resourceSubscriptions !== undefined && caps.resources?.subscribe) {
      honoured.resourceSubscriptions = [...requested.resourceSubscriptions];
    }
    const tasks = this.#tasks;
    if (requested.taskIds !== undefined && tasks !== undefined) {
      if (!TASKS_CAPABILITY.isDeclared(context.clientCapabilities)) {
        throw missingCapability(TASKS_CAPABILITY, "subscriptions/listen notifications.taskIds");
      }
      const count = requested.taskIds.length;
      if (count > this.#maxTaskSubscriptions) {
        throw McpError.of(
          "INVALID_PARAMS",
          `Invalid params: notifications.taskIds lists ${count} task ids, more than the ${this.#maxTaskSubscriptions} one subscriptions/listen may watch`,
        );
      }
      honoured.taskIds = [...new Set(requested.taskIds)];
    }
    const owner = tasks?.ownerOf(context.auth);
    await this.#subscriptions.listen(context.requestId, honoured, notify, context.signal, owner);
    return { _meta: { [META.subscriptionId]: context.requestId } };
  }

  #toWireError(error: unknown, method: string): McpError {
    if (error instanceof McpError) {
      // An -32603 built with a cause says what the client may know; the cause is for the log.
      if (error.code === ERRORS.INTERNAL_ERROR.code && error.cause !== undefined) {
        this.#logError(`handler for ${method} failed`, { error: error.cause });
      }
      return error;
    }
    if (error instanceof InvalidHandlerResultError) {
      this.#logError(`handler for ${method} returned an invalid result`, { reason: error.message });
    } else {
      this.#logError(`handler for ${method} failed`, { error });
    }
    return internalError();
  }
}
