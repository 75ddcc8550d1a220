/**
 * A tool declared with `task` (`"optional"` or `"required"`), called on an `MCPServer` that serves
 * the tasks extension. A request that did not declare the extension runs the tool as usual
 * (`"optional"`) or is refused with -32021 (`"required"`). One that did: the steps before the body
 * (headers, arguments, resolver rounds) run in the request, so multi round-trip rounds finish before
 * any task exists; then the body starts under a task that is not created yet. If the body answers an
 * `InputRequiredResult` before it first waits on anything (a hand-built round), that is the answer
 * and no task is created. Otherwise the task is created (durably), the request is answered with the
 * `CreateTaskResult`, and the body runs on in the task: an `InputRequiredResult` it answers later is
 * fulfilled through the task's `inputRequests` and the body called again with the answers.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task
 * Creation: MRTR exchanges SHOULD finish before the task is created).
 */
import { McpError } from "../../protocol/errors.js";
import {
  type InputRequest,
  type InputRequiredResult,
  InputResponsesSchema,
} from "../../protocol/schema/input.js";
import type { CallToolResult } from "../../protocol/schema/methods.js";
import type { CreateTaskResult } from "../../protocol/schema/tasks.js";
import { requireInputRequestCapabilities } from "../capability-gate.js";
import { DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS } from "../legacy/input-required.js";
import { describeIssue } from "../request-meta.js";
import type { TaskManager } from "../tasks/manager.js";
import type { PendingTask } from "../tasks/run.js";
import { taskRequiredError, toCreateTaskResult } from "../tasks/wire.js";
import { type Context, inTask, withResolved, withRound } from "./context.js";
import { isInputRequiredResult } from "./results.js";
import { invokeBody, prepareCall, runTool, type ToolPipeline } from "./tool-run.js";

/** Whether a tool runs as a task: when the client allows it (`"optional"`), or only so (`"required"`). */
export type ToolTaskSupport = "optional" | "required";

/** The most `InputRequiredResult`s a task's body may answer in a row, each fulfilled through the task. */
export const MAX_TASK_INPUT_ROUNDS = DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS;

/** How the body's first call went before the task had to exist; undefined when it had not settled. */
type Early =
  | { readonly ok: true; readonly value: CallToolResult | InputRequiredResult }
  | { readonly ok: false; readonly error: unknown }
  | undefined;

/** Resolves after the current turn of the event loop (and its microtasks) is over. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * How `body` went by the end of the current turn, or by the time the body asked the client
 * something (`demanded`): settled, or undefined.
 */
function earlyOutcome(
  body: Promise<CallToolResult | InputRequiredResult>,
  demanded: Promise<void>,
): Promise<Early> {
  return Promise.race<Early>([
    body.then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error }),
    ),
    demanded.then(() => undefined),
    nextTurn().then(() => undefined),
  ]);
}

/**
 * The body's result once every `InputRequiredResult` it answers inside the task is fulfilled: its
 * `inputRequests` become the task's (the client must have declared each kind), and the body is
 * called again with the answers and its plaintext `requestState`.
 *
 * @throws McpError -32021 for input the client cannot give; -32603 past {@link MAX_TASK_INPUT_ROUNDS}.
 */
async function fulfilInTask(
  pipeline: ToolPipeline,
  args: unknown,
  ctx: Context,
  pending: PendingTask,
  first: CallToolResult | InputRequiredResult,
): Promise<CallToolResult> {
  let result = first;
  for (let rounds = 0; isInputRequiredResult(result); rounds++) {
    if (rounds >= MAX_TASK_INPUT_ROUNDS) {
      throw McpError.of(
        "INTERNAL_ERROR",
        `Tool ${pipeline.name} asked for input ${MAX_TASK_INPUT_ROUNDS} times in a row in one task`,
      );
    }
    const requests = (result.inputRequests ?? {}) as Record<string, InputRequest>;
    requireInputRequestCapabilities(requests, ctx.clientCapabilities);
    const answers = Object.keys(requests).length === 0 ? {} : await pending.ask(requests);
    const inputResponses = InputResponsesSchema.safeParse(answers);
    if (!inputResponses.success) {
      throw McpError.of(
        "INVALID_PARAMS",
        `Invalid params: inputResponses.${describeIssue(inputResponses.error.issues)}`,
      );
    }
    result = await invokeBody(
      pipeline,
      args,
      withRound(ctx, { inputResponses: inputResponses.data, requestState: result.requestState }),
    );
  }
  return result;
}

/**
 * Runs one call of a tool declared with `task` (see the module's summary).
 *
 * @throws McpError -32021 (`requiredCapabilities.extensions`) for a `"required"` tool called
 *   without the extension; what `PendingTask.create` throws (too many tasks, the store full); what
 *   the steps before the body throw.
 */
export async function runToolTask(
  pipeline: ToolPipeline,
  support: ToolTaskSupport,
  rawArgs: unknown,
  ctx: Context,
  tasks: TaskManager,
): Promise<CallToolResult | InputRequiredResult | CreateTaskResult> {
  if (!tasks.accepts(ctx)) {
    if (support === "required") throw taskRequiredError(ctx, `tool '${pipeline.name}'`);
    return await runTool(pipeline, rawArgs, ctx);
  }
  const prepared = await prepareCall(pipeline, rawArgs, ctx);
  if ("answer" in prepared) return prepared.answer;
  const pending = tasks.begin(ctx, { request: { method: "tools/call", name: pipeline.name } });
  const taskCtx = inTask(ctx, pending.context, pending.control);
  const bodyCtx = prepared.resolved === undefined ? taskCtx : withResolved(taskCtx, prepared.resolved.values);
  const body = invokeBody(pipeline, prepared.args, bodyCtx);
  const early = await earlyOutcome(body, pending.demanded);
  if (early?.ok === true && isInputRequiredResult(early.value)) {
    pending.discard();
    return early.value;
  }
  const record = await pending.create();
  pending.settle(body.then((first) => fulfilInTask(pipeline, prepared.args, bodyCtx, pending, first)));
  return toCreateTaskResult(record);
}
