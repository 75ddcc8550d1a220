/**
 * The task methods on the wire, in both eras, and their answers in one shape. At 2026-07-28 (the
 * tasks extension) each request declares the extension in its per-request capabilities:
 * `tasks/get`, `tasks/update`, `tasks/cancel`, and `tools/call` answered with a flat
 * `CreateTaskResult`. On a 2025-11-25 session (the revision's core tasks) `tools/call` carries
 * `params.task`, the answer nests the task under `task`, `tasks/result` collects the result and
 * `tasks/list` pages the caller's tasks; the 2025 `ttl` and `pollInterval` are read as `ttlMs` and
 * `pollIntervalMs`. A -32602 answer on a task method becomes `UnknownTaskError`.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md);
 * (2025-11-25) https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import type * as z from "zod";
import { ERRORS, McpError } from "../protocol/errors.js";
import type { CallToolResult } from "../protocol/schema/methods.js";
import { CallToolResultSchema } from "../protocol/schema/methods.js";
import {
  type CreateTaskResult,
  CreateTaskResultSchema,
  type DetailedTask,
  GetTaskResultSchema,
  TASKS_EXTENSION,
  type Task,
} from "../protocol/schema/tasks.js";
import {
  LegacyCreateTaskResultSchema,
  LegacyGetTaskResultSchema,
  LegacyListTasksResultSchema,
  taskFromLegacy,
} from "../protocol/schema/tasks-legacy.js";
import type { SessionEra } from "./era.js";
import { InvalidServerResponseError, MethodNotInEraError, UnknownTaskError } from "./errors.js";
import type { RequestOptions } from "./session-options.js";

/** How a task request travels: the session's send, told whether to declare the extension. */
export interface TaskWire {
  readonly era: SessionEra;
  readonly protocolVersion: string;
  /** Sends one request (at 2026-07-28 with the tasks extension declared) and resolves its raw result. */
  send(
    method: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): Promise<Record<string, unknown>>;
}

/** A page of `tasks/list` (2025-11-25 only), its tasks under the extension's field names. */
export interface TaskListPage {
  readonly tasks: Task[];
  readonly nextCursor?: string | undefined;
}

/** The parsed `result`, or an `InvalidServerResponseError` naming `method` and the first issue. */
export function parseAnswer<S extends z.ZodType>(schema: S, method: string, result: unknown): z.infer<S> {
  const parsed = schema.safeParse(result);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidServerResponseError(
    `${method}: the result does not match the protocol (${issue ? `${issue.path.join(".")}: ${issue.message}` : "invalid"})`,
  );
}

/** Runs a task method; a -32602 answer becomes {@link UnknownTaskError}. */
async function taskRequest(
  wire: TaskWire,
  method: string,
  params: Record<string, unknown> & { taskId: string },
  options: RequestOptions,
): Promise<Record<string, unknown>> {
  try {
    return await wire.send(method, params, options);
  } catch (error) {
    if (error instanceof McpError && error.code === ERRORS.INVALID_PARAMS.code) {
      throw new UnknownTaskError(params.taskId, method, { cause: error });
    }
    throw error;
  }
}

/**
 * `tasks/get`: the task with its status's payload (`inputRequests`, `result`, `error`; at
 * 2025-11-25 only the task, the result comes from `tasks/result`).
 *
 * @throws UnknownTaskError for -32602; McpError; InvalidServerResponseError.
 */
export async function getTask(
  wire: TaskWire,
  taskId: string,
  options: RequestOptions,
): Promise<DetailedTask> {
  const raw = await taskRequest(wire, "tasks/get", { taskId }, options);
  if (wire.era === "legacy") return taskFromLegacy(parseAnswer(LegacyGetTaskResultSchema, "tasks/get", raw));
  const { resultType: _complete, _meta: _m, ...task } = parseAnswer(GetTaskResultSchema, "tasks/get", raw);
  return task;
}

/**
 * `tasks/update` (2026-07-28): answers to outstanding `inputRequests`, by key.
 *
 * @throws MethodNotInEraError on a 2025-11-25 session (its tasks ask over the back-channel);
 *   UnknownTaskError for -32602; McpError.
 */
export async function updateTask(
  wire: TaskWire,
  taskId: string,
  inputResponses: Record<string, unknown>,
  options: RequestOptions,
): Promise<void> {
  if (wire.era === "legacy") {
    throw new MethodNotInEraError(
      "tasks/update",
      wire.protocolVersion,
      "a 2025-11-25 task asks over the session's back-channel while tasks/result waits",
    );
  }
  await taskRequest(wire, "tasks/update", { taskId, inputResponses }, options);
}

/**
 * `tasks/cancel`: asks the server to cancel the task. At 2026-07-28 an acknowledgement (the
 * status may change later); at 2025-11-25 the cancelled task (a terminal task is refused with
 * -32602, hence `UnknownTaskError`).
 *
 * @throws UnknownTaskError for -32602; McpError.
 */
export async function cancelTask(
  wire: TaskWire,
  taskId: string,
  options: RequestOptions,
): Promise<Task | undefined> {
  const raw = await taskRequest(wire, "tasks/cancel", { taskId }, options);
  if (wire.era !== "legacy") return undefined;
  const parsed = LegacyGetTaskResultSchema.safeParse(raw);
  return parsed.success ? taskFromLegacy(parsed.data) : undefined;
}

/**
 * `tasks/list` (2025-11-25): one page of the caller's tasks.
 *
 * @throws MethodNotInEraError at 2026-07-28 (the extension has no `tasks/list`); McpError.
 */
export async function listTasks(
  wire: TaskWire,
  cursor: string | undefined,
  options: RequestOptions,
): Promise<TaskListPage> {
  if (wire.era !== "legacy") {
    throw new MethodNotInEraError(
      "tasks/list",
      wire.protocolVersion,
      "the tasks extension has no tasks/list; keep the ids of the tasks you create",
    );
  }
  const raw = await wire.send("tasks/list", cursor === undefined ? {} : { cursor }, options);
  const page = parseAnswer(LegacyListTasksResultSchema, "tasks/list", raw);
  return {
    tasks: page.tasks.map(taskFromLegacy),
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}

/**
 * `tasks/result` (2025-11-25): waits for the task to end and answers what the `tools/call` would
 * have: its result, or its error (thrown as `McpError`).
 *
 * @throws MethodNotInEraError at 2026-07-28 (the result is inlined in `tasks/get`);
 *   UnknownTaskError for -32602; McpError (the task's own error).
 */
export async function taskResult(
  wire: TaskWire,
  taskId: string,
  options: RequestOptions,
): Promise<CallToolResult> {
  if (wire.era !== "legacy") {
    throw new MethodNotInEraError(
      "tasks/result",
      wire.protocolVersion,
      "the tasks extension inlines the result in tasks/get",
    );
  }
  const raw = await taskRequest(wire, "tasks/result", { taskId }, options);
  return parseAnswer(CallToolResultSchema, "tasks/result", raw);
}

/**
 * A `tools/call` answer that may be a task: the `CreateTaskResult` (flat, the 2025 nesting
 * undone), or undefined when the answer is something else (a result, an `InputRequiredResult`).
 *
 * @throws InvalidServerResponseError for a malformed task answer.
 */
export function createdTaskOf(era: SessionEra, raw: Record<string, unknown>): CreateTaskResult | undefined {
  if (era === "legacy") {
    if (raw.task === undefined) return undefined;
    const { task } = parseAnswer(LegacyCreateTaskResultSchema, "tools/call", raw);
    return { ...taskFromLegacy(task), resultType: "task" };
  }
  if (raw.resultType !== "task") return undefined;
  return parseAnswer(CreateTaskResultSchema, "tools/call", raw);
}

/** The capabilities of a 2026-07-28 request that declares the tasks extension, over `capabilities`. */
export function withTasksExtension<C extends { extensions?: Record<string, unknown> | undefined }>(
  capabilities: C,
): C {
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
}

/**
 * True for the -32021 refusal of a server that runs this call only as a task
 * (`data.requiredCapabilities.extensions` names the tasks extension).
 */
export function requiresTasks(error: unknown): boolean {
  if (!(error instanceof McpError) || error.code !== ERRORS.MISSING_REQUIRED_CLIENT_CAPABILITY.code)
    return false;
  const data = error.data as { requiredCapabilities?: { extensions?: unknown } } | undefined;
  const extensions = data?.requiredCapabilities?.extensions;
  return typeof extensions === "object" && extensions !== null && Object.hasOwn(extensions, TASKS_EXTENSION);
}
