/**
 * A tool declared with `task` (`"optional"` or `"required"`), called on an `MCPServer` that serves
 * the tasks extension. A request that did not declare the extension runs the tool as usual
 * (`"optional"`) or is refused with -32021 (`"required"`). One that did: the steps before the body
 * (headers, arguments, resolver rounds) run in the request, so multi round-trip rounds finish before
 * any task exists; then the task is created (durably), and only then does the body start in it, so
 * that a refused creation (the caller's task cap, a full or unreachable store) has no effect. If the
 * body answers an `InputRequiredResult` within the current turn of the event loop, before it first
 * waits on a timer or I/O (a hand-built round that decides at once), that is the answer and the task
 * is withdrawn unseen (it counted toward the caller's cap meanwhile). Otherwise the request is
 * answered with the `CreateTaskResult`, and the body runs on in the task: an `InputRequiredResult`
 * it answers later is fulfilled through the task's `inputRequests` and the body called again with
 * the answers. Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md
 * §Task Creation: MRTR exchanges SHOULD finish before the task is created).
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
import type { PendingTask } from "../tasks/pending.js";
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

/**
 * Resolves once the current turn of the event loop is over: its microtasks run, before any timer or
 * I/O callback (`setImmediate` where the runtime has it, a zero timeout elsewhere).
 */
function nextTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate === undefined ? setTimeout(resolve, 0) : immediate(resolve)));
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
 *   without the extension; what `PendingTask.create` throws (too many tasks, the store full), the
 *   body not having started; what the steps before the body throw.
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
  const record = await pending.create();
  const taskCtx = inTask(ctx, pending.context, pending.control);
  const bodyCtx = prepared.resolved === undefined ? taskCtx : withResolved(taskCtx, prepared.resolved.values);
  const body = invokeBody(pipeline, prepared.args, bodyCtx);
  const early = await earlyOutcome(body, pending.demanded);
  if (early?.ok === true && isInputRequiredResult(early.value)) {
    await pending.withdraw();
    return early.value;
  }
  pending.settle(body.then((first) => fulfilInTask(pipeline, prepared.args, bodyCtx, pending, first)));
  return toCreateTaskResult(record);
}
