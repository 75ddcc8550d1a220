/**
 * `MCPServer`: the high-level server. Register tools, prompts, resources and resource templates
 * with schemas and plain functions; it builds one low-level `Server` wired to its registries, seals
 * `requestState` by default. It is a `Dispatcher`: served over Streamable HTTP (`httpHandler()`, or
 * `serve` from tsmcp/node), stdio (`serveStdio` from tsmcp/stdio) or in memory (`Client.connect`).
 * Spec: server/tools, server/prompts, server/resources, basic/patterns/mrtr.
 */
import type * as z from "zod";
import { invalidParams } from "../../protocol/errors.js";
import type { Extension } from "../../protocol/extension.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { checkBoolean, checkInteger, optionTypeError } from "../../protocol/options.js";
import type { Implementation } from "../../protocol/schema/base.js";
import type { Tool } from "../../protocol/schema/content.js";
import type {
  CallToolRequestParams,
  CompleteRequestParams,
  GetPromptRequestParams,
} from "../../protocol/schema/methods.js";
import { MAX_QUOTED_LENGTH, truncate } from "../../protocol/text.js";
import { MemoryReplayCache } from "../../state/memory-replay-cache.js";
import type { MessageBus } from "../../state/message-bus.js";
import { isReplayCache, type ReplayCache } from "../../state/replay-cache.js";
import type { TelemetryOption } from "../../telemetry/options.js";
import type { Dispatcher, LegacySession, RequestEnvironment } from "../../transport/dispatcher.js";
import {
  createHttpHandler,
  type HttpHandler,
  type HttpHandlerOptions,
} from "../../transport/http/server/server-handler.js";
import { inputRequestCapabilityGate } from "../capability-gate.js";
import type { RequestContext } from "../context.js";
import type { ExtensionRegistration } from "../extensions.js";
import { checkLegacyInputRequired, type LegacyInputRequired } from "../legacy/input-required.js";
import type { Logger } from "../logger.js";
import type { Middleware } from "../middleware.js";
import { checkCommonServerOptions } from "../options.js";
import type { StepSessionOptions } from "../resolve/ask.js";
import { DEFAULT_MAX_INVALID_ANSWER_RETRIES, MAX_INVALID_ANSWER_RETRIES_LIMIT } from "../resolve/reask.js";
import { DEFAULT_MAX_RECORDED_STEP_BYTES } from "../resolve/steps.js";
import type { SchemaLike } from "../schema/compile.js";
import { isPlainObject } from "../schema/json.js";
import {
  checkJsonSchemaValidator,
  DEFAULT_JSON_SCHEMA_VALIDATOR,
  type JsonSchemaValidator,
} from "../schema/validator-choice.js";
import { type CacheOptions, enableTasks, Server } from "../server.js";
import { requestStateBoundary } from "../state/boundary.js";
import { isEphemeralPolicy, RequestStateSecurity } from "../state/policy.js";
import { TaskManager } from "../tasks/manager.js";
import type { TaskOptions } from "../tasks/options.js";
import { type Completer, complete } from "./completion.js";
import { type Context, createContext, type ResourceReader, type RoundParams } from "./context.js";
import { DEFAULT_PAGE_SIZE, pageOf } from "./pagination.js";
import { createPrompt, type PromptConfig, type PromptEntry, type PromptHandler } from "./prompts.js";
import { type Registered, type RegistrationHandle, Registry } from "./registry.js";
import type { ResourceConfig, ResourceHandler } from "./resource-config.js";
import { ResourceCatalog } from "./resources.js";
import { grants, requireScopes } from "./scopes.js";
import { legacySubscribeRefusal, listenScopes } from "./subscription-scopes.js";
import {
  createTool,
  type ToolConfig,
  type ToolEntry,
  type ToolHandlerFor,
  type ToolResolvers,
} from "./tools.js";

/** Options of an `MCPServer`; every one is checked when the server is built. */
export interface MCPServerOptions {
  /** The server's version, in `serverInfo`. Default "0.0.0". */
  version?: string;
  /** More of the server's self-description (`title`, `description`, `icons`, `websiteUrl`). */
  info?: Omit<Partial<Implementation>, "name" | "version">;
  /**
   * Guidance for the model: returned by `server/discover`, and in the `initialize` result of a
   * 2025-era session.
   */
  instructions?: string;
  /**
   * How `requestState` is sealed. Default `RequestStateSecurity.ephemeral()`: a random key that
   * never leaves this process (a retry reaching another process is refused). A fleet passes a
   * policy with shared `keys` and gives every instance the same name (or sets the policy's
   * `audience`).
   */
  requestStateSecurity?: RequestStateSecurity;
  /** Cache hints for cacheable results; default `{ ttlMs: 0, cacheScope: "private" }`. */
  cache?: CacheOptions;
  /** Where diagnostics go (handler failures, refused states). Default: warnings and errors to stderr. */
  logger?: Logger;
  /**
   * Records OpenTelemetry spans and metrics through `@opentelemetry/api` (an optional peer
   * dependency): `true` (default) through the global providers when the API is present, an object
   * for given providers, `false` for nothing. Without the API, or with no provider registered,
   * nothing is recorded. See docs/telemetry.md. Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
   */
  telemetry?: TelemetryOption;
  /** Items per page of `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. Default 100. */
  pageSize?: number;
  /**
   * What a hand-built `InputRequiredResult` (one a handler returns itself) becomes on a 2025-era
   * session: `"refuse"` (default) answers -32603; `"fulfil"` asks the client over the back-channel
   * and calls the handler again with the answers. Resolver tools need neither. See
   * {@link LegacyInputRequired}.
   */
  legacyInputRequired?: LegacyInputRequired;
  /**
   * The most resource URIs one 2025-era session may subscribe to; one more is refused with
   * -32602. Default 1000. See `ServerOptions.maxResourceSubscriptions`.
   */
  maxResourceSubscriptions?: number;
  /**
   * The most task ids one `subscriptions/listen` request may list in `notifications.taskIds`; a
   * longer list is refused with -32602. Default 1000. See `ServerOptions.maxTaskSubscriptions`.
   */
  maxTaskSubscriptions?: number;
  /**
   * Leaves out of `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list`
   * what declares `requiredScopes` the request's access token lacks (a page may then hold fewer
   * items). Calling it is refused either way. Default false: everything is listed.
   */
  hideUnauthorized?: boolean;
  /**
   * How raw JSON Schemas of tools and prompts are validated: `"compiled"` (ajv; needs code
   * generation from strings), `"interpreted"` (no code generation; Cloudflare Workers), or
   * `"auto"` (default): compiled unless the runtime forbids it. See {@link JsonSchemaValidator}.
   */
  jsonSchemaValidator?: JsonSchemaValidator;
  /**
   * How many times a resolver's question is asked again when the user's accepted answer does not
   * match its schema (the validation message appended to the question) before the call ends with
   * an `isError` result: an integer from 0 (never ask again) to 100. Default
   * {@link DEFAULT_MAX_INVALID_ANSWER_RETRIES} (2). At 2026-07-28 each re-ask is a new
   * `InputRequiredResult` round whose sealed `requestState` counts the attempts; on a 2025-11-25
   * session it is asked again over the back-channel.
   */
  maxInvalidAnswerRetries?: number;
  /**
   * The most UTF-8 bytes the recorded steps of one call may take (the JSON of every `ctx.once`
   * result and every answer to `ctx.ask`; they ride the sealed `requestState` at 2026-07-28): a
   * positive integer. Default {@link DEFAULT_MAX_RECORDED_STEP_BYTES} (65 536). Past it the step
   * fails with a RangeError (a tool answers `isError`).
   */
  maxRecordedStepBytes?: number;
  /**
   * Where the first use of each single-use `requestState` (of tools declared `singleUse: true`) is
   * recorded until the state expires. Default a `MemoryReplayCache` of this server (one process;
   * a fleet shares one store, as it shares keys). See {@link ReplayCache}.
   */
  replayCache?: ReplayCache;
  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`) for tools declared with `task`: a
   * `TaskManager`, or its options (where tasks live, the bus between replicas, TTLs, caps). With it
   * the server advertises and serves the extension (`tasks/get`, `tasks/update`, `tasks/cancel`)
   * from the start; without it, from the first tool declared with `task`, on a `TaskManager` with
   * the defaults (a process-local `MemoryTaskStore`). Default none. A fleet gives every replica the
   * same `store` and `bus`. See `ToolConfig.task`.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
   */
  tasks?: TaskOptions | TaskManager;
}

/** The one warning of an MCPServer served over HTTP on the default process-local requestState key. */
const EPHEMERAL_KEY_WARNING =
  "MCPServer: requestState is sealed with a process-local key; after a restart, or on another " +
  "instance, a client's pending requestState is refused (-32602). Share keys across instances and " +
  "restarts: new MCPServer(name, { requestStateSecurity: new RequestStateSecurity({ keys }) }) " +
  "(docs/deploying.md).";

function missingAudienceMessage(): string {
  return (
    "MCPServer: an explicit requestStateSecurity needs an audience, and this server has no name to use as " +
    "one (every unnamed server sharing the keys would accept each other's requestState). Name the server — " +
    'new MCPServer("billing", { requestStateSecurity }) — or set the policy\'s audience — ' +
    'new RequestStateSecurity({ keys, audience: "billing" }).'
  );
}

function checkOptions(name: unknown, options: unknown): asserts options is MCPServerOptions {
  if (typeof name !== "string") throw new TypeError("MCPServer: name must be a string");
  if (!isPlainObject(options)) throw new TypeError("MCPServer options must be an object");
  checkCommonServerOptions("MCPServer", options);
  const { pageSize, requestStateSecurity } = options;
  checkInteger("MCPServer", "pageSize", pageSize, { min: 1, unit: "items" });
  checkBoolean("MCPServer", "hideUnauthorized", options.hideUnauthorized);
  checkLegacyInputRequired("MCPServer", options.legacyInputRequired);
  checkJsonSchemaValidator("MCPServer", options.jsonSchemaValidator);
  checkInteger("MCPServer", "maxInvalidAnswerRetries", options.maxInvalidAnswerRetries, {
    min: 0,
    max: MAX_INVALID_ANSWER_RETRIES_LIMIT,
    unit: "retries",
  });
  checkInteger("MCPServer", "maxRecordedStepBytes", options.maxRecordedStepBytes, { min: 1, unit: "bytes" });
  if (
    options.tasks !== undefined &&
    !(options.tasks instanceof TaskManager) &&
    !isPlainObject(options.tasks)
  ) {
    throw optionTypeError("MCPServer", "tasks", "a TaskManager or TaskOptions");
  }
  if (options.replayCache !== undefined && !isReplayCache(options.replayCache)) {
    throw optionTypeError("MCPServer", "replayCache", "a ReplayCache (with markUsed)");
  }
  if (requestStateSecurity !== undefined) {
    if (!(requestStateSecurity instanceof RequestStateSecurity)) {
      throw optionTypeError("MCPServer", "requestStateSecurity", "a RequestStateSecurity");
    }
    if (name.trim() === "" && requestStateSecurity.audience === undefined) {
      throw new TypeError(missingAudienceMessage());
    }
  }
}

/**
 * A high-level MCP server.
 *
 * ```ts
 * const mcp = new MCPServer("fleet", { version: "1.0.0" });
 * mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
 * mcp.resource("notes://{id}", { mimeType: "text/plain" }, async ({ id }) => notes.get(id));
 * const handle = await serve(mcp, { port: 3000 });         // tsmcp/node: http://127.0.0.1:3000/mcp
 * ```
 *
 * It advertises tools, prompts and resources (each with `listChanged`; resources with `subscribe`)
 * and completions, whatever is registered, and the tasks extension once a tool declares `task` (or
 * the `tasks` option is given). The requestState boundary is its first middleware:
 * handlers read and write plaintext `requestState`; clients only ever see sealed tokens, and a token
 * that does not verify answers `{"code":-32602,"message":"Invalid or expired requestState",...}`.
 * Its second is the capability gate: an `InputRequiredResult` a handler builds by hand that asks for
 * a kind of input the client did not declare answers -32021 with `data.requiredCapabilities`
 * instead of going out (Spec: basic/patterns/mrtr).
 *
 * @throws TypeError when `name` is not a string, an option has the wrong type, or an explicit
 *   `requestStateSecurity` without `audience` is given to a server whose name is empty;
 *   RangeError for a bad `pageSize` or cache hint.
 */
export class MCPServer implements Dispatcher {
  /** The server's name: `serverInfo.name` and the requestState audience (unless the policy sets one). */
  readonly name: string;
  /** The low-level server this one is built on (all handlers wired to the registries). */
  readonly server: Server;
  /** Items per list page. */
  readonly pageSize: number;
  readonly #tools: Registry<ToolEntry>;
  readonly #prompts: Registry<PromptEntry>;
  readonly #resources: ResourceCatalog;
  readonly #read: ResourceReader;
  readonly #hideUnauthorized: boolean;
  readonly #jsonSchemaValidator: JsonSchemaValidator;
  readonly #maxInvalidAnswerRetries: number;
  /** What a handler's `ctx.ask` / `ctx.once` steps may record, and how often an answer is re-asked. */
  readonly #stepOptions: StepSessionOptions;
  /** True while the default process-local key seals requestState and no warning has been logged. */
  #ephemeralKey: boolean;
  /** The task manager (the `tasks` option, or one made for the first tool declared with `task`). */
  #tasks: TaskManager | undefined;
  /** The `tasks` option when it is a `TaskManager` (its giver closes it). */
  readonly #givenTasks: TaskManager | undefined;

  constructor(name: string, options: MCPServerOptions = {}) {
    checkOptions(name, options);
    this.name = name;
    this.pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.#hideUnauthorized = options.hideUnauthorized ?? false;
    this.#jsonSchemaValidator = options.jsonSchemaValidator ?? DEFAULT_JSON_SCHEMA_VALIDATOR;
    this.#maxInvalidAnswerRetries = options.maxInvalidAnswerRetries ?? DEFAULT_MAX_INVALID_ANSWER_RETRIES;
    this.#stepOptions = Object.freeze({
      maxRecordedStepBytes: options.maxRecordedStepBytes ?? DEFAULT_MAX_RECORDED_STEP_BYTES,
      maxInvalidAnswerRetries: this.#maxInvalidAnswerRetries,
    });
    this.#tools = new Registry(() => this.server.notifyListChanged("tools"));
    this.#prompts = new Registry(() => this.server.notifyListChanged("prompts"));
    this.#resources = new ResourceCatalog(() => this.server.notifyListChanged("resources"));
    this.#read = (uri, ctx) => this.#resources.read(uri, ctx);
    this.server = new Server(name, {
      ...(options.version === undefined ? {} : { version: options.version }),
      ...(options.info === undefined ? {} : { info: options.info }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      ...(options.cache === undefined ? {} : { cache: options.cache }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.telemetry === undefined ? {} : { telemetry: options.telemetry }),
      ...(options.legacyInputRequired === undefined
        ? {}
        : { legacyInputRequired: options.legacyInputRequired }),
      ...(options.maxResourceSubscriptions === undefined
        ? {}
        : { maxResourceSubscriptions: options.maxResourceSubscriptions }),
      ...(options.maxTaskSubscriptions === undefined
        ? {}
        : { maxTaskSubscriptions: options.maxTaskSubscriptions }),
      onListTools: (ctx, params) => {
        const { page, nextCursor } = pageOf("tools", this.#tools.entries, params.cursor, this.pageSize);
        const tools = this.#permitted(page, ctx).map((entry) => this.#listed(entry.value, ctx));
        return nextCursor === undefined ? { tools } : { tools, nextCursor };
      },
      onCallTool: (ctx, params) =>
        this.#tool(params).call(params.arguments, this.#context(ctx, params), this.#tasks),
      onListPrompts: (ctx, params) => {
        const { page, nextCursor } = pageOf("prompts", this.#prompts.entries, params.cursor, this.pageSize);
        const prompts = this.#permitted(page, ctx).map((entry) => entry.value.definition);
        return nextCursor === undefined ? { prompts } : { prompts, nextCursor };
      },
      onGetPrompt: (ctx, params) => this.#prompt(params).get(params.arguments, this.#context(ctx, params)),
      onListResources: (ctx, params) =>
        this.#resources.list(params.cursor, this.pageSize, this.#context(ctx, {}), this.#hideUnauthorized),
      onListResourceTemplates: (ctx, params) =>
        this.#resources.listTemplates(params.cursor, this.pageSize, ctx.auth, this.#hideUnauthorized),
      onReadResource: (ctx, params) => this.#resources.read(params.uri, this.#context(ctx, params)),
      onComplete: (ctx, params) =>
        complete(
          this.#completers(params.ref, ctx),
          params.argument,
          { arguments: params.context?.arguments ?? {} },
          this.#context(ctx, {}),
        ),
    });
    const policy = options.requestStateSecurity ?? RequestStateSecurity.ephemeral();
    this.#ephemeralKey = isEphemeralPolicy(policy);
    this.server.use(
      requestStateBoundary(policy, {
        defaultAudience: name,
        singleUse: (binding) =>
          binding.method === "tools/call" && this.#tools.get(binding.target)?.singleUse === true,
        replayCache: options.replayCache ?? new MemoryReplayCache(),
      }),
    );
    this.server.use(inputRequestCapabilityGate());
    this.server.use(listenScopes((uri) => this.#resources.requiredScopesOf(uri)));
    this.#givenTasks = options.tasks instanceof TaskManager ? options.tasks : undefined;
    if (options.tasks !== undefined) {
      this.#useTasks(
        options.tasks instanceof TaskManager
          ? options.tasks
          : new TaskManager({ logger: this.logger, ...options.tasks }),
      );
    }
  }

  /**
   * The task manager tools declared with `task` run on (the `tasks` option, or one with the
   * defaults made for the first such tool); `undefined` while the server serves no tasks.
   */
  get tasks(): TaskManager | undefined {
    return this.#tasks;
  }

  #useTasks(tasks: TaskManager): void {
    this.#tasks = tasks;
    enableTasks(this.server, tasks);
  }

  /** Where diagnostics go. */
  get logger(): Logger {
    return this.server.logger;
  }

  /**
   * Registers a tool. Its schemas are compiled now; arguments are validated on every call before
   * the handler runs (invalid ones answer an `isError` result naming the fields). The handler
   * returns by the conventions of `ToolReturn` (or `StructuredToolReturn` with an `outputSchema`);
   * a thrown `McpError` answers that protocol error, any other throw an `isError` result with its
   * message. `tools/list` lists tools in registration order. Spec: server/tools.
   *
   * With `resolve`, the tool declares what it needs and the framework runs the rounds:
   *
   * ```ts
   * const region = resolver("region", ({ args }) =>
   *   elicit(`Which region should ${String(args.name)} live in?`, z.object({ region: z.string() })));
   * mcp.tool("provision", { inputSchema: z.object({ name: z.string() }), resolve: { region } },
   *   async ({ name }, ctx) => `Provisioned ${name} in ${ctx.resolved.region.region}`);
   * ```
   *
   * The handler keeps its `(args, ctx)` shape and runs once every question is answered, the values
   * on `ctx.resolved` (typed from the resolvers); each question is asked once per call (answers
   * ride the sealed `requestState`); independent questions go out in one round. A declined or
   * cancelled question, or an unusable answer, answers an `isError` result (an accepted answer that
   * does not match the schema is first asked again, see `maxInvalidAnswerRetries`); a question the client
   * lacks the capability for answers -32021. The handler may not return an `InputRequiredResult`
   * (a type error; at run time an `isError` result). With `singleUse: true` every sealed
   * `requestState` of the tool opens once: a replayed round is refused with -32602 before anything
   * runs (see `ToolConfig.singleUse` and the `replayCache` option). Spec: basic/patterns/mrtr.
   *
   * A property of the input schema annotated `"x-mcp-header": "Region"` (with zod:
   * `z.string().meta({ "x-mcp-header": "Region" })`) is mirrored by HTTP clients into an
   * `Mcp-Param-Region` header. Over Streamable HTTP each such header is checked against the
   * argument before anything else runs (resolvers and body included): a missing header for a
   * present, non-null value, a header for an absent or `null` one, invalid characters, a bad base64
   * sentinel or a different value answer -32020 (HTTP 400). Other transports skip the check.
   * Spec: basic/transports/streamable-http §Custom Headers, server/tools.
   *
   * @returns a handle whose `remove()` unregisters the tool (listeners are told the list changed).
   * @throws TypeError for a name outside `[A-Za-z0-9_.-]{1,128}` or already registered, a bad
   *   config, a schema that cannot be used (a Standard Schema without JSON Schema support needs
   *   `withJsonSchema`; the input schema root must be `type: "object"`), `x-mcp-header`
   *   annotations that break the rules (a bad or duplicate name, a type other than string, integer
   *   or boolean, a property not reachable through `properties` alone), a non-function handler,
   *   or a `resolve` map with an entry that is not a resolver, two different resolvers of one name,
   *   a cycle, or a name the input schema requires.
   */
  tool<
    I extends SchemaLike | undefined = undefined,
    O extends SchemaLike | undefined = undefined,
    R extends ToolResolvers<I> | undefined = undefined,
  >(
    name: string,
    config: ToolConfig<I, O, R>,
    handler: NoInfer<ToolHandlerFor<I, O, R>>,
  ): RegistrationHandle {
    const entry = createTool(name, config, handler, {
      logger: this.logger,
      jsonSchemaValidator: this.#jsonSchemaValidator,
      maxInvalidAnswerRetries: this.#maxInvalidAnswerRetries,
    });
    if (entry.task !== undefined && this.#tasks === undefined) {
      this.#useTasks(new TaskManager({ logger: this.logger }));
    }
    return this.#tools.add(name, entry, "tool");
  }

  /**
   * Registers a prompt. Arguments are validated on every round (invalid ones answer -32602 naming
   * the fields). The handler returns a string, messages, a `GetPromptResult`, or an
   * `InputRequiredResult`. Spec: server/prompts.
   *
   * @returns a handle whose `remove()` unregisters the prompt.
   * @throws TypeError for an empty or already registered name, a bad config or schema, a completer
   *   for an unknown argument, or a non-function handler.
   */
  prompt<A extends SchemaLike | undefined = undefined>(
    name: string,
    config: PromptConfig<A>,
    handler: NoInfer<PromptHandler<A>>,
  ): RegistrationHandle {
    return this.#prompts.add(name, createPrompt(name, config, handler, this.#jsonSchemaValidator), "prompt");
  }

  /**
   * Registers a static resource (`notes://welcome`) or an RFC 6570 resource template
   * (`notes://{id}`, `file:///{+path}`, `search://q{?text,limit}`). A template's handler gets the
   * variables extracted from the URI and may return an `InputRequiredResult`; a static resource may
   * not. A read that matches nothing, or whose handler returns `undefined`, answers -32602 with
   * `data.uri`. Spec: server/resources.
   *
   * @returns a handle whose `remove()` unregisters it.
   * @throws TypeError for a URI without a scheme, a malformed or unsupported template (no `*` or
   *   `:n` modifiers, no `;` operator), a URI already registered, a bad config, `list`/`complete`
   *   on a static resource, a completer for an unknown variable, or a non-function handler;
   *   RangeError for bad cache hints or `size`.
   */
  resource<U extends string>(
    uri: U,
    config: ResourceConfig<U>,
    handler: ResourceHandler<U>,
  ): RegistrationHandle {
    return this.#resources.add(uri, config, handler);
  }

  /**
   * Adds a middleware to the low-level server, after the requestState boundary (so it sees
   * plaintext `requestState`); middleware added first runs first. Returns this server.
   *
   * A middleware may provide typed request values: `next(request.with(key, value))` with a key
   * from `contextKey<T>(name)`; later middleware (`request.context.get(key)`), handlers, completers,
   * resolvers and task bodies (`ctx.get(key)`) read them typed `T`. It may answer without calling
   * `next`: its result goes out as returned (`resultType` "complete" when it has none; it gets no
   * `serverInfo` stamp nor cache hints, and a `requestState` in it is still sealed), or a thrown `McpError` answers that
   * error. See docs/middleware.md.
   *
   * @throws TypeError when `middleware` is not a function.
   */
  use(middleware: Middleware): this {
    this.server.use(middleware);
    return this;
  }

  /**
   * Serves an extension (see `defineExtension` and `Server.extension`): advertises `settings`
   * (default `{}`) under `capabilities.extensions[ext.id]` (`server/discover`, and `initialize` on a
   * 2025-era session) and answers its methods in both eras with `handlers[method](ctx, params)`.
   * A handler receives this server's `Context` (as tools do: `readResource`, `get` for middleware
   * values, `meta`, `clientCapabilities`, `signal`, ...; `inputResponses` and `requestState` are
   * always `undefined`, as extension methods answer complete results only). Returns this server.
   * Spec: https://modelcontextprotocol.io/extensions/overview (Negotiation).
   *
   * @throws TypeError as `Server.extension`: not a `defineExtension` result, registered already,
   *   settings that do not match `ext.serverSettings`, a missing handler, a method taken.
   */
  extension<E extends Extension>(ext: E, registration: ExtensionRegistration<E, Context>): this {
    const given = (registration as Partial<ExtensionRegistration<E, Context>> | null)?.handlers;
    if (given === null || typeof given !== "object") {
      this.server.extension(ext, registration as unknown as ExtensionRegistration<E>);
      return this;
    }
    const handlers: Record<string, unknown> = {};
    for (const [method, handler] of Object.entries(given)) {
      handlers[method] =
        typeof handler === "function"
          ? (base: RequestContext, params: unknown) =>
              (handler as (ctx: Context, params: unknown) => unknown)(this.#context(base, {}), params)
          : handler;
    }
    this.server.extension(ext, { ...registration, handlers } as unknown as ExtensionRegistration<E>);
    return this;
  }

  /**
   * Sends the notification `method` of `ext`, params checked against its schema: on the channel of
   * the request of `context` when given, else to the 2025-era sessions that declared the extension.
   * See `Server.notifyExtension`.
   *
   * @throws TypeError when `ext` declares no such notification or the params do not match.
   */
  notifyExtension<E extends Extension, N extends keyof E["notifications"] & string>(
    ext: E,
    method: N,
    params: z.input<E["notifications"][N]>,
    context?: RequestContext,
  ): void {
    this.server.notifyExtension(ext, method, params, context);
  }

  /**
   * Tells `subscriptions/listen` streams watching `uri` (or a resource it contains), and the 2025-era
   * sessions subscribed to it, that it changed; on every replica when a bus is attached. See
   * `Server.notifyResourceUpdated`.
   *
   * @returns a promise of `true` once delivered (or published), `false` when the bus refused it;
   *   it never rejects, so it may be ignored.
   */
  notifyResourceUpdated(uri: string): Promise<boolean> {
    return this.server.notifyResourceUpdated(uri);
  }

  /**
   * Puts the server in fleet mode on `bus`, as `Server.attachBus` does: registering or removing a
   * tool, prompt or resource then publishes its list_changed on the bus, and every replica
   * attached to it delivers it to its own listen streams and 2025-era sessions.
   *
   * @returns the function that detaches this attachment (idempotent).
   * @throws TypeError when `bus` is not a `MessageBus`, or while another bus is attached.
   */
  attachBus(bus: MessageBus): () => void {
    return this.server.attachBus(bus);
  }

  /** {@inheritDoc transport!Dispatcher.adoptSession} */
  adoptSession(session: LegacySession): void {
    this.server.adoptSession(session);
  }

  /** {@inheritDoc transport!Dispatcher.handle} */
  handle(
    message: JSONRPCRequest | JSONRPCNotification,
    env: RequestEnvironment,
  ): Promise<JSONRPCResponse | undefined> {
    const refused = legacySubscribeRefusal(message, env, (uri) => this.#resources.requiredScopesOf(uri));
    return refused === undefined ? this.server.handle(message, env) : Promise.resolve(refused);
  }

  /** The protocol revisions this server serves, newest first (its low-level `Server`'s). */
  get supportedVersions(): readonly string[] {
    return this.server.supportedVersions;
  }

  /**
   * A tool as `tools/list` shows it: on a 2025-11-25 session a task tool with
   * `execution.taskSupport` (that revision's tool-level negotiation; the field is not in 2026-07-28).
   */
  #listed(tool: ToolEntry, ctx: RequestContext): Tool {
    if (ctx.session === undefined || tool.task === undefined || this.#tasks === undefined)
      return tool.definition;
    return { ...tool.definition, execution: { taskSupport: tool.task } };
  }

  /** The entries of a list page the request may see (all of them unless `hideUnauthorized`). */
  #permitted<E extends { readonly requiredScopes: readonly string[] }>(
    page: readonly Registered<E>[],
    ctx: RequestContext,
  ): readonly Registered<E>[] {
    if (!this.#hideUnauthorized) return page;
    return page.filter((entry) => grants(ctx.auth, entry.value.requiredScopes));
  }

  /**
   * The web-standard Streamable HTTP handler of this server, `(Request) => Promise<Response>`, for
   * any framework or runtime (`createHttpHandler` from tsmcp/transport). Unexpected transport
   * failures go to this server's logger unless `options.logger` says otherwise.
   *
   * @throws TypeError/RangeError for bad options.
   */
  httpHandler(options: HttpHandlerOptions = {}): HttpHandler {
    return createHttpHandler(this, options);
  }

  /**
   * Logs one warning, the first time this server is served over HTTP, when it seals requestState
   * with a process-local key (the default): a restart or another instance then refuses a client's
   * pending `requestState` with the same -32602 a forged token gets. Silent with an explicit
   * `requestStateSecurity` holding real keys; an explicit `RequestStateSecurity.ephemeral()` warns
   * like the default. Called by `serve`, `createHttpHandler` and {@link httpHandler}.
   */
  onServedOverHttp(): void {
    if (!this.#ephemeralKey) return;
    this.#ephemeralKey = false;
    this.logger.warn(EPHEMERAL_KEY_WARNING);
  }

  /**
   * Ends every open `subscriptions/listen` stream with its final result, and stops the task manager
   * unless it was given as the `tasks` option (its running tasks are marked failed).
   */
  close(): void {
    this.server.close();
    if (this.#tasks !== undefined && this.#tasks !== this.#givenTasks) void this.#tasks.close();
  }

  #tool(params: Pick<CallToolRequestParams, "name">): ToolEntry {
    const tool = this.#tools.get(params.name);
    if (tool === undefined) throw invalidParams(`Unknown tool: ${truncate(params.name, MAX_QUOTED_LENGTH)}`);
    return tool;
  }

  #prompt(params: Pick<GetPromptRequestParams, "name">): PromptEntry {
    const prompt = this.#prompts.get(params.name);
    if (prompt === undefined)
      throw invalidParams(`Unknown prompt: ${truncate(params.name, MAX_QUOTED_LENGTH)}`);
    return prompt;
  }

  /**
   * The completers of a prompt or template the request may use: one whose `requiredScopes` it
   * lacks is refused like `prompts/get` and `resources/read` (insufficient scope), or, with
   * `hideUnauthorized`, answered exactly as an unknown one.
   */
  #completers(ref: CompleteRequestParams["ref"], ctx: RequestContext): ReadonlyMap<string, Completer> {
    const entry = ref.type === "ref/prompt" ? this.#prompts.get(ref.name) : this.#resources.template(ref.uri);
    const hidden = entry !== undefined && this.#hideUnauthorized && !grants(ctx.auth, entry.requiredScopes);
    if (entry === undefined || hidden) {
      if (ref.type === "ref/prompt")
        throw invalidParams(`Unknown prompt: ${truncate(ref.name, MAX_QUOTED_LENGTH)}`);
      throw invalidParams(`Unknown resource template: ${truncate(ref.uri, MAX_QUOTED_LENGTH)}`);
    }
    requireScopes(ctx.auth, entry.requiredScopes);
    return entry.completers;
  }

  #context(base: RequestContext, round: RoundParams): Context {
    return createContext(base, round, this.#read, this.#stepOptions);
  }
}
