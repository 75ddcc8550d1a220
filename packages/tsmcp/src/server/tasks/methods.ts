/**
 * The tasks extension's methods at 2026-07-28, as a `Server` serves them: `tasks/get` answers the
 * caller's task as a `DetailedTask`; `tasks/update` and `tasks/cancel` acknowledge with an empty
 * result (`resultType: "complete"` is added by result shaping), `tasks/cancel` also on a terminal
 * task. A task that is unknown, expired or another caller's answers -32602 alike. The request has
 * already been checked for the extension (-32021) and its params validated. Spec:
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Polling,
 * §Task Update Requests, §Task Cancellation, §Error Handling).
 */
import { invalidParams, type McpError } from "../../protocol/errors.js";
import type { TaskIdParams, UpdateTaskParams } from "../../protocol/schema/tasks.js";
import type { RequestContext } from "../context.js";
import type { WireResult } from "../middleware.js";
import type { TaskManager } from "./manager.js";
import { toDetailedTask } from "./wire.js";

/** The methods this module serves. */
export const TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** The -32602 of a task that is unknown, expired, or another caller's (indistinguishable). */
export function unknownTask(): McpError {
  return invalidParams("Failed to retrieve task: Task not found");
}

/**
 * Serves one of {@link TASK_METHODS} with validated `params` for the caller of `ctx`.
 *
 * @throws McpError -32602 {@link unknownTask}; what the store throws.
 */
export async function serveTaskMethod(
  tasks: TaskManager,
  method: string,
  ctx: RequestContext,
  params: Record<string, unknown>,
): Promise<WireResult> {
  const owner = tasks.ownerOf(ctx.auth);
  const { taskId } = params as TaskIdParams;
  switch (method) {
    case "tasks/get": {
      const task = await tasks.get(owner, taskId);
      if (task === undefined) throw unknownTask();
      return toDetailedTask(task);
    }
    case "tasks/update": {
      const task = await tasks.answer(owner, taskId, (params as UpdateTaskParams).inputResponses);
      if (task === undefined) throw unknownTask();
      return {};
    }
    case "tasks/cancel": {
      const task = await tasks.cancel(owner, taskId);
      if (task === undefined) throw unknownTask();
      return {};
    }
    default:
      throw new TypeError(`serveTaskMethod: ${method} is not a tasks method`);
  }
}
