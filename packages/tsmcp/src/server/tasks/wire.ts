/**
 * The tasks extension's wire at 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663), apart from
 * the engine: when a request may be answered with a task (it declared the extension), the -32021 of
 * one that did not, and the shapes a task record takes on the wire (`CreateTaskResult`, the
 * `DetailedTask` of `tasks/get` and `notifications/tasks`). Never a `requestState` on either.
 * Under 2025-11-25 (a handshake-era session) the extension does not apply.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import { McpError } from "../../protocol/errors.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import {
  type CreateTaskResult,
  type DetailedTask,
  TASKS_EXTENSION,
  type Task,
} from "../../protocol/schema/tasks.js";
import type { RequestContext } from "../context.js";
import { extensionCapability, missingCapability, type RequiredCapability } from "../required-capability.js";
import type { TaskSnapshot } from "./fanout.js";
import { requestedTaskOf } from "./legacy-scope.js";

/** The tasks extension, as a capability a request must declare (-32021 names it in `requiredCapabilities.extensions`). */
export const TASKS_CAPABILITY: RequiredCapability = extensionCapability(TASKS_EXTENSION);

/** True when `capabilities` declare the tasks extension. */
export function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities !== undefined && TASKS_CAPABILITY.isDeclared(capabilities);
}

/**
 * True when the request may be answered with a `CreateTaskResult`: a 2026-07-28 request (no
 * handshake-era session) that declared the tasks extension in its own `clientCapabilities`, or on a
 * 2025-11-25 session a `tools/call` with `params.task` to a server that serves tasks.
 */
export function acceptsTaskResult(ctx: RequestContext): boolean {
  if (ctx.session !== undefined) return requestedTaskOf(ctx) !== undefined;
  return declaresTasks(ctx.clientCapabilities);
}

/**
 * The error of a request that can only be served as a task but may not be answered with one: -32021
 * with `data.requiredCapabilities.extensions["io.modelcontextprotocol/tasks"]`, `what` naming what
 * needs it (`tool 'x'`, `tasks/get`). On a handshake-era session, -32601 (the 2025-11-25 answer to a
 * required-task tool called without a task).
 */
export function taskRequiredError(ctx: RequestContext, what: string): McpError {
  if (ctx.session !== undefined) {
    return McpError.of(
      "METHOD_NOT_FOUND",
      `${what} can only run as a task, and this session did not ask for one`,
    );
  }
  return missingCapability(TASKS_CAPABILITY, what);
}

/** ISO 8601 of epoch milliseconds. */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The `Task` fields of a task (never `requestState`, nor anything the engine keeps for itself). */
export function toTask(task: TaskSnapshot): Task {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: iso(task.createdAtMs),
    lastUpdatedAt: iso(task.lastUpdatedAtMs),
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs === undefined ? {} : { pollIntervalMs: task.pollIntervalMs }),
  };
}

/**
 * The `DetailedTask` of `tasks/get` and `notifications/tasks`: the `Task` with its status's payload
 * (`inputRequests` while `input_required`, `result` once `completed`, `error` once `failed`). The
 * `result` is what the request would have answered at 2026-07-28, so it carries
 * `resultType: "complete"` (required on every result there) unless the stored result names its own.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task
 * Execution Errors: `tasks/get` returns exactly what the underlying request would have returned).
 */
export function toDetailedTask(task: TaskSnapshot): DetailedTask {
  const detailed: DetailedTask = toTask(task);
  if (task.status === "input_required" && task.inputRequests !== undefined) {
    detailed.inputRequests = structuredClone(task.inputRequests) as DetailedTask["inputRequests"];
  }
  if (task.status === "completed" && task.result !== undefined) {
    detailed.result = { resultType: "complete", ...structuredClone(task.result) };
  }
  if (task.status === "failed" && task.error !== undefined) {
    detailed.error = {
      code: task.error.code,
      message: task.error.message,
      ...(task.error.data === undefined ? {} : { data: structuredClone(task.error.data) }),
    } as DetailedTask["error"];
  }
  return detailed;
}

/** The `CreateTaskResult` of a created task: the `Task`, flat, with `resultType: "task"`. */
export function toCreateTaskResult(task: TaskSnapshot): CreateTaskResult {
  return { resultType: "task", ...toTask(task) };
}
