/**
 * The 2025-11-25 revision's core tasks on the wire (handshake-era sessions; not the 2026-07-28
 * extension): the server's `capabilities.tasks`, the `Task` with `ttl` and `pollInterval`
 * (milliseconds), `CreateTaskResult { task }`, and the `io.modelcontextprotocol/related-task`
 * `_meta` of `tasks/result` and of a task's server -> client requests. A tool call whose result has
 * `isError: true` shows as `failed` in that revision, its result still what `tasks/result` answers.
 * Spec (2025-11-25): https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import { type LegacyTask, RELATED_TASK_META } from "../../protocol/schema/tasks-legacy.js";
import { MAX_QUOTED_LENGTH, truncate } from "../../protocol/text.js";
import type { WireResult } from "../middleware.js";
import type { TaskSnapshot } from "./fanout.js";

/** The status message of a tool call task whose result is an error result, when it set none. */
export const TOOL_ERROR_STATUS_MESSAGE = "The tool call returned an error result";

/**
 * The `capabilities.tasks` of a server that runs `tools/call` as tasks: `tasks/cancel`, and
 * `tasks/list` when `list` (a server that cannot tell requestors apart does not offer it).
 * Spec (2025-11-25): basic/utilities/tasks §Server Capabilities, §Security Considerations.
 */
export function legacyTasksCapability(list: boolean): Record<string, unknown> {
  return { ...(list ? { list: {} } : {}), cancel: {}, requests: { tools: { call: {} } } };
}

/** ISO 8601 of epoch milliseconds. */
function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The text of the first text block of a tool result, if any. */
function firstText(result: Readonly<Record<string, unknown>>): string | undefined {
  const content = result.content;
  if (!Array.isArray(content)) return undefined;
  const block = content.find(
    (item): item is { type: "text"; text: string } =>
      typeof item === "object" && item !== null && item.type === "text" && typeof item.text === "string",
  );
  return block === undefined ? undefined : truncate(block.text, MAX_QUOTED_LENGTH);
}

/**
 * The 2025-11-25 `Task` of a task: `ttl` and `pollInterval` in milliseconds, and a completed tool
 * call whose result has `isError: true` as `failed` (its message the result's first text when the
 * task set none).
 */
export function toLegacyTask(task: TaskSnapshot): LegacyTask {
  const toolError = task.status === "completed" && task.result?.isError === true;
  const statusMessage = toolError
    ? (task.statusMessage ?? firstText(task.result ?? {}) ?? TOOL_ERROR_STATUS_MESSAGE)
    : task.statusMessage;
  return {
    taskId: task.taskId,
    status: toolError ? "failed" : task.status,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt: iso(task.createdAtMs),
    lastUpdatedAt: iso(task.lastUpdatedAtMs),
    ttl: task.ttlMs,
    ...(task.pollIntervalMs === undefined ? {} : { pollInterval: task.pollIntervalMs }),
  };
}

/**
 * The 2025-11-25 `CreateTaskResult` of the extension's flat one (`resultType: "task"` with the
 * task's fields): the task nested under `task`, `ttlMs` and `pollIntervalMs` as `ttl` and
 * `pollInterval`; its `_meta` kept.
 */
export function toLegacyCreateTaskResult(result: WireResult): WireResult {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, _meta } = result;
  const task: Record<string, unknown> = { taskId, status };
  if (statusMessage !== undefined) task.statusMessage = statusMessage;
  Object.assign(task, { createdAt, lastUpdatedAt, ttl: ttlMs ?? null });
  if (pollIntervalMs !== undefined) task.pollInterval = pollIntervalMs;
  return _meta === undefined ? { task } : { task, _meta };
}

/** True for the extension's flat `CreateTaskResult` (what a task tool answers). */
export function isCreateTaskResult(result: WireResult): boolean {
  return result.resultType === "task" && typeof result.taskId === "string";
}

/** `value` with `_meta["io.modelcontextprotocol/related-task"] = { taskId }` (a new object). */
export function withRelatedTask<T extends Readonly<Record<string, unknown>>>(
  value: T,
  taskId: string,
): T & { _meta: Record<string, unknown> } {
  const meta = typeof value._meta === "object" && value._meta !== null ? value._meta : {};
  return { ...value, _meta: { ...meta, [RELATED_TASK_META]: { taskId } } };
}
