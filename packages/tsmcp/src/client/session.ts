/**
 * `ClientSession`: the mechanics of talking to one server over one transport. It stamps the
 * per-request `_meta` on every request, correlates responses, validates results, and turns error
 * responses into `McpError`. It runs no multi-round-trip policy: a carrier call returns the
 * `InputRequiredResult` when asked to (`allowInputRequired: true`), and `Client` builds the loop on top.
 * Spec: basic/index §Request metadata, server/discover,
 * basic/patterns/mrtr §Client Requirements (Basic Workflow).
 *
 * After {@link ClientSession.initialize} the session speaks the 2025 era instead: requests carry no
 * `_meta` envelope (only a `progressToken` when progress is asked for), results without
 * `resultType` are complete, and the transport keeps the session. Spec (2025-11-25): basic/lifecycle.
 */
import type * as z from "zod";
import type { Extension, ExtensionResultOutput } from "../protocol/extension.js";
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import { stderrLogger } from "../protocol/logger.js";
import { type InputRequiredMethod, isInputRequired, type METHODS, type Method } from "../protocol/methods.js";
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
} from "../protocol/schema/base.js";
import type { InitializeResult } from "../protocol/schema/handshake.js";
import type { InputRequiredResult, InputResponses } from "../protocol/schema/input.js";
import {
  type CallToolResult,
  type CompleteRequestParams,
  type CompleteResult,
  type DiscoverResult,
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type SubscriptionFilter,
  SubscriptionFilterSchema,
} from "../protocol/schema/methods.js";
import type { CreateTaskResult, DetailedTask, Task } from "../protocol/schema/tasks.js";
import { LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";
import { withTraceFields } from "../telemetry/log-fields.js";
import { isTransport, SessionExpiredError, type Transport } from "../transport/transport.js";
import {
  checkMethodInEra,
  instructionsOf,
  type SessionEra,
  serverCapabilitiesOf,
  serverInfoOf,
} from "./era.js";
import {
  ExtensionNotSupportedError,
  InvalidServerResponseError,
  MethodNotInEraError,
  ServerCapabilityMissingError,
} from "./errors.js";
import { exchange } from "./exchange.js";
import { checkExtensionResult, ExtensionNotificationListeners, extensionMethod } from "./extensions.js";
import { checkInitializeResult, initializeParams } from "./handshake.js";
import { openSubscription } from "./listen.js";
import { LegacyListeners, legacyHonouredFilter } from "./listen-legacy.js";
import { supportedVersionsOf } from "./negotiate.js";
import { NotificationRouter } from "./notifications.js";
import { ParamHeaderCache } from "./param-header-cache.js";
import { checkTimeout, requestMeta, withMeta } from "./request-meta.js";
import { checkCarrierResult, checkCompleteResult } from "./result-check.js";
import {
  type AllowInputRequired,
  type ClientSessionOptions,
  checkSessionOptions,
  DEFAULT_CLIENT_INFO,
  DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
  type InputRequiredOptions,
  type ListenNotification,
  type RequestOptions,
  type Subscription,
  type TaskAugmented,
} from "./session-options.js";
import { type SessionTelemetry, sessionTelemetry } from "./session-telemetry.js";
import {
  cancelTask,
  createdTaskOf,
  getTask,
  listTasks,
  type TaskListPage,
  type TaskWire,
  taskResult,
  updateTask,
  withTasksExtension,
} from "./task-wire.js";

/** The params an extension method takes, as the caller gives them (its schema's input). */
type ExtensionParamsInput<E extends Extension, M extends keyof E["methods"]> = z.input<
  E["methods"][M]["params"]
>;

type ResultOf<M extends Method> = z.infer<(typeof METHODS)[M]["result"]>;

/** What one send may also carry: its JSON-RPC id, its notifications, and whether it declares the tasks extension. */
type SendOptions = RequestOptions & {
  id?: RequestId;
  onNotification?: (n: JSONRPCNotification) => void;
  declareTasks?: boolean;
  /** The capabilities this request declares instead of the session's. */
  capabilities?: ClientCapabilities;
};

/** The mechanics of one client's conversation with one server. */
export class ClientSession {
  /** The transport requests travel on. */
  readonly transport: Transport;
  /** The capabilities declared on every request. */
  readonly capabilities: ClientCapabilities;
  /** The `clientInfo` sent on every request, if any. */
  readonly clientInfo: Implementation | undefined;
  /** The result of the last `server/discover`, if one was made. */
  discovered: DiscoverResult | undefined;
  /** The server's answer to `initialize`, on a 2025-era session. */
  initialized: InitializeResult | undefined;

  #protocolVersion: string;
  readonly #timeoutMs: number;
  /** Annotated parameters per tool name, from the latest `tools/list`; undefined when not mirroring. */
  readonly #paramHeaders: ParamHeaderCache | undefined;
  readonly #notifications: NotificationRouter;
  readonly #listeners: LegacyListeners;
  /** The open `subscriptions/listen` streams, ended when the session closes. */
  readonly #streams = new Set<Subscription>();
  #era: SessionEra = "modern";
  #renewal: Promise<unknown> | undefined;
  #nextId = 1;
  #nextProgressToken = 1;
  /** Where spans and metrics go; undefined records nothing. */
  readonly #telemetry: SessionTelemetry | undefined;
  /** The listeners of extension notifications. */
  readonly #extensionListeners: ExtensionNotificationListeners;

  /**
   * @throws TypeError when `transport` is not a `Transport`, or naming an option of the wrong type (a `logger` without `warn`, ...);
   *   RangeError for a `timeoutMs` that is not a positive number.
   */
  constructor(transport: Transport, options: ClientSessionOptions = {}) {
    if (!isTransport(transport)) {
      throw new TypeError("ClientSession: transport must be a Transport (with request and close methods)");
    }
    checkSessionOptions(options);
    this.transport = transport;
    this.capabilities = structuredClone(options.capabilities ?? {});
    this.clientInfo =
      options.clientInfo === false ? undefined : { ...(options.clientInfo ?? DEFAULT_CLIENT_INFO) };
    this.#protocolVersion = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS;
    const logger = withTraceFields(options.logger ?? stderrLogger);
    const mirror = options.mirrorParamHeaders ?? transport.sendsHttpHeaders === true;
    this.#paramHeaders = mirror ? new ParamHeaderCache(logger) : undefined;
    this.#extensionListeners = new ExtensionNotificationListeners(logger);
    this.#listeners = new LegacyListeners({
      send: async (method, uri) => {
        await this.#send(method, { uri }, {});
      },
      ready: () => transport.notificationsReady?.() ?? Promise.resolve(),
      onResubscribeError: (uri, error) =>
        logger.warn(`resources/subscribe for ${uri} failed on the renewed session`, { error }),
    });
    this.#notifications = new NotificationRouter({
      ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
      ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
      tap: (notification) => {
        this.#listeners.deliver(notification);
        this.#extensionListeners.deliver(notification);
      },
    });
    transport.onNotification ??= (notification) => this.#notifications.receive(notification);
    this.#telemetry = sessionTelemetry(transport, options.telemetry);
  }

  /**
   * The era of the conversation: `"modern"` (2026-07-28, self-contained requests) until
   * {@link initialize} succeeds, `"legacy"` (a 2025-era session) after.
   */
  get era(): SessionEra {
    return this.#era;
  }

  /**
   * The 2025-era handshake: sends `initialize` (protocol version 2025-11-25, the declared
   * capabilities, `clientInfo`), checks the answer, switches the session and its transport to the
   * version the server chose, and sends `notifications/initialized`. Afterwards
   * {@link protocolVersion}, {@link serverInfo}, {@link serverCapabilities} and
   * {@link instructions} come from the answer. Spec (2025-11-25): basic/lifecycle §Initialization.
   *
   * @throws McpError when the server refuses it; InvalidServerResponseError for a malformed answer;
   *   ProtocolNegotiationError when it names a revision this client does not speak;
   *   RequestTimeoutError; TransportError.
   */
  async initialize(options: RequestOptions = {}): Promise<InitializeResult> {
    const raw = await this.#send(
      "initialize",
      initializeParams(this.capabilities, this.clientInfo ?? DEFAULT_CLIENT_INFO),
      options,
    );
    const result = checkInitializeResult(raw);
    this.initialized = result;
    this.#era = "legacy";
    this.#protocolVersion = result.protocolVersion;
    this.transport.setProtocolEra?.({ kind: "legacy", protocolVersion: result.protocolVersion });
    if (this.#telemetry !== undefined) await this.#telemetry.initialized(this);
    await this.notify("notifications/initialized");
    return result;
  }

  /**
   * Sends a notification with the session's trace context in its `_meta` (when telemetry is on),
   * without waiting for anything back. `params` is copied, never changed.
   *
   * @throws TransportError when the transport cannot send it.
   */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.#telemetry !== undefined) return this.#telemetry.notify(this, method, params);
    await this.transport.notify({ jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) });
  }

  /**
   * Adopts a 2026-07-28 revision without asking the server (a saved discover result, or
   * `discover: false`).
   */
  adopt(protocolVersion: string, discovered?: DiscoverResult): void {
    this.#era = "modern";
    this.#protocolVersion = protocolVersion;
    if (discovered !== undefined) this.discovered = discovered;
    this.transport.setProtocolEra?.({ kind: "modern" });
  }

  /**
   * `logging/setLevel` on a 2025-era session: the least severe log level the server sends (as
   * `notifications/message`, delivered to `onLog`). At 2026-07-28 ask per request with `logLevel`.
   * Spec (2025-11-25): server/utilities/logging.
   *
   * @throws MethodNotInEraError at 2026-07-28; McpError when the server refuses it.
   */
  async setLoggingLevel(level: LoggingLevel, options: RequestOptions = {}): Promise<void> {
    if (this.#era !== "legacy") {
      throw new MethodNotInEraError(
        "logging/setLevel",
        this.#protocolVersion,
        "pass logLevel with each request instead",
      );
    }
    await this.#send("logging/setLevel", { level }, options);
  }

  /** The protocol revision stamped on requests. */
  get protocolVersion(): string {
    return this.#protocolVersion;
  }

  /** What the server said it is, from `server/discover` or `initialize`. */
  get serverInfo(): Implementation | undefined {
    return serverInfoOf(this.#era, this);
  }

  /** What the server offers, from `server/discover` or `initialize`. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return serverCapabilitiesOf(this.#era, this);
  }

  /** The server's instructions for the model, from `server/discover` or `initialize`. */
  get instructions(): string | undefined {
    return instructionsOf(this.#era, this);
  }

  /**
   * `server/discover`: learns the server's versions, capabilities and instructions. When the
   * server answers -32022 naming a modern version this session can speak, switches to it (it may
   * be the version just sent: a fleet mid-deploy can refuse it on one node) and asks again, once.
   * Spec: basic/versioning (the client retries with a supported version).
   */
  async discover(options: RequestOptions = {}): Promise<DiscoverResult> {
    try {
      this.discovered = await this.request("server/discover", {}, options);
    } catch (error) {
      const supported = supportedVersionsOf(error);
      const mutual = supported?.find((version) => version === LATEST_PROTOCOL_VERSION);
      if (mutual === undefined) throw error;
      this.#protocolVersion = mutual;
      this.discovered = await this.request("server/discover", {}, options);
    }
    return this.discovered;
  }

  /**
   * `tools/list`: one page of tools. Over Streamable HTTP, a tool whose `x-mcp-header`
   * annotations break the rules is left out (with a warning to the logger naming it and why), and
   * the annotated parameters of the others are remembered for `callTool`. Spec: basic/transports/streamable-http §Custom Headers.
   */
  async listTools(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListToolsResult> {
    const result = await this.request("tools/list", params, options);
    return this.#paramHeaders === undefined ? result : this.#paramHeaders.admit(result);
  }

  /** `prompts/list`: one page of prompts. */
  listPrompts(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.request("prompts/list", params, options);
  }

  /** `resources/list`: one page of resources. */
  listResources(params: { cursor?: string } = {}, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.request("resources/list", params, options);
  }

  /** `resources/templates/list`: one page of resource templates. */
  listResourceTemplates(
    params: { cursor?: string } = {},
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.request("resources/templates/list", params, options);
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: Omit<CompleteRequestParams, "_meta">, options?: RequestOptions): Promise<CompleteResult> {
    return this.request("completion/complete", params, options);
  }

  /**
   * `tools/call` once. Returns the `CallToolResult`; with `allowInputRequired: true` may return
   * the `InputRequiredResult` for the caller to answer and retry.
   *
   * Over Streamable HTTP, the arguments the tool's listed schema annotates with `x-mcp-header`
   * also travel as `Mcp-Param-{Name}` headers (none for a tool not seen in `listTools`).
   *
   * With `task` (see `TaskAugmented`) the server may answer with a task: the `CreateTaskResult`
   * is returned (flat, `resultType: "task"`, in both eras), as is an `InputRequiredResult`; follow
   * the task with {@link getTask}, or use `Client.callTool(..., { task: true })`, which does.
   *
   * @throws UnexpectedInputRequiredError when the server asks for input and `allowInputRequired` is
   *   not set; TypeError, before sending, for an annotated argument that cannot be mirrored (an
   *   object, an array, a fractional number or an integer beyond ±(2^53−1)).
   */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: InputRequiredOptions & TaskAugmented,
  ): Promise<CallToolResult | InputRequiredResult | CreateTaskResult>;
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: InputRequiredOptions & AllowInputRequired,
  ): Promise<CallToolResult | InputRequiredResult>;
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options?: InputRequiredOptions,
  ): Promise<CallToolResult>;
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options: InputRequiredOptions & { allowInputRequired?: boolean; task?: TaskAugmented["task"] } = {},
  ): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
    let headers: Record<string, string> | undefined;
    try {
      headers = this.#paramHeaders?.headersFor(name, args);
    } catch (error) {
      return Promise.reject(error);
    }
    const legOptions =
      headers === undefined ? options : { ...options, headers: { ...options.headers, ...headers } };
    const params: Record<string, unknown> = args === undefined ? { name } : { name, arguments: args };
    if (options.task !== undefined) return this.#taskCarrier(params, options.task, legOptions);
    return this.#carrier("tools/call", params, legOptions) as Promise<CallToolResult | InputRequiredResult>;
  }

  /**
   * `tasks/get`: the task's status, and its status's payload (`inputRequests` while
   * `input_required`, `result` once `completed`, `error` once `failed`). At 2026-07-28 the request
   * declares the tasks extension (and over HTTP carries `Mcp-Name: <taskId>`); on a 2025-11-25
   * session the 2025 `ttl` and `pollInterval` read as `ttlMs` and `pollIntervalMs`, and the result
   * comes from {@link taskResult}.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Polling).
   *
   * @throws UnknownTaskError when the server knows no such task (-32602); McpError;
   *   InvalidServerResponseError.
   */
  getTask(taskId: string, options: RequestOptions = {}): Promise<DetailedTask> {
    return getTask(this.#taskWire(), taskId, options);
  }

  /**
   * `tasks/update` (2026-07-28): answers to a task's outstanding `inputRequests`, by key. The
   * server may take a subset and stay `input_required` for the rest.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Update Requests).
   *
   * @throws MethodNotInEraError on a 2025-11-25 session (its tasks ask over the back-channel);
   *   UnknownTaskError (-32602); McpError.
   */
  updateTask(taskId: string, inputResponses: InputResponses, options: RequestOptions = {}): Promise<void> {
    return updateTask(this.#taskWire(), taskId, inputResponses, options);
  }

  /**
   * `tasks/cancel`: asks the server to cancel the task. Cooperative and eventually consistent at
   * 2026-07-28 (resolves undefined on the acknowledgement; the status may change later, or the
   * task may finish anyway); on a 2025-11-25 session resolves the cancelled task.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Cancellation).
   *
   * @throws UnknownTaskError (-32602: unknown, or at 2025-11-25 already terminal); McpError.
   */
  cancelTask(taskId: string, options: RequestOptions = {}): Promise<Task | undefined> {
    return cancelTask(this.#taskWire(), taskId, options);
  }

  /**
   * `tasks/list` (2025-11-25 only): one page of the caller's tasks.
   * Spec (2025-11-25): basic/utilities/tasks §Listing Tasks.
   *
   * @throws MethodNotInEraError at 2026-07-28 (the tasks extension has no `tasks/list`); McpError.
   */
  listTasks(params: { cursor?: string } = {}, options: RequestOptions = {}): Promise<TaskListPage> {
    return listTasks(this.#taskWire(), params.cursor, options);
  }

  /**
   * `tasks/result` (2025-11-25 only): waits until the task ends, then answers what the call would
   * have (the server's questions arrive on the back-channel meanwhile). Pass `timeoutMs: Infinity`
   * to wait as long as the task runs.
   * Spec (2025-11-25): basic/utilities/tasks §Retrieving Task Results.
   *
   * @throws MethodNotInEraError at 2026-07-28; UnknownTaskError (-32602); McpError (the task's error).
   */
  taskResult(taskId: string, options: RequestOptions = {}): Promise<CallToolResult> {
    return taskResult(this.#taskWire(), taskId, options);
  }

  #taskWire(): TaskWire {
    return {
      era: this.#era,
      protocolVersion: this.#protocolVersion,
      send: (method, params, options) => this.#send(method, params, { ...options, declareTasks: true }),
    };
  }

  async #taskCarrier(
    params: Record<string, unknown>,
    task: TaskAugmented["task"],
    options: InputRequiredOptions,
  ): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
    const full: Record<string, unknown> = { ...params };
    if (options.inputResponses !== undefined) full.inputResponses = options.inputResponses;
    if (options.requestState !== undefined) full.requestState = options.requestState;
    if (this.#era === "legacy") {
      const ttlMs = typeof task === "object" ? task.ttlMs : undefined;
      full.task = ttlMs === undefined ? {} : { ttl: ttlMs };
    }
    const result = await this.#send("tools/call", full, { ...options, declareTasks: true });
    const created = createdTaskOf(this.#era, result);
    if (created !== undefined) return created;
    return checkCarrierResult("tools/call", result, true) as CallToolResult | InputRequiredResult;
  }

  /**
   * `prompts/get` once; see {@link callTool} for `allowInputRequired`.
   *
   * @throws UnexpectedInputRequiredError when the server asks for input and `allowInputRequired` is not set.
   */
  getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    options: InputRequiredOptions & AllowInputRequired,
  ): Promise<GetPromptResult | InputRequiredResult>;
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options?: InputRequiredOptions,
  ): Promise<GetPromptResult>;
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options: InputRequiredOptions & { allowInputRequired?: boolean } = {},
  ): Promise<GetPromptResult | InputRequiredResult> {
    return this.#carrier(
      "prompts/get",
      args === undefined ? { name } : { name, arguments: args },
      options,
    ) as Promise<GetPromptResult | InputRequiredResult>;
  }

  /**
   * `resources/read` once; see {@link callTool} for `allowInputRequired`.
   *
   * @throws UnexpectedInputRequiredError when the server asks for input and `allowInputRequired` is not set.
   */
  readResource(
    uri: string,
    options: InputRequiredOptions & AllowInputRequired,
  ): Promise<ReadResourceResult | InputRequiredResult>;
  readResource(uri: string, options?: InputRequiredOptions): Promise<ReadResourceResult>;
  readResource(
    uri: string,
    options: InputRequiredOptions & { allowInputRequired?: boolean } = {},
  ): Promise<ReadResourceResult | InputRequiredResult> {
    return this.#carrier("resources/read", { uri }, options) as Promise<
      ReadResourceResult | InputRequiredResult
    >;
  }

  /**
   * Listens for list changes and resource updates; `onNotification` receives each notification
   * the filter asks for, after the acknowledgement. At 2026-07-28 this is a `subscriptions/listen`
   * stream (spec: basic/patterns/subscriptions); on a 2025-era session each URI of
   * `resourceSubscriptions` is subscribed with `resources/subscribe` (and unsubscribed with
   * `resources/unsubscribe` on `close`), the session's own notifications are filtered for the
   * listener, and the acknowledgement carries the part of the filter the server's capabilities
   * honour (spec (2025-11-25): server/resources §Subscriptions).
   *
   * @throws TypeError for a filter that is not a `SubscriptionFilter` or an `onNotification` that
   *   is not a function; ServerCapabilityMissingError when `resourceSubscriptions` names a URI and
   *   the server's capabilities (when known) lack `resources.subscribe`. Nothing is sent then.
   */
  listen(
    filter: SubscriptionFilter,
    onNotification: (notification: ListenNotification) => void,
  ): Subscription {
    const checked = SubscriptionFilterSchema.safeParse(filter);
    if (!checked.success) {
      throw new TypeError(
        "listen: filter must be a SubscriptionFilter (boolean toolsListChanged, promptsListChanged, " +
          "resourcesListChanged; resourceSubscriptions an array of URI strings)",
      );
    }
    if (typeof onNotification !== "function")
      throw new TypeError("listen: onNotification must be a function");
    const capabilities = this.serverCapabilities;
    const uris = checked.data.resourceSubscriptions ?? [];
    if (uris.length > 0 && capabilities !== undefined && capabilities.resources?.subscribe !== true) {
      throw new ServerCapabilityMissingError("resources.subscribe", `subscribing to ${uris.join(", ")}`);
    }
    const id = this.#nextId++;
    if (this.#era === "legacy") {
      return this.#listeners.open(id, legacyHonouredFilter(checked.data, capabilities), onNotification);
    }
    const stream = openSubscription(
      (params, options) => this.request("subscriptions/listen", params, options),
      id,
      filter,
      onNotification,
    );
    this.#streams.add(stream);
    stream.closed.then(
      () => this.#streams.delete(stream),
      () => this.#streams.delete(stream),
    );
    return stream;
  }

  /**
   * Sends any method of the table with the session's `_meta`, and validates the result.
   *
   * @throws McpError for an error response; InvalidServerResponseError for a result that does not
   *   match the method; RequestTimeoutError; TransportError; the signal's reason when cancelled.
   */
  async request<M extends Method>(
    method: M,
    params: Record<string, unknown>,
    options: RequestOptions & { id?: RequestId; onNotification?: (n: JSONRPCNotification) => void } = {},
  ): Promise<ResultOf<M>> {
    checkMethodInEra(this.#era, method, this.#protocolVersion);
    const result = await this.#send(method, params, options);
    if (isInputRequired(result)) {
      throw new InvalidServerResponseError(`${method} may not answer with an InputRequiredResult`);
    }
    return checkCompleteResult(method, result) as ResultOf<M>;
  }

  /**
   * Sends the method `method` of the extension `ext` with the session's `_meta` (declaring `ext` for
   * this request when the method `requiresClientDeclaration` and the session does not declare it;
   * on a 2025-era session what `initialize` declared applies), and returns the result as the
   * method's result schema gives it. Spec: https://modelcontextprotocol.io/extensions/overview.
   *
   * @throws ExtensionNotSupportedError, without sending, when the server's capabilities (from
   *   `server/discover` or `initialize`) do not advertise `ext.id` (when the session has not learnt
   *   them, the request is sent); TypeError when `ext` declares no method `method`; McpError for an
   *   error response (-32601 not served, -32602 invalid params, -32021 undeclared extension);
   *   InvalidServerResponseError for a result that is not complete or does not match the schema;
   *   RequestTimeoutError; TransportError; the signal's reason when cancelled.
   */
  async requestExtension<E extends Extension, M extends keyof E["methods"] & string>(
    ext: E,
    method: M,
    params: ExtensionParamsInput<E, M>,
    options: RequestOptions = {},
  ): Promise<ExtensionResultOutput<E, M>> {
    const spec = extensionMethod("requestExtension", ext, method);
    const advertised = this.serverCapabilities;
    if (advertised !== undefined && !Object.hasOwn(advertised.extensions ?? {}, ext.id)) {
      throw new ExtensionNotSupportedError(ext.id, method, this.serverInfo?.name);
    }
    const declared = this.capabilities.extensions;
    const send: SendOptions =
      spec.requiresClientDeclaration === true && (declared === undefined || !Object.hasOwn(declared, ext.id))
        ? {
            ...options,
            capabilities: { ...this.capabilities, extensions: { ...declared, [ext.id]: {} } },
          }
        : options;
    const given = (params ?? {}) as Record<string, unknown>;
    const result = await this.#send(method, { ...given }, send);
    return checkExtensionResult(method, spec, result) as ExtensionResultOutput<E, M>;
  }

  /**
   * Calls `handler` with the params of every `method` notification of `ext` the server sends (on a
   * request's stream or outside one), checked against the declared schema: params it refuses are
   * logged (warn) and dropped.
   *
   * @returns the function that stops it (idempotent).
   * @throws TypeError when `ext` declares no notification `method` or `handler` is not a function.
   */
  onExtensionNotification<E extends Extension, N extends keyof E["notifications"] & string>(
    ext: E,
    method: N,
    handler: (params: z.output<E["notifications"][N]>) => void,
  ): () => void {
    return this.#extensionListeners.add("onExtensionNotification", ext, method, handler);
  }

  /** Closes the transport; open listeners end first (their `closed` resolves). */
  async close(): Promise<void> {
    for (const stream of this.#streams) stream.close();
    this.#listeners.closeAll();
    await this.transport.close();
    this.#telemetry?.closed(this);
  }

  #carrier(
    method: InputRequiredMethod,
    params: Record<string, unknown>,
    options: InputRequiredOptions & { allowInputRequired?: boolean },
  ): Promise<unknown> {
    const full: Record<string, unknown> = { ...params };
    if (options.inputResponses !== undefined) full.inputResponses = options.inputResponses;
    if (options.requestState !== undefined) full.requestState = options.requestState;
    // Followed directly rather than awaited: one promise fewer per request.
    return this.#send(method, full, options).then((result) =>
      checkCarrierResult(method, result, options.allowInputRequired === true),
    );
  }

  /**
   * Sends one request; on a 2025-era session whose transport reports it expired, initializes a new
   * session once and sends the request again. Spec (2025-11-25): basic/transports §Session Management.
   */
  #send(
    method: string,
    params: Record<string, unknown>,
    options: SendOptions,
  ): Promise<Record<string, unknown>> {
    const sent = this.#sendOnce(method, params, options);
    // Only a 2025-era session renews; a 2026-07-28 request's promise is handed on as it is.
    if (this.#era !== "legacy" || method === "initialize") return sent;
    return sent.catch(async (error: unknown) => {
      if (!(error instanceof SessionExpiredError) || this.#era !== "legacy") throw error;
      await this.#renew();
      const { id: _sameId, ...fresh } = options;
      return this.#sendOnce(method, params, fresh);
    });
  }

  /**
   * Initializes a new session once for every request that found the old one expired together, and
   * subscribes the listeners' resources again on it.
   */
  async #renew(): Promise<void> {
    this.#renewal ??= this.initialize()
      .then(() =>
        // Sent once, without renewing: a session that expires again fails the retried request.
        this.#listeners.resubscribeAll(async (uri) => {
          await this.#sendOnce("resources/subscribe", { uri }, {});
        }),
      )
      .finally(() => {
        this.#renewal = undefined;
      });
    await this.#renewal;
  }

  async #sendOnce(
    method: string,
    params: Record<string, unknown>,
    options: SendOptions,
  ): Promise<Record<string, unknown>> {
    checkTimeout(options.timeoutMs === Number.POSITIVE_INFINITY ? undefined : options.timeoutMs, method);
    const id = options.id ?? this.#nextId++;
    const legacy = this.#era === "legacy" || method === "initialize";
    const onProgress = options.onProgress;
    const progressToken = onProgress === undefined ? undefined : `p${this.#nextProgressToken++}`;
    const stamp =
      options.capabilities !== undefined
        ? {
            protocolVersion: this.#protocolVersion,
            capabilities: options.capabilities,
            clientInfo: this.clientInfo,
          }
        : options.declareTasks === true
          ? {
              protocolVersion: this.#protocolVersion,
              capabilities: withTasksExtension(this.capabilities),
              clientInfo: this.clientInfo,
            }
          : this;
    const meta = requestMeta(options, stamp, legacy, progressToken);
    if (progressToken !== undefined && onProgress !== undefined) {
      this.#notifications.track(progressToken, onProgress);
    }
    const record = this.#telemetry?.start(this, method, params, id, meta);
    const sentParams = withMeta(params, meta);

    try {
      const result = await exchange(
        this.transport,
        { jsonrpc: "2.0", id, method, params: sentParams },
        {
          timeoutMs: options.timeoutMs ?? this.#timeoutMs,
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          ...(options.headers === undefined ? {} : { headers: options.headers }),
          onNotification: this.#notifications.forRequest({
            ...(progressToken === undefined ? {} : { progressToken }),
            ...(onProgress === undefined ? {} : { onProgress }),
            ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
            ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
          }),
        },
      );
      this.#telemetry?.ended(record, result);
      return result;
    } catch (error) {
      // A subscription the caller closed ended as asked: its span ends without an error.
      if (method === "subscriptions/listen" && options.signal?.aborted === true)
        this.#telemetry?.endedByCaller(record);
      else this.#telemetry?.failed(record, error);
      throw error;
    } finally {
      if (progressToken !== undefined) this.#notifications.untrack(progressToken);
    }
  }
}
