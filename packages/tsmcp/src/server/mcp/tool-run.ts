/**
 * How one `tools/call` of an `MCPServer` tool runs: over HTTP, the `Mcp-Param-*` headers of the
 * arguments its schema annotates with `x-mcp-header` are checked, then the arguments validated, then
 * (for a tool with resolvers) one resolver round, then the body, whose return becomes the result.
 * Spec: server/tools, basic/transports/streamable-http §Custom Headers, basic/patterns/mrtr.
 */
import { McpError } from "../../protocol/errors.js";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import type { CallToolResult } from "../../protocol/schema/methods.js";
import { isModernProtocolVersion } from "../../protocol/versions.js";
import type { ParamHeader } from "../../protocol/x-mcp-header.js";
import { validateParamHeaders } from "../../transport/http/param-headers.js";
import { environmentOf } from "../context.js";
import type { ResolveOutcome } from "../resolve/input-required.js";
import type { CompiledSchema } from "../schema/compile.js";
import { describeIssues } from "../schema/issues.js";
import { type Context, withResolved } from "./context.js";
import { toCallToolResult, toolError, toStructuredToolResult } from "./results.js";
import { withoutResolvedNames } from "./tool-resolvers.js";

/** A step that runs between argument validation and the body (resolvers plug in here). */
export type ResolveStep = (args: unknown, ctx: Context) => Promise<ResolveOutcome>;

/**
 * The body as the runner calls it: validated arguments and the context (for a tool with
 * resolvers, one carrying `resolved`).
 */
export type ToolInvocation = (args: unknown, ctx: Context) => unknown;

/** The parts of one tool's pipeline, each prepared at registration. */
export interface ToolPipeline {
  readonly name: string;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  /**
   * The parameters the advertised input schema annotates with `x-mcp-header` (found once, at
   * registration); their `Mcp-Param-*` headers are checked first on HTTP.
   */
  readonly paramHeaders: readonly ParamHeader[];
  /** Argument names the client may not fill (resolved names): dropped before validation. */
  readonly resolvedNames: readonly string[];
  /** Runs after validation; absent for a tool whose body drives its own rounds. */
  readonly resolve: ResolveStep | undefined;
  readonly invoke: ToolInvocation;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Checks the `Mcp-Param-*` headers of a call that came over HTTP (the environment has headers) at
 * a revision that mirrors arguments into headers, against the raw arguments.
 *
 * @throws McpError -32020 HeaderMismatch (HTTP 400) on the first disagreement; see
 *   `validateParamHeaders`. Spec: basic/transports/streamable-http §Custom Headers.
 */
function checkParamHeaders(pipeline: ToolPipeline, rawArgs: unknown, ctx: Context): void {
  if (pipeline.paramHeaders.length === 0 || !isModernProtocolVersion(ctx.protocolVersion)) return;
  const headers = environmentOf(ctx).headers;
  if (headers === undefined) return;
  const error = validateParamHeaders(pipeline.paramHeaders, rawArgs, headers);
  if (error !== undefined) throw error;
}

/** What the steps before a tool's body decided: answer now, or run the body with these. */
export type PreparedCall =
  | { readonly answer: CallToolResult | InputRequiredResult }
  | {
      readonly args: unknown;
      readonly resolved: { readonly values: unknown; readonly state?: string | undefined } | undefined;
    };

/** True for a value `await` would wait on (a promise or another thenable). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/** The answer for invalid arguments, or the arguments to go on with. */
function checkedArgs(
  pipeline: ToolPipeline,
  checked: Awaited<ReturnType<CompiledSchema["validate"]>>,
): PreparedCall | { readonly valid: unknown } {
  if (!checked.ok) {
    return {
      answer: toolError(`Invalid arguments for tool ${pipeline.name}: ${describeIssues(checked.issues)}`),
    };
  }
  return { valid: checked.value };
}

/** The resolve step's decision on valid arguments. */
async function resolveCall(resolve: ResolveStep, args: unknown, ctx: Context): Promise<PreparedCall> {
  try {
    const outcome = await resolve(args, ctx);
    if (outcome.status === "input_required") return { answer: outcome.result };
    return { args, resolved: { values: outcome.values, state: outcome.requestState } };
  } catch (error) {
    if (error instanceof McpError) throw error;
    return { answer: toolError(messageOf(error)) };
  }
}

/** What validated (or refused) arguments lead to: an answer, or the body's arguments. */
function decide(
  pipeline: ToolPipeline,
  ctx: Context,
  checked: Awaited<ReturnType<CompiledSchema["validate"]>>,
): PreparedCall | Promise<PreparedCall> {
  const outcome = checkedArgs(pipeline, checked);
  if (!("valid" in outcome)) return outcome;
  if (pipeline.resolve === undefined) return { args: outcome.valid, resolved: undefined };
  return resolveCall(pipeline.resolve, outcome.valid, ctx);
}

/**
 * {@link prepareCall} without waiting when nothing needs to: a synchronous validation and no
 * resolve step decide at once. Throws what `prepareCall` rejects with.
 */
function prepare(
  pipeline: ToolPipeline,
  rawArgs: unknown,
  ctx: Context,
): PreparedCall | Promise<PreparedCall> {
  checkParamHeaders(pipeline, rawArgs, ctx);
  const validated = pipeline.input.validate(withoutResolvedNames(rawArgs ?? {}, pipeline.resolvedNames));
  if (!isThenable(validated)) return decide(pipeline, ctx, validated);
  return Promise.resolve(validated).then((checked) => decide(pipeline, ctx, checked));
}

/**
 * The steps of a call before its body: over HTTP, the `Mcp-Param-*` headers are checked against
 * the raw arguments (a disagreement throws -32020 before anything else runs); resolved names are
 * dropped from the arguments; invalid arguments answer an `isError` result naming the fields (at
 * most five, see `describeIssues`); a resolve step may answer (its `InputRequiredResult`, or an
 * `isError` result for a throw other than an `McpError`, which propagates).
 */
export async function prepareCall(
  pipeline: ToolPipeline,
  rawArgs: unknown,
  ctx: Context,
): Promise<PreparedCall> {
  return await prepare(pipeline, rawArgs, ctx);
}

/** The result of a body's return value (or of its failure: a thrown `McpError` propagates). */
function bodyResult(pipeline: ToolPipeline, value: unknown): ReturnType<typeof invoke> {
  return pipeline.output === undefined
    ? toCallToolResult(value, pipeline.name)
    : toStructuredToolResult(value, pipeline.name, pipeline.output);
}

function bodyFailure(error: unknown): CallToolResult {
  if (error instanceof McpError) throw error;
  return toolError(messageOf(error));
}

/** {@link invokeBody} without waiting on a body that returns synchronously. */
function invoke(
  pipeline: ToolPipeline,
  args: unknown,
  ctx: Context,
): CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult> {
  let value: unknown;
  try {
    value = pipeline.invoke(args, ctx);
  } catch (error) {
    return bodyFailure(error);
  }
  if (!isThenable(value)) return bodyResult(pipeline, value);
  return Promise.resolve(value).then((settled) => bodyResult(pipeline, settled), bodyFailure);
}

/**
 * Runs a call's body with the prepared arguments (and resolved values, on `ctx.resolved`): a thrown
 * `McpError` propagates; any other throw becomes an `isError` result with its message; the return
 * is shaped by the conventions.
 */
export async function invokeBody(
  pipeline: ToolPipeline,
  args: unknown,
  ctx: Context,
): Promise<CallToolResult | InputRequiredResult> {
  return await invoke(pipeline, args, ctx);
}

/**
 * Runs one call through a pipeline: {@link prepareCall}, then {@link invokeBody} unless it
 * answered. A call whose steps are all synchronous waits only once, here.
 */
export async function runTool(
  pipeline: ToolPipeline,
  rawArgs: unknown,
  ctx: Context,
): Promise<CallToolResult | InputRequiredResult> {
  return await runToolNow(pipeline, rawArgs, ctx);
}

/**
 * {@link runTool} without a promise when every step answers at once; throws what `runTool`
 * rejects with when it fails before anything waited.
 */
export function runToolNow(
  pipeline: ToolPipeline,
  rawArgs: unknown,
  ctx: Context,
): CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult> {
  const pending = prepare(pipeline, rawArgs, ctx);
  return isThenable(pending) ? runPreparedLater(pipeline, pending, ctx) : runPrepared(pipeline, pending, ctx);
}

async function runPreparedLater(
  pipeline: ToolPipeline,
  pending: PromiseLike<PreparedCall>,
  ctx: Context,
): Promise<CallToolResult | InputRequiredResult> {
  return await runPrepared(pipeline, await pending, ctx);
}

/** The prepared answer, or the body run with the prepared arguments. */
function runPrepared(
  pipeline: ToolPipeline,
  prepared: PreparedCall,
  ctx: Context,
): CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult> {
  if ("answer" in prepared) return prepared.answer;
  const bodyCtx =
    prepared.resolved === undefined
      ? ctx
      : withResolved(ctx, prepared.resolved.values, prepared.resolved.state);
  return invoke(pipeline, prepared.args, bodyCtx);
}
