/**
 * `Client`: the high-level MCP client. It connects to a server (Streamable HTTP URL, in-memory
 * server, stdio command, or any `Transport`), learns what the server offers with `server/discover`,
 * and runs the multi-round-trip loop for you: `callTool`, `getPrompt` and `readResource` answer
 * every `InputRequiredResult` with the registered callbacks and return the final result. For a
 * caller who drives the loop, `client.session` exposes the single-leg calls.
 */

import type * as z from "zod";
import { type Clock, systemClock } from "../protocol/clock.js";
import type { Extension, ExtensionResultOutput, JSONObject } from "../protocol/extension.js";
import type { JSONRPCNotification } from "../protocol/jsonrpc.js";
import type { InputRequiredMethod } from "../protocol/methods.js";
import {
  checkBoolean,
  checkFunction,
  checkInteger,
  checkOptionsObject,
  optionTypeError,
} from "../protocol/options.js";
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  ServerCapabilities,
} from "../protocol/schema/base.js";
import type { InputRequiredResult, InputResponses } from "../protocol/schema/input.js";
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  DiscoverResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingMessageNotificationParams,
  ReadResourceResult,
  SubscriptionFilter,
} from "../protocol/schema/methods.js";
import { type CreateTaskResult, TASKS_EXTENSION } from "../protocol/schema/tasks.js";
import {
  isPendingCallStore,
  type ParkedCall,
  type ParkedJson,
  type PendingCallStore,
} from "../state/pending-calls.js";
import type { TelemetryOption } from "../telemetry/options.js";
import { type Telemetry, telemetryFor } from "../telemetry/telemetry.js";
import type { HttpClientAuth } from "../transport/http/client/client-auth.js";
import { checkAuth } from "../transport/http/client/client-options.js";
import { type MessageObserver, traceTransport } from "../transport/trace.js";
import type { Transport } from "../transport/transport.js";
import { startCallSpan } from "./call-span.js";
import { declaredCapabilities, fulfilInputRequest, type InputCallbacks } from "./callbacks.js";
import { type ConnectTarget, reportToLogger, resolveTransport } from "./connect.js";
import { type ClientExtension, withDeclaredExtensions } from "./extensions.js";
import {
  DEFAULT_INPUT_REQUEST_CONCURRENCY,
  DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND,
  DEFAULT_INPUT_REQUIRED_MAX_ROUNDS,
  DEFAULT_REQUEST_STATE_MAX_BYTES,
  driveInputRequired,
} from "./input-required.js";
import type { ClientLogger } from "./logger.js";
import { isParamHeaderMismatch } from "./mcp-param-headers.js";
import { negotiate, PROTOCOL_VERSION_MODES, type ProtocolVersionMode } from "./negotiate.js";
import {
  CallParkedError,
  checkParkOptions,
  isInputUnavailable,
  ParkedCallRefusedError,
  type ParkOptions,
  parkCall,
  type ResumedCall,
} from "./park.js";
import { tracedAnswers } from "./server-request-span.js";
import { answerServerRequest, type CallInFlight } from "./server-requests.js";
import { ClientSession } from "./session.js";
import {
  checkCommonClientOptions,
  DEFAULT_CLIENT_INFO,
  DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
  type ListenNotification,
  type RequestOptions,
  type Subscription,
  type TaskAugmented,
} from "./session-options.js";
import { requiresTasks } from "./task-wire.js";
import { type ToolTask, type ToolTaskContext, type ToolTaskStart, toolTask } from "./tool-task.js";

/** Pages of `tools/list` a schema refresh reads at most (a server could hand out cursors forever). */
const MAX_REFRESH_PAGES = 100;

/** Options of a `Client`. */
export interface ClientOptions extends InputCallbacks {
  /** Who this client is, sent on every request. Default `{ name: "tsmcp-client", version }`. */
  clientInfo?: Implementation;
  /** Capabilities merged over the ones the callbacks declare (whole entries replace). */
  capabilities?: ClientCapabilities;
  /**
   * The extensions this client supports (see `defineExtension`): each is declared under
   * `capabilities.extensions[ext.id]` (in every 2026-07-28 request's `_meta`, and in `initialize`
   * on a 2025-era session), with `{}` or the `settings` given (`{ extension, settings }`), checked
   * against `ext.clientSettings`. Default none. Spec:
   * https://modelcontextprotocol.io/extensions/overview (Negotiation).
   */
  extensions?: readonly ClientExtension[];
  /** Retries a call may take answering `input_required`; default 10. */
  inputRequiredMaxRounds?: number;
  /**
   * Embedded requests one `input_required` round may carry; a round with more fails the call with
   * `InputRequestsPerRoundExceededError` before any callback runs. Default 64
   * (`DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND`).
   */
  inputRequestsMaxPerRound?: number;
  /**
   * The largest `requestState` the client echoes, in UTF-8 bytes (a positive integer): a round
   * whose state is larger fails the call with `RequestStateTooLargeError` before any callback runs
   * and before anything is sent back. Default 1 MiB (`DEFAULT_REQUEST_STATE_MAX_BYTES`).
   */
  requestStateMaxBytes?: number;
  /**
   * Callbacks of one round that run at the same time; the others wait their turn. At least 1;
   * default 8 (`DEFAULT_INPUT_REQUEST_CONCURRENCY`).
   */
  inputRequestConcurrency?: number;
  /** Per-request timeout in milliseconds; default 60 000. */
  timeoutMs?: number;
  /**
   * Which protocol era to speak: `"auto"` (default) probes with `server/discover` and falls back to
   * the 2025 `initialize` handshake on the signals of an older server; `"2026-07-28"` only speaks
   * 2026-07-28; `"legacy"` always handshakes (asking for 2025-11-25). Spec: basic/versioning.
   */
  protocolVersion?: ProtocolVersionMode;
  /**
   * Call `server/discover` when connecting. Default true. `false` adopts 2026-07-28 without asking
   * (no probe, no fallback).
   */
  discover?: boolean;
  /** A `server/discover` result saved from an earlier connection: adopted without a probe. */
  discoverResult?: DiscoverResult;
  /**
   * Receives the server's log messages that no request's own `onLog` takes (on a 2025-era session,
   * those `setLoggingLevel` asked for). Spec (2025-11-25): server/utilities/logging.
   */
  onLog?: (message: LoggingMessageNotificationParams) => void;
  /** Receives the server's other notifications that belong to no request (list changes, ...). */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** Where back-off waits come from; default the system clock. */
  clock?: Clock;
  /**
   * Receives the client's warnings (a tool dropped from `tools/list`, a problem of a transport
   * `connect` built that belongs to no request, ...). Default: stderr.
   */
  logger?: ClientLogger;
  /**
   * Records OpenTelemetry spans and metrics through `@opentelemetry/api` (an optional peer
   * dependency): `true` (default) through the global providers when the API is present, an object
   * for given providers, `false` for nothing. See docs/telemetry.md.
   * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
   */
  telemetry?: TelemetryOption;
  /**
   * Authorization for a URL target: every HTTP request carries its headers, and a 401/403 is
   * handed to it (to authorize, refresh or step up) before the request is sent again. An
   * `OAuthClientProvider`, or any `HttpClientAuth`. Only with `Client.connect` and a URL. With it,
   * the `"auto"` probe waits the whole `timeoutMs` (a person may be signing in), not 10 s.
   * Spec: basic/authorization.
   */
  auth?: HttpClientAuth;
  /**
   * Sees every JSON-RPC message on the connection, both ways (`"sent"`, `"received"`), as the
   * transport carries it: requests, responses, notifications, and on a 2025-era session the
   * server's requests and the answers sent back. For wire logs (`tsmcp -vv`) and debugging; it
   * must not change the message, and what it throws is ignored. Default: none. See
   * `traceTransport`.
   */
  onMessage?: MessageObserver;
}

const CALLBACKS = ["elicitationCallback", "samplingCallback", "listRootsCallback"] as const;

/** Checks every option of a `Client`, naming the one that is wrong. */
function checkClientOptions(options: ClientOptions): void {
  const checked = checkOptionsObject("Client", options) as Record<string, unknown>;
  checkCommonClientOptions("Client", checked, false);
  for (const name of CALLBACKS) checkFunction("Client", name, checked[name]);
  checkInteger("Client", "inputRequiredMaxRounds", checked.inputRequiredMaxRounds, { unit: "rounds" });
  checkInteger("Client", "inputRequestsMaxPerRound", checked.inputRequestsMaxPerRound, {
    min: 1,
    unit: "requests",
  });
  checkInteger("Client", "requestStateMaxBytes", checked.requestStateMaxBytes, { min: 1, unit: "bytes" });
  checkInteger("Client", "inputRequestConcurrency", checked.inputRequestConcurrency, {
    min: 1,
    unit: "callbacks",
  });
  checkBoolean("Client", "discover", checked.discover);
  checkAuth("Client", checked.auth);
  checkFunction("Client", "onLog", checked.onLog);
  checkFunction("Client", "onNotification", checked.onNotification);
  checkFunction("Client", "onMessage", checked.onMessage);
  withDeclaredExtensions("Client", {}, checked.extensions);
  const mode = checked.protocolVersion;
  if (mode !== undefined && !PROTOCOL_VERSION_MODES.includes(mode as ProtocolVersionMode)) {
    const hint =
      typeof mode === "string" && /^\d{4}-\d{2}-\d{2}$/.test(mode) && mode < "2026"
        ? `; ${mode} is a handshake-era version: use protocolVersion: "legacy"`
        : "";
    throw new TypeError(
      `Client option "protocolVersion" must be "auto", "2026-07-28" or "legacy", got ${JSON.stringify(mode)}${hint}`,
    );
  }
  if (checked.discoverResult !== undefined && typeof checked.discoverResult !== "object") {
    throw optionTypeError("Client", "discoverResult", "a server/discover result object");
  }
  const clock = checked.clock as Partial<Record<keyof Clock, unknown>> | undefined;
  if (clock !== undefined && (typeof clock?.now !== "function" || typeof clock.sleep !== "function")) {
    throw optionTypeError("Client", "clock", "a Clock with now() and sleep(ms, signal) methods");
  }
}

/** Options of a carrier call run by the loop. */
export interface CallOptions extends RequestOptions {
  /**
   * Parks the call when a callback throws `InputUnavailableError` (nobody can answer now): the
   * round is saved in `park.store` and the call rejects with `CallParkedError`, whose `ticket`
   * resumes it later ({@link Client.resume}), in any process. At 2026-07-28 only.
   */
  park?: ParkOptions;
  /** Seeds the first leg with answers (resuming a loop persisted elsewhere). */
  inputResponses?: InputResponses;
  /** Seeds the first leg with the echoed state (resuming a loop persisted elsewhere). */
  requestState?: string;
}

/**
 * An MCP client that runs the multi-round-trip loop.
 *
 * ```ts
 * const client = await Client.connect("http://127.0.0.1:8000/mcp", { elicitationCallback });
 * const result = await client.callTool("provision", { name: "orders" });
 * ```
 */
export class Client {
  /** The single-leg calls, for a caller who drives the loop. */
  readonly session: ClientSession;
  readonly #callbacks: InputCallbacks;
  readonly #maxRounds: number;
  readonly #maxRequestsPerRound: number;
  readonly #maxRequestStateBytes: number;
  readonly #concurrency: number;
  readonly #clock: Clock;
  /** The carrier calls in flight, to say which one a 2025-era server request serves. */
  readonly #calls = new Set<CallInFlight>();
  /** Where the call spans and rounds go; undefined records nothing. */
  readonly #telemetry: Telemetry | undefined;

  /**
   * Wraps a transport. Most callers use {@link Client.connect}.
   *
   * @throws TypeError naming an option of the wrong type (a callback that is not a function, a
   *   `clock` without `now` and `sleep`, ...): `Client option "clock" must be ...`; RangeError
   *   for a bad `inputRequiredMaxRounds`, `inputRequestsMaxPerRound`, `requestStateMaxBytes`,
   *   `inputRequestConcurrency` or `timeoutMs`.
   */
  constructor(wrapped: Transport, options: ClientOptions = {}) {
    checkClientOptions(options);
    const transport = options.onMessage === undefined ? wrapped : traceTransport(wrapped, options.onMessage);
    const maxRounds = options.inputRequiredMaxRounds ?? DEFAULT_INPUT_REQUIRED_MAX_ROUNDS;
    this.#callbacks = {
      ...(options.elicitationCallback ? { elicitationCallback: options.elicitationCallback } : {}),
      ...(options.samplingCallback ? { samplingCallback: options.samplingCallback } : {}),
      ...(options.listRootsCallback ? { listRootsCallback: options.listRootsCallback } : {}),
    };
    this.#maxRounds = maxRounds;
    this.#maxRequestsPerRound = options.inputRequestsMaxPerRound ?? DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND;
    this.#maxRequestStateBytes = options.requestStateMaxBytes ?? DEFAULT_REQUEST_STATE_MAX_BYTES;
    this.#concurrency = options.inputRequestConcurrency ?? DEFAULT_INPUT_REQUEST_CONCURRENCY;
    this.#clock = options.clock ?? systemClock;
    this.session = new ClientSession(transport, {
      capabilities: withDeclaredExtensions(
        "Client",
        declaredCapabilities(this.#callbacks, options.capabilities),
        options.extensions,
      ),
      ...(options.clientInfo === undefined ? {} : { clientInfo: options.clientInfo }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
      ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
    });
    this.#telemetry = telemetryFor("client", DEFAULT_CLIENT_INFO.version, options.telemetry);
    const capabilities = this.session.capabilities;
    transport.onRequest = tracedAnswers(this.#telemetry, this.session, (request, incoming) =>
      answerServerRequest(request, incoming, this.#callbacks, capabilities, this.#soleCall()),
    );
  }

  /**
   * Connects to a server: a Streamable HTTP URL, a `Server`/`MCPServer` in this process, a stdio
   * command (`{ command, args, env, cwd }`: Node.js only, it loads tsmcp/stdio on demand), or any
   * `Transport`; then agrees on a protocol era (`protocolVersion`, default `"auto"`: a
   * `server/discover` probe, and the 2025 `initialize` handshake when the server is older).
   *
   * @throws TypeError for a target it cannot connect to or a bad option; ProtocolNegotiationError
   *   when the server speaks no revision this client does (naming what it offered);
   *   McpError/TransportError when discovery or the handshake fails.
   */
  static async connect(target: ConnectTarget, options: ClientOptions = {}): Promise<Client> {
    const transport = await resolveTransport(target, options.auth, reportToLogger(options.logger));
    const client = new Client(transport, options);
    try {
      await negotiate(client.session, {
        mode: options.protocolVersion ?? "auto",
        discover: options.discover ?? true,
        ...(options.discoverResult === undefined ? {} : { discoverResult: options.discoverResult }),
        timeoutMs: options.timeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
        // The first request may wait for a person signing in: the probe gets the whole timeout.
        ...(options.auth === undefined
          ? {}
          : { probeTimeoutMs: options.timeoutMs ?? DEFAULT_CLIENT_REQUEST_TIMEOUT_MS }),
      });
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /**
   * Every extension the server advertised under `capabilities.extensions` (in `server/discover`, or
   * `initialize` on a 2025-era session), unknown ones included, with its settings as sent; `{}`
   * before the server said anything.
   */
  get serverExtensions(): Readonly<Record<string, JSONObject>> {
    return this.session.serverCapabilities?.extensions ?? {};
  }

  /** True when the server advertised the extension (`ext` or its identifier). */
  supportsExtension(extension: Extension | string): boolean {
    const id = typeof extension === "string" ? extension : extension?.id;
    return typeof id === "string" && Object.hasOwn(this.serverExtensions, id);
  }

  /**
   * Calls the method `method` of the extension `ext`, typed by its declaration: params as its
   * schema takes them, the result as its result schema gives it. Nothing is sent when the server
   * did not advertise the extension. See `ClientSession.requestExtension`.
   *
   * @throws ExtensionNotSupportedError, without sending, when the server did not advertise `ext.id`;
   *   TypeError when `ext` declares no method `method`; McpError for an error response;
   *   InvalidServerResponseError for a result that does not match the schema; RequestTimeoutError;
   *   TransportError; the signal's reason when cancelled.
   */
  requestExtension<E extends Extension, M extends keyof E["methods"] & string>(
    ext: E,
    method: M,
    params: z.input<E["methods"][M]["params"]>,
    options?: RequestOptions,
  ): Promise<ExtensionResultOutput<E, M>> {
    return this.session.requestExtension(ext, method, params, options);
  }

  /**
   * Calls `handler` with the params of every `method` notification of `ext` the server sends,
   * checked against the declared schema (params it refuses are logged and dropped).
   *
   * @returns the function that stops it (idempotent).
   * @throws TypeError when `ext` declares no notification `method` or `handler` is not a function.
   */
  onExtensionNotification<E extends Extension, N extends keyof E["notifications"] & string>(
    ext: E,
    method: N,
    handler: (params: z.output<E["notifications"][N]>) => void,
  ): () => void {
    return this.session.onExtensionNotification(ext, method, handler);
  }

  /**
   * Tells the server the roots changed (`notifications/roots/list_changed`) on a 2025-era session,
   * so it asks `roots/list` again. At 2026-07-28 a server asks for roots in each call, so nothing
   * is sent. Spec (2025-11-25): client/roots §Root List Changes.
   */
  async notifyRootsChanged(): Promise<void> {
    if (this.session.era !== "legacy") return;
    await this.session.notify("notifications/roots/list_changed");
  }

  /**
   * `logging/setLevel` on a 2025-era session (messages then reach `onLog`); at 2026-07-28 pass
   * `logLevel` per request instead.
   *
   * @throws MethodNotInEraError at 2026-07-28.
   */
  setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void> {
    return this.session.setLoggingLevel(level, options);
  }

  /** The protocol revision agreed with the server ("2026-07-28", or the handshake's, e.g. "2025-11-25"). */
  get protocolVersion(): string {
    return this.session.protocolVersion;
  }

  /** The era agreed with the server: `"modern"` (2026-07-28) or `"legacy"` (a 2025-era session). */
  get era(): "modern" | "legacy" {
    return this.session.era;
  }

  /** What the server says it is (from `server/discover` or `initialize`). */
  get serverInfo(): Implementation | undefined {
    return this.session.serverInfo;
  }

  /** What the server offers (from `server/discover`). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.session.serverCapabilities;
  }

  /** The server's instructions for the model (from `server/discover` or `initialize`). */
  get instructions(): string | undefined {
    return this.session.instructions;
  }

  /** `server/discover` again. */
  discover(options?: RequestOptions): Promise<DiscoverResult> {
    return this.session.discover(options);
  }

  /**
   * Calls a tool as a task, when the server chooses to run it as one: resolves a {@link ToolTask}
   * handle once the server answered (after any `input_required` rounds before the task exists).
   * At 2026-07-28 the request declares the tasks extension (`io.modelcontextprotocol/tasks`) and
   * the server decides; a server that answers at once gives a handle without `taskId` that holds
   * the result. On a 2025-11-25 session the call carries `params.task` when the server declares
   * `tasks.requests.tools.call` and the tool's `execution.taskSupport` is `"optional"` or
   * `"required"` (read from `tools/list`), and is a plain call otherwise.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md);
   * (2025-11-25) basic/utilities/tasks.
   *
   * @throws as the plain overload, for the call that creates the task.
   */
  callTool(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions & TaskAugmented,
  ): Promise<ToolTask>;
  /**
   * Calls a tool and runs the multi-round-trip loop to its final result. When the server refuses
   * a leg with a HeaderMismatch (-32020) about an `Mcp-Param-*` header, the tool's schema changed
   * since it was listed: the client lists the tools again and resends that leg, once per call.
   * Spec: basic/transports/streamable-http §Custom Headers (the client SHOULD refresh and retry).
   *
   * A server that runs the tool only as a task refuses the call with -32021 naming the tasks
   * extension in `data.requiredCapabilities.extensions`: the client then calls once more as a task
   * and waits for the task's result (see {@link ToolTask.result}), so the caller still gets a
   * `CallToolResult`. The same happens when `capabilities` declares the extension for every request.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md
   * §Backwards Compatibility).
   *
   * @throws InputRequiredRoundsExceededError past `inputRequiredMaxRounds`;
   *   InputRequestsPerRoundExceededError for a round with more than `inputRequestsMaxPerRound`
   *   requests; RequestStateTooLargeError for a `requestState` over `requestStateMaxBytes`;
   *   UnsupportedInputRequestError when the server asks for input no callback gives; a
   *   callback's error; McpError for a server error (a task's error included);
   *   TaskCancelledError for a task that ends cancelled.
   */
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  callTool(
    name: string,
    args?: Record<string, unknown>,
    options: CallOptions & Partial<TaskAugmented> = {},
  ): Promise<CallToolResult | ToolTask> {
    if (options.task !== undefined)
      return this.#startTask(name, args, options as CallOptions & TaskAugmented);
    const awaitTask = async (): Promise<CallToolResult> => {
      const task = await this.#startTask(name, args, { ...options, task: true });
      return task.result(options.signal === undefined ? {} : { signal: options.signal });
    };
    if (
      this.session.era === "modern" &&
      this.session.capabilities.extensions?.[TASKS_EXTENSION] !== undefined
    ) {
      return awaitTask();
    }
    return this.#callToolLegs(name, args, options).catch((error: unknown) => {
      if (this.session.era !== "modern" || !requiresTasks(error)) throw error;
      return awaitTask();
    });
  }

  /**
   * A handle on a task created earlier (by this process or another: the spec has clients keep task
   * ids so they can resume after a restart), after one `tasks/get` that checks the server knows
   * it. Its `result()` polls and answers `inputRequests` as for a task this client created (keys
   * answered by another process may be asked again; the server ignores answers to keys no longer
   * outstanding). Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Polling).
   *
   * @throws UnknownTaskError when the server knows no such task (-32602); McpError.
   */
  async task(taskId: string, options: RequestOptions = {}): Promise<ToolTask> {
    if (typeof taskId !== "string" || taskId === "")
      throw new TypeError("task: taskId must be a non-empty string");
    return this.#handle(undefined, { polled: await this.session.getTask(taskId, options) });
  }

  /** The legs of a plain tool call, with one refresh of the tools on a HeaderMismatch. */
  #callToolLegs(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<CallToolResult> {
    let refreshed = false;
    const params = { name, ...(args === undefined ? {} : { arguments: args }) };
    return this.#drive("tools/call", name, params, options, (extra) => {
      const leg = () => this.session.callTool(name, args, { ...options, ...extra, allowInputRequired: true });
      // The leg's promise is followed, not awaited: one promise fewer per round.
      return leg().catch(async (error: unknown) => {
        if (refreshed || !isParamHeaderMismatch(error)) throw error;
        refreshed = true;
        await this.#refreshTools(options);
        return leg();
      });
    });
  }

  /** Makes the call that may create a task, and the handle on what it answered. */
  async #startTask(
    name: string,
    args: Record<string, unknown> | undefined,
    options: CallOptions & TaskAugmented,
  ): Promise<ToolTask> {
    const { task, ...callOptions } = options;
    if (this.session.era === "legacy" && !(await this.#legacyTaskSupport(name, callOptions))) {
      return this.#handle(name, { result: await this.#callToolLegs(name, args, callOptions) });
    }
    const answer: CallToolResult | CreateTaskResult = await this.#drive(
      "tools/call",
      name,
      { name, ...(args === undefined ? {} : { arguments: args }) },
      callOptions,
      (extra) => this.session.callTool(name, args, { ...callOptions, ...extra, task }),
    );
    if (answer.resultType === "task") {
      const { resultType: _task, _meta: _m, ...created } = answer as CreateTaskResult;
      return this.#handle(name, { created });
    }
    return this.#handle(name, { result: answer as CallToolResult });
  }

  /**
   * 2025-11-25: may this tool be called as a task? The server must declare
   * `tasks.requests.tools.call`, and the tool (from `tools/list`) `execution.taskSupport`
   * `"optional"` or `"required"`. Spec (2025-11-25): basic/utilities/tasks §Tool-Level Negotiation.
   */
  async #legacyTaskSupport(name: string, options: RequestOptions): Promise<boolean> {
    const tasks = this.session.serverCapabilities?.tasks as
      | { requests?: { tools?: { call?: unknown } } }
      | undefined;
    if (tasks?.requests?.tools?.call === undefined) return false;
    const listOptions: RequestOptions = {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    };
    let cursor: string | undefined;
    for (let page = 0; page < MAX_REFRESH_PAGES; page++) {
      const listed = await this.session.listTools(cursor === undefined ? {} : { cursor }, listOptions);
      const tool = listed.tools.find((entry) => entry.name === name);
      if (tool !== undefined) {
        const support = (tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
        return support === "optional" || support === "required";
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) return false;
    }
    return false;
  }

  /** A handle whose input requests are answered for the tool `target` with this client's callbacks. */
  #handle(target: string | undefined, start: ToolTaskStart): ToolTask {
    const capabilities = this.session.capabilities;
    const context: ToolTaskContext = {
      session: this.session,
      fulfil: (request, key, round, abort) =>
        fulfilInputRequest(
          request,
          {
            key,
            method: target === undefined ? undefined : "tools/call",
            target,
            round,
            era: "modern",
            get signal() {
              return abort.signal;
            },
          },
          this.#callbacks,
          capabilities,
        ),
      clock: this.#clock,
      maxRequestsPerRound: this.#maxRequestsPerRound,
      concurrency: this.#concurrency,
      track: async (body) => {
        if (target === undefined) return body();
        const call: CallInFlight = { method: "tools/call", target };
        this.#calls.add(call);
        try {
          return await body();
        } finally {
          this.#calls.delete(call);
        }
      },
    };
    return toolTask(context, start);
  }

  /** Gets a prompt, running the multi-round-trip loop; throws as {@link callTool}. */
  getPrompt(
    name: string,
    args?: Record<string, string>,
    options: CallOptions = {},
  ): Promise<GetPromptResult> {
    return this.#drive(
      "prompts/get",
      name,
      { name, ...(args === undefined ? {} : { arguments: args }) },
      options,
      (extra) => this.session.getPrompt(name, args, { ...options, ...extra, allowInputRequired: true }),
    );
  }

  /** Reads a resource, running the multi-round-trip loop; throws as {@link callTool}. */
  readResource(uri: string, options: CallOptions = {}): Promise<ReadResourceResult> {
    return this.#drive("resources/read", uri, { uri }, options, (extra) =>
      this.session.readResource(uri, { ...options, ...extra, allowInputRequired: true }),
    );
  }

  /** `tools/list`: one page (over HTTP, without the tools that break the `x-mcp-header` rules). */
  listTools(params?: { cursor?: string }, options?: RequestOptions): Promise<ListToolsResult> {
    return this.session.listTools(params, options);
  }

  /** `prompts/list`: one page. */
  listPrompts(params?: { cursor?: string }, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.session.listPrompts(params, options);
  }

  /** `resources/list`: one page. */
  listResources(params?: { cursor?: string }, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.session.listResources(params, options);
  }

  /** `resources/templates/list`: one page. */
  listResourceTemplates(
    params?: { cursor?: string },
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.session.listResourceTemplates(params, options);
  }

  /** `completion/complete`. */
  complete(params: Omit<CompleteRequestParams, "_meta">, options?: RequestOptions): Promise<CompleteResult> {
    return this.session.complete(params, options);
  }

  /**
   * Listens for list changes and resource updates, with the same listener in both eras: at
   * 2026-07-28 a `subscriptions/listen` stream (spec: basic/patterns/subscriptions); on a
   * 2025-11-25 server `resources/subscribe` for each URI of `resourceSubscriptions` (and
   * `resources/unsubscribe` on `close`) and the session's own notifications (spec (2025-11-25):
   * server/resources §Subscriptions). `onNotification` receives each notification the filter asks
   * for once `acknowledged` resolves. See {@link ClientSession.listen}.
   *
   * @throws TypeError for a filter that is not a `SubscriptionFilter`;
   *   ServerCapabilityMissingError for `resourceSubscriptions` when the server does not declare
   *   `resources.subscribe`.
   */
  listen(
    filter: SubscriptionFilter,
    onNotification: (notification: ListenNotification) => void,
  ): Subscription {
    return this.session.listen(filter, onNotification);
  }

  /** Closes the connection (a stdio child is stopped and reaped). */
  close(): Promise<void> {
    return this.session.close();
  }

  /** Lists every page of tools again (so the session learns the current annotations). */
  async #refreshTools(options: RequestOptions): Promise<void> {
    const listOptions: RequestOptions = {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    };
    let cursor: string | undefined;
    for (let page = 0; page < MAX_REFRESH_PAGES; page++) {
      cursor = (await this.session.listTools(cursor === undefined ? {} : { cursor }, listOptions)).nextCursor;
      if (cursor === undefined) return;
    }
  }

  #drive<R>(
    method: InputRequiredMethod,
    target: string,
    params: ParkedJson,
    options: CallOptions,
    leg: (extra: {
      inputResponses?: InputResponses;
      requestState?: string;
    }) => Promise<R | InputRequiredResult>,
  ): Promise<R> {
    if (options.park !== undefined) {
      try {
        checkParkOptions(options.park, method);
      } catch (error) {
        return Promise.reject(error);
      }
      if (this.era !== "modern") return Promise.reject(new ParkedCallRefusedError("legacy"));
    }
    const capabilities = this.session.capabilities;
    const call: CallInFlight = { method, target };
    this.#calls.add(call);
    const tracing = startCallSpan(this.#telemetry, method, target);
    const driven = driveInputRequired<R>(
      tracing.legs((inputResponses, requestState) =>
        leg({
          ...(inputResponses === undefined ? {} : { inputResponses }),
          ...(requestState === undefined ? {} : { requestState }),
        }),
      ),
      tracing.callbacks((request, key, round, abort) =>
        fulfilInputRequest(
          request,
          {
            key,
            method,
            target,
            round,
            era: "modern",
            get signal() {
              return abort.signal;
            },
          },
          this.#callbacks,
          capabilities,
        ),
      ),
      {
        method,
        maxRounds: this.#maxRounds,
        maxRequestsPerRound: this.#maxRequestsPerRound,
        maxRequestStateBytes: this.#maxRequestStateBytes,
        concurrency: this.#concurrency,
        clock: this.#clock,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.inputResponses === undefined ? {} : { inputResponses: options.inputResponses }),
        ...(options.requestState === undefined ? {} : { requestState: options.requestState }),
        ...(options.park === undefined ? {} : { onUnanswered: this.#parker(method, params, options.park) }),
      },
    );
    return tracing.ended(driven).finally(() => this.#calls.delete(call));
  }

  /** The loop's hook that parks a round whose callback threw `InputUnavailableError`. */
  #parker(
    method: InputRequiredMethod,
    params: ParkedJson,
    park: ParkOptions,
  ): (failure: unknown, required: InputRequiredResult, round: number) => Promise<void> {
    return async (failure, required, round) => {
      if (!isInputUnavailable(failure)) return;
      const input = { method, params, result: required, round, protocolVersion: this.protocolVersion };
      throw new CallParkedError(await parkCall(input, park, this.#clock.now()), failure);
    };
  }

  /**
   * Parks a call driven by hand (`client.session.callTool(..., { allowInputRequired: true })`):
   * saves `result`'s questions and `requestState` with the call's method and params in
   * `options.store` and resolves with the parked call (its `ticket` resumes it, once, in any
   * process). Spec: basic/patterns/mrtr.
   *
   * @throws ParkedCallRefusedError (`reason: "legacy"`) on a handshake-era connection; TypeError /
   *   RangeError for bad options; whatever the store rejects with.
   */
  async park(
    call: {
      readonly method: InputRequiredMethod;
      readonly params: ParkedJson;
      readonly result: InputRequiredResult;
      readonly round?: number;
    },
    options: ParkOptions,
  ): Promise<ParkedCall> {
    checkParkOptions(options, "client.park");
    if (this.era !== "modern") throw new ParkedCallRefusedError("legacy");
    return await parkCall(
      { ...call, round: call.round ?? 1, protocolVersion: this.protocolVersion },
      options,
      this.#clock.now(),
    );
  }

  /**
   * Resumes a parked call, in this or any other process, connected to the same server: claims the
   * ticket (exactly once across every process sharing the store), then retries the call with the
   * echoed `requestState` and `options.inputResponses` (answers by input key; questions left
   * unanswered are asked again by the server and answered by this client's callbacks, which may
   * park the call again with `options.park`), and runs the loop to the final result.
   *
   * @throws ParkedCallRefusedError (`reason` "unknown", "resumed" or "expired") before anything is
   *   sent, or "legacy" on a handshake-era connection; then what the call throws (the ticket is spent).
   */
  async resume(
    store: PendingCallStore,
    ticket: string,
    options: CallOptions = {},
  ): Promise<ResumedCall<CallToolResult, GetPromptResult, ReadResourceResult>> {
    if (!isPendingCallStore(store)) throw new TypeError("client.resume: store must be a PendingCallStore");
    if (options.park !== undefined) checkParkOptions(options.park, "client.resume");
    if (this.era !== "modern") throw new ParkedCallRefusedError("legacy", ticket);
    const claimed = await store.claim(ticket, this.#clock.now());
    if (claimed.status !== "claimed") throw new ParkedCallRefusedError(claimed.status, ticket);
    const { call } = claimed;
    const seeded: CallOptions = {
      ...options,
      ...(call.requestState === undefined ? {} : { requestState: call.requestState }),
    };
    const params = call.params as Record<string, unknown>;
    switch (call.method) {
      case "tools/call":
        return {
          method: call.method,
          result: await this.callTool(
            String(params.name),
            params.arguments as Record<string, unknown> | undefined,
            seeded,
          ),
        };
      case "prompts/get":
        return {
          method: call.method,
          result: await this.getPrompt(
            String(params.name),
            params.arguments as Record<string, string> | undefined,
            seeded,
          ),
        };
      case "resources/read":
        return { method: call.method, result: await this.readResource(String(params.uri), seeded) };
    }
  }

  /** The one carrier call in flight, if exactly one is. */
  #soleCall(): CallInFlight | undefined {
    if (this.#calls.size !== 1) return undefined;
    return this.#calls.values().next().value;
  }
}
