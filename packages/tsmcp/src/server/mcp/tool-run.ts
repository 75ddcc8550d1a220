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
  | { readonly args: unknown; readonly resolved: { readonly values: unknown } | undefined };

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
  checkParamHeaders(pipeline, rawArgs, ctx);
  const checked = await pipeline.input.validate(withoutResolvedNames(rawArgs ?? {}, pipeline.resolvedNames));
  if (!checked.ok) {
    return {
      answer: toolError(`Invalid arguments for tool ${pipeline.name}: ${describeIssues(checked.issues)}`),
    };
  }
  if (pipeline.resolve === undefined) return { args: checked.value, resolved: undefined };
  try {
    const outcome = await pipeline.resolve(checked.value, ctx);
    if (outcome.status === "input_required") return { answer: outcome.result };
    return { args: checked.value, resolved: { values: outcome.values } };
  } catch (error) {
    if (error instanceof McpError) throw error;
    return { answer: toolError(messageOf(error)) };
  }
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
  let value: unknown;
  try {
    value = await pipeline.invoke(args, ctx);
  } catch (error) {
    if (error instanceof McpError) throw error;
    return toolError(messageOf(error));
  }
  return pipeline.output === undefined
    ? toCallToolResult(value, pipeline.name)
    : toStructuredToolResult(value, pipeline.name, pipeline.output);
}

/** Runs one call through a pipeline: {@link prepareCall}, then {@link invokeBody} unless it answered. */
export async function runTool(
  pipeline: ToolPipeline,
  rawArgs: unknown,
  ctx: Context,
): Promise<CallToolResult | InputRequiredResult> {
  const prepared = await prepareCall(pipeline, rawArgs, ctx);
  if ("answer" in prepared) return prepared.answer;
  const bodyCtx = prepared.resolved === undefined ? ctx : withResolved(ctx, prepared.resolved.values);
  return await invokeBody(pipeline, prepared.args, bodyCtx);
}
