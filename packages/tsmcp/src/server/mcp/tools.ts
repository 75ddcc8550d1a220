/**
 * Tools of an `MCPServer`: the configuration a tool is registered with, its advertised definition
 * and its pipeline (built once), and how one `tools/call` runs: through the pipeline (tool-run), or
 * for a tool declared with `task`, as a task when the request allows it (tool-tasks).
 * Spec: server/tools, https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import type * as z from "zod";
import { McpError } from "../../protocol/errors.js";
import type { IconSchema } from "../../protocol/schema/base.js";
import type { ContentBlock, Tool, ToolAnnotations } from "../../protocol/schema/content.js";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import type { CallToolResult } from "../../protocol/schema/methods.js";
import type { CreateTaskResult } from "../../protocol/schema/tasks.js";
import { analyzeParamHeaders } from "../../protocol/x-mcp-header.js";
import type { Awaitable } from "../handlers.js";
import { type Logger, silentLogger } from "../logger.js";
import type {
  NotInputRequiredTag,
  ResolverToolInputRequired,
  ResolverToolReturn,
} from "../resolve/one-channel.js";
import type { ResolvedValues, ResolverDependency } from "../resolve/resolver.js";
import {
  compileSchema,
  type InferSchemaInput,
  type InferSchemaOutput,
  requireObjectRoot,
  type SchemaLike,
} from "../schema/compile.js";
import { deepFreeze } from "../schema/json.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";
import type { JsonSchemaValidator } from "../schema/validator-choice.js";
import { requestedTaskOf } from "../tasks/legacy-scope.js";
import type { TaskManager } from "../tasks/manager.js";
import { type Context, type ResolvedContext, runHandler } from "./context.js";
import { checkDescriptor, descriptiveFields } from "./descriptor.js";
import { checkRequiredScopes, requireScopes } from "./scopes.js";
import { toolResolverParts } from "./tool-resolvers.js";
import { runToolNow, type ToolInvocation, type ToolPipeline } from "./tool-run.js";
import { runToolTask, type ToolTaskSupport } from "./tool-tasks.js";

/** A tool name: 1-128 characters of `A-Z a-z 0-9 _ . -`. Spec: server/tools §Tool Names. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** The input schema advertised by a tool registered without one: no arguments at all. */
export const NO_ARGUMENTS_SCHEMA: JsonSchemaObject = deepFreeze({
  type: "object",
  additionalProperties: false,
});

/**
 * The resolvers a tool declares, by the name its handler receives each value under: a resolver
 * (the unwrapped value) or `outcome(resolver)` (the outcome union). Each must read arguments the
 * tool has.
 */
export type ToolResolvers<I> = Readonly<Record<string, ResolverDependency<ToolArgs<I>>>>;

/**
 * How a tool describes itself in `tools/list`, the schemas it is called and answers with, and the
 * resolvers that fill what only the client has.
 */
export interface ToolConfig<
  I extends SchemaLike | undefined = undefined,
  O extends SchemaLike | undefined = undefined,
  R extends ToolResolvers<I> | undefined = undefined,
> {
  /** Display name. */
  title?: string;
  /** What the tool does, for the model. */
  description?: string;
  /**
   * The arguments: a zod object schema, another Standard Schema with JSON Schema support, or a raw
   * JSON Schema object; its root must be `type: "object"`. Validated before the handler runs.
   * Omitted: the tool takes no arguments (`{ type: "object", additionalProperties: false }`).
   */
  inputSchema?: I;
  /**
   * The structured result (any JSON Schema; the root need not be an object). With it, the handler
   * returns the data, which is validated and sent as `structuredContent` plus its JSON as text.
   */
  outputSchema?: O;
  /** Behaviour hints for clients (untrusted by them). */
  annotations?: ToolAnnotations;
  /** Icons a client may show. */
  icons?: z.infer<typeof IconSchema>[];
  /** Extra `_meta` on the tool definition. */
  _meta?: Record<string, unknown>;
  /**
   * What the tool needs that only the client has (or that is computed per call), as resolvers:
   * `{ region, confirm: outcome(confirm) }`. The handler keeps its `(args, ctx)` shape and reads
   * the values on `ctx.resolved`; it runs only once every question is answered, and the
   * framework runs the rounds, asking each question once per call: at 2026-07-28 as
   * `InputRequiredResult`s, on a 2025-11-25 session over its back-channel (in-process, the same
   * declaration). These names are not arguments:
   * they are absent from the advertised input schema and a value a client sends under one is
   * ignored. The handler may not return an `InputRequiredResult` (one channel per call).
   */
  resolve?: R;
  /**
   * OAuth scopes the request's access token must carry to call it (or, with `MCPServer`'s
   * `hideUnauthorized`, to see it in `tools/list`). Checked before anything else of the call: a
   * token without them (or no token) is refused with -32600 "Forbidden: insufficient scope",
   * `data: { reason: "insufficient_scope", requiredScopes }`, which Streamable HTTP behind
   * `bearerAuth` answers 403 with a step-up challenge. Default none. Spec: basic/authorization
   * §Scope Challenge Handling.
   */
  requiredScopes?: readonly string[];
  /**
   * Makes every sealed `requestState` of this tool single-use, for a tool whose final round must
   * not run twice (a payment, a deletion): each state opens once; a replay (the same
   * `inputResponses` and `requestState` sent again, even concurrently, even to another instance
   * sharing the `replayCache`) is refused with -32602 "Invalid or expired requestState" before
   * anything of the tool runs. A client whose response was lost cannot retry that round; it calls
   * the tool again from the start. Costs one `replayCache` write per round. Default false.
   * Spec: basic/patterns/mrtr §Server Requirements.
   */
  singleUse?: boolean;
  /**
   * Runs the tool as a task of the tasks extension (`io.modelcontextprotocol/tasks`): a call from
   * a client that declared the extension (on that request) answers a `CreateTaskResult` at once,
   * and the handler runs on in the task (`ctx.task`; `ctx.signal` aborts on `tasks/cancel`; input
   * it asks for with `ctx.elicit`, `ctx.createMessage` or `ctx.listRoots`, or an
   * `InputRequiredResult` it returns, waits in the task's `inputRequests` for `tasks/update`). Its
   * resolvers, and an `InputRequiredResult` the handler answers at once (before it waits on a
   * timer or I/O), still run as multi round-trip rounds first: the task is created on the final
   * round only.
   * Without the extension on the request, `"optional"` runs the tool as usual (synchronously) and
   * `"required"` refuses the call with -32021 (`data.requiredCapabilities.extensions`). The
   * server's `tasks` option sets where tasks live and their limits. Default: never a task.
   * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
   *
   * On a 2025-11-25 session the revision's core tasks apply instead: `tools/list` shows the tool
   * with `execution.taskSupport`, a call with `params.task` answers `CreateTaskResult { task }`,
   * input the handler asks for reaches the client while it waits on `tasks/result`, and a
   * `"required"` tool called without `params.task` (or any other tool called with it) is refused
   * with -32601. Spec (2025-11-25):
   * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
   */
  task?: ToolTaskSupport;
}

/** The arguments a tool handler receives: the input schema's output type. */
export type ToolArgs<I> = [I] extends [undefined]
  ? Record<string, never>
  : InferSchemaOutput<Exclude<I, undefined>, Record<string, unknown>>;

/**
 * What a tool without an output schema may return: a string (one text block), content blocks, a
 * full `CallToolResult`, nothing (no content), or an `InputRequiredResult` to ask the client first
 * (hand-built, with a plaintext `requestState` that the server seals).
 */
export type ToolReturn =
  | string
  | ContentBlock[]
  | CallToolResult
  | InputRequiredResult
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: a body without a return statement returns void
  | void;

/**
 * What a tool with an output schema may return: the structured data (`T`, the schema's input
 * type), a `CallToolResult` carrying it as `structuredContent`, an error result (`isError: true`,
 * not validated), or an `InputRequiredResult`.
 */
export type StructuredToolReturn<T> =
  | T
  | (CallToolResult & { structuredContent: T })
  | (CallToolResult & { isError: true })
  | InputRequiredResult;

/** The return type of a tool handler, given its output schema. */
export type ToolResultOf<O> = [O] extends [undefined]
  ? ToolReturn
  : StructuredToolReturn<InferSchemaInput<Exclude<O, undefined>, unknown>>;

/**
 * A tool's body: the validated arguments and the request's `Context`, returning (or resolving to)
 * a result by the conventions of {@link ToolReturn} / {@link StructuredToolReturn}. Throw an
 * `McpError` to answer with that protocol error; any other throw becomes an `isError` result
 * carrying the error's message.
 */
export type ToolHandler<I extends SchemaLike | undefined, O extends SchemaLike | undefined> = (
  args: ToolArgs<I>,
  ctx: Context,
) => Awaitable<ToolResultOf<O>>;

/**
 * The body of a tool with resolvers: the same `(args, ctx)` shape as {@link ToolHandler}, its
 * `ctx.resolved` holding the values typed from the resolvers (see {@link ResolvedContext}). It
 * returns as {@link ToolHandler} does, except an `InputRequiredResult`: the resolvers own the
 * call's rounds (returning one is a type error naming `ResolverToolInputRequired`).
 */
export type ResolverToolHandler<
  I extends SchemaLike | undefined,
  O extends SchemaLike | undefined,
  R extends ToolResolvers<I>,
> = (
  args: ToolArgs<I>,
  ctx: ResolvedContext<ResolvedValues<R>>,
) => [O] extends [undefined] ? PlainResolverToolReturn : ResolverToolReturn<ToolResultOf<O>>;

/**
 * {@link ResolverToolReturn} of {@link ToolReturn} (the return of a resolver tool without an
 * output schema), written out: the type of most resolver tools, so that the first of them does
 * not pay for computing it. Equal to `ResolverToolReturn<ToolReturn>` (a type test pins it).
 */
export type PlainResolverToolReturn =
  | PlainResolverToolResult
  | (Promise<PlainResolverToolResult> & NotInputRequiredTag);

/** `WithoutInputRequired<ToolReturn>`, written out (see {@link PlainResolverToolReturn}). */
export type PlainResolverToolResult =
  | string
  | (ContentBlock[] & NotInputRequiredTag)
  | (CallToolResult & NotInputRequiredTag)
  | ResolverToolInputRequired
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: a body without a return statement returns void
  | void;

/** The handler a tool takes: {@link ToolHandler}, or {@link ResolverToolHandler} with `resolve`. */
export type ToolHandlerFor<
  I extends SchemaLike | undefined,
  O extends SchemaLike | undefined,
  R extends ToolResolvers<I> | undefined,
> = [R] extends [undefined] ? ToolHandler<I, O> : ResolverToolHandler<I, O, Exclude<R, undefined>>;

/** A registered tool: its advertised definition and how to run one call. */
export interface ToolEntry {
  /** The `Tool` listed by `tools/list` (deeply frozen). */
  readonly definition: Tool;
  /** Scopes a caller's token must carry (frozen; empty for none). */
  readonly requiredScopes: readonly string[];
  /** Whether its sealed states are single-use (see `ToolConfig.singleUse`). */
  readonly singleUse: boolean;
  /** Whether it runs as a task (see `ToolConfig.task`). */
  readonly task: ToolTaskSupport | undefined;
  /**
   * Runs one `tools/call` with the client's raw arguments; with `tasks` (the server's task manager)
   * a tool declared with `task` may answer a `CreateTaskResult`. Answers at once when nothing
   * waits (a failure before anything waited is thrown), else with a promise.
   */
  call(
    args: unknown,
    ctx: Context,
    tasks?: TaskManager,
  ):
    | CallToolResult
    | InputRequiredResult
    | CreateTaskResult
    | Promise<CallToolResult | InputRequiredResult | CreateTaskResult>;
}

const TOOL_FIELDS = ["title", "description", "annotations", "icons", "_meta"] as const;

function checkConfig(
  name: string,
  config: unknown,
): asserts config is ToolConfig<SchemaLike | undefined, SchemaLike | undefined> {
  if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
    throw new TypeError(
      `tool name ${JSON.stringify(name)} must be 1-128 characters of letters, digits, "_", "." and "-"`,
    );
  }
  checkDescriptor(config, `tool "${name}"`, TOOL_FIELDS);
  const { singleUse, task } = config as { singleUse?: unknown; task?: unknown };
  if (singleUse !== undefined && typeof singleUse !== "boolean") {
    throw new TypeError(`tool "${name}": singleUse must be a boolean`);
  }
  if (task !== undefined && task !== "optional" && task !== "required") {
    throw new TypeError(`tool "${name}": task must be "optional" or "required"`);
  }
}

/** Options of {@link createTool}. */
export interface CreateToolOptions {
  /** Where resolver diagnostics go (a discarded answer, at info level). Default: nowhere. */
  readonly logger?: Logger;
  /** How raw JSON Schemas are validated. Default `"auto"`. */
  readonly jsonSchemaValidator?: JsonSchemaValidator;
  /**
   * How many times an off-schema answer to a resolver's question is asked again before the call
   * ends with an `isError` result. Default `DEFAULT_MAX_INVALID_ANSWER_RETRIES`.
   */
  readonly maxInvalidAnswerRetries?: number;
}

/**
 * Prepares a tool: validates its configuration, compiles its schemas (and resolvers) once, and
 * builds its advertised definition and runner.
 *
 * @throws TypeError for a bad name, a bad config field (`singleUse` not a boolean included), a handler that is not a function, a
 *   schema that cannot be used (see `compileSchema`; the input schema root must be an object), a
 *   `resolve` map that does not compile (see `toolResolverParts`), or an advertised input schema
 *   whose `x-mcp-header` annotations break the rules (every compliant client would drop the tool
 *   from `tools/list`; see `analyzeParamHeaders`).
 */
export function createTool(
  name: string,
  config: unknown,
  handler: unknown,
  options: CreateToolOptions = {},
): ToolEntry {
  checkConfig(name, config);
  if (typeof handler !== "function") throw new TypeError(`tool "${name}": handler must be a function`);
  const input = compileSchema(
    config.inputSchema ?? NO_ARGUMENTS_SCHEMA,
    "input",
    `tool "${name}" inputSchema`,
    options.jsonSchemaValidator,
  );
  requireObjectRoot(input.jsonSchema, `tool "${name}" inputSchema`);
  const output =
    config.outputSchema === undefined
      ? undefined
      : compileSchema(
          config.outputSchema,
          "output",
          `tool "${name}" outputSchema`,
          options.jsonSchemaValidator,
        );
  const resolvers =
    config.resolve === undefined
      ? undefined
      : toolResolverParts(name, config.resolve, input.jsonSchema, handler as ToolInvocation, {
          logger: options.logger ?? silentLogger,
          ...(options.maxInvalidAnswerRetries === undefined
            ? {}
            : { maxInvalidAnswerRetries: options.maxInvalidAnswerRetries }),
        });
  const advertisedInputSchema = resolvers?.advertisedInputSchema ?? input.jsonSchema;
  const annotated = analyzeParamHeaders(advertisedInputSchema);
  if (annotated.kind === "invalid") {
    throw new TypeError(
      `tool "${name}" inputSchema: ${annotated.reason}; every compliant client would drop this tool ` +
        "from tools/list (x-mcp-header rules, spec: streamable-http §Custom Headers)",
    );
  }
  const pipeline: ToolPipeline = {
    name,
    input,
    output,
    paramHeaders: annotated.params,
    resolvedNames: resolvers?.resolvedNames ?? [],
    resolve: resolvers?.resolve,
    invoke: invokeWithSteps(resolvers?.invoke ?? (handler as ToolInvocation)),
  };
  const definition: Record<string, unknown> = {
    name,
    ...descriptiveFields(config, ["title", "description"]),
    inputSchema: advertisedInputSchema,
    ...(output === undefined ? {} : { outputSchema: output.jsonSchema }),
    ...descriptiveFields(config, ["annotations", "icons", "_meta"]),
  };
  const requiredScopes = checkRequiredScopes(config.requiredScopes, `tool "${name}"`);
  return {
    definition: deepFreeze(definition) as Tool,
    requiredScopes,
    singleUse: config.singleUse === true,
    task: config.task,
    call: (args, ctx, tasks) => {
      requireScopes(ctx.auth, requiredScopes);
      if (config.task === undefined && requestedTaskOf(ctx) !== undefined) {
        throw McpError.of(
          "METHOD_NOT_FOUND",
          `Tool '${name}' does not run as a task; call it without params.task`,
        );
      }
      if (config.task === undefined || tasks === undefined) return runToolNow(pipeline, args, ctx);
      return runToolTask(pipeline, config.task, args, ctx, tasks);
    },
  };
}

/** A tool's body run through its call's step session (see `runHandler`). */
function invokeWithSteps(invoke: ToolInvocation): ToolInvocation {
  return (args, ctx) => runHandler(invoke, args, ctx);
}
