/**
 * The 2025-11-25 revision's task methods on a handshake-era session, on the same engine as the
 * 2026-07-28 extension: `tasks/get` (the `Task`), `tasks/result` (see legacy-result), `tasks/list`
 * (a page of the caller's tasks, newest first) and `tasks/cancel` (the cancelled `Task`; -32602 on a
 * terminal one). A task unknown, expired or another owner's answers -32602 alike. Owner scope:
 * legacy-scope. Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import * as z from "zod";
import { invalidParams, methodNotFound } from "../../protocol/errors.js";
import type { Params } from "../../protocol/jsonrpc.js";
import { isTerminalTaskStatus } from "../../state/task-store.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import type { WireResult } from "../middleware.js";
import { describeIssue } from "../request-meta.js";
import { serveLegacyTaskResult } from "./legacy-result.js";
import { canListTasks, legacyTaskOwnerOf } from "./legacy-scope.js";
import { toLegacyTask } from "./legacy-wire.js";
import type { TaskManager } from "./manager.js";
import { unknownTask } from "./methods.js";

/** The task methods of a 2025-11-25 session. */
export const LEGACY_TASK_METHODS: ReadonlySet<string> = new Set([
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
]);

/** How many tasks one `tasks/list` page holds at most. */
export const LEGACY_TASK_PAGE_SIZE = 100;

const TaskIdParams = z.looseObject({ taskId: z.string() });
const ListParams = z.looseObject({ cursor: z.string().optional() });

/** `params` parsed by `schema`, or -32602 naming the field. */
function parse<T>(schema: z.ZodType<T>, params: Params | undefined): T {
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) throw invalidParams(`Invalid params: ${describeIssue(parsed.error.issues)}`);
  return parsed.data;
}

/**
 * Serves one of {@link LEGACY_TASK_METHODS} for the caller of `env` (its principal, else its
 * session).
 *
 * @throws McpError -32602 for invalid params or a task unknown, expired or another owner's, and
 *   for `tasks/cancel` of a terminal task; -32601 for `tasks/list` where requestors cannot be told
 *   apart (HTTP without a principal or a session id); what `tasks/result` throws; what the store
 *   throws.
 */
export async function serveLegacyTaskMethod(
  tasks: TaskManager,
  method: string,
  params: Params | undefined,
  env: RequestEnvironment,
): Promise<WireResult> {
  const owner = legacyTaskOwnerOf(env);
  switch (method) {
    case "tasks/get": {
      const task = await tasks.get(owner, parse(TaskIdParams, params).taskId);
      if (task === undefined) throw unknownTask();
      return toLegacyTask(task);
    }
    case "tasks/result":
      return await serveLegacyTaskResult(tasks, owner, parse(TaskIdParams, params).taskId, env);
    case "tasks/list": {
      if (!canListTasks(env)) throw methodNotFound(method);
      const { cursor } = parse(ListParams, params);
      const page = await tasks.list(owner, { cursor, limit: LEGACY_TASK_PAGE_SIZE });
      const listed: WireResult = { tasks: page.tasks.map(toLegacyTask) };
      if (page.nextCursor !== undefined) listed.nextCursor = page.nextCursor;
      return listed;
    }
    case "tasks/cancel": {
      const { taskId } = parse(TaskIdParams, params);
      const task = await tasks.get(owner, taskId);
      if (task === undefined) throw unknownTask();
      const shown = toLegacyTask(task);
      if (isTerminalTaskStatus(shown.status)) throw alreadyTerminal(shown.status);
      const after = await tasks.cancel(owner, taskId);
      if (after === undefined) throw unknownTask();
      const answered = toLegacyTask(after);
      if (answered.status !== "cancelled") throw alreadyTerminal(answered.status);
      return answered;
    }
    default:
      throw new TypeError(`serveLegacyTaskMethod: ${method} is not a 2025-11-25 tasks method`);
  }
}

/** The -32602 of `tasks/cancel` on a task already terminal. */
function alreadyTerminal(status: string): Error {
  return invalidParams(`Cannot cancel task: already in terminal status '${status}'`);
}
