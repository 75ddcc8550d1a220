/**
 * The command's tasks: `tsmcp call --task` (the call may run as a task; its status and status
 * messages go to stderr while it is polled, then the result prints as `call` prints it) and
 * `tsmcp task get|result|cancel|list`. Questions a task asks are answered the way `call` answers
 * them. Tasks created here are remembered per target and identity (see `task-memory.ts`) for
 * `task list` on a 2026-07-28 server, which has no `tasks/list`.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md);
 * (2025-11-25) https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import { type Client, type ToolTask, UnknownTaskError } from "tsmcp/client";
import type { DetailedTask, Task } from "tsmcp/types";
import { completeArguments, type Output, print, printJson, withProgress } from "./commands.js";
import { note } from "./connect.js";
import { renderToolResult } from "./render.js";
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK, parseTarget } from "./target.js";
import { forgetTasks, rememberedTasks, rememberTask, type TaskScope } from "./task-memory.js";

/** Pages of `tasks/list` read at most. */
const MAX_TASK_PAGES = 100;

/** Where a command's tasks are remembered and followed: the target as typed, and the identity's digest. */
export interface TaskPlace {
  readonly target: string;
  readonly identity: string;
}

/** The key a target's tasks are remembered under: the URL as parsed, or the command line as typed. */
export function targetKey(target: string): string {
  const parsed = parseTarget(target);
  return parsed.kind === "url" ? parsed.url.href : parsed.line;
}

/** The scope of the memory for `place`. */
function scopeOf(place: TaskPlace): TaskScope {
  return { target: targetKey(place.target), identity: place.identity };
}

/** `task <id>: <status> · <message>`. */
function statusLine(taskId: string, task: Pick<Task, "status" | "statusMessage">): string {
  return `task ${taskId}: ${task.status}${task.statusMessage === undefined ? "" : ` · ${task.statusMessage}`}`;
}

/** How to pick up `task` again, or stop it, when the command stops before it ends. */
function resumeHint(task: ToolTask, taskId: string, target: string): string {
  const quoted = JSON.stringify(target);
  return `task ${taskId} is still ${task.status}: follow it with tsmcp task result ${quoted} ${taskId}, or stop it with tsmcp task cancel ${quoted} ${taskId}`;
}

/**
 * Follows `task` to its end, its status changes on stderr, and prints its result as `call` does.
 * When it stops before the task ends (an unanswered question, a failed poll), says how to resume.
 * Ctrl-C (SIGINT) stops following (the task goes on), says how to resume, and ends with
 * {@link EXIT_INTERRUPTED}; a second one ends the process at once.
 */
async function follow(task: ToolTask, target: string, output: Output): Promise<number> {
  const { taskId } = task;
  const interrupt = new AbortController();
  const onInterrupt = () => {
    if (interrupt.signal.aborted) process.exit(EXIT_INTERRUPTED);
    interrupt.abort(new Error("interrupted"));
  };
  if (taskId !== undefined) {
    // Listening before the task id is shown: a Ctrl-C once it shows is always caught.
    process.on("SIGINT", onInterrupt);
    note(statusLine(taskId, task));
    task.onStatus((update) => note(statusLine(taskId, update)));
  }
  try {
    const result = await task.result({ signal: interrupt.signal });
    const [unanswered] = output.unanswered;
    if (unanswered !== undefined) throw unanswered;
    output.json ? printJson(result) : print(renderToolResult(result));
    return result.isError === true ? EXIT_FAILURE : EXIT_OK;
  } catch (error) {
    const unfinished = task.status === "working" || task.status === "input_required";
    if (taskId !== undefined && interrupt.signal.aborted) {
      const message = unfinished ? `interrupted: ${resumeHint(task, taskId, target)}` : "interrupted";
      note(message);
      if (output.json)
        printJson({ error: { code: "Interrupted", message, data: { taskId, status: task.status } } });
      return EXIT_INTERRUPTED;
    }
    if (taskId !== undefined && unfinished) note(resumeHint(task, taskId, target));
    throw error;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

/** `tsmcp call --task`: calls the tool allowing a task, remembers the task, follows it. */
export async function callAsTask(
  client: Client,
  place: TaskPlace,
  tool: string,
  pairs: readonly string[],
  argsJson: string | undefined,
  output: Output,
): Promise<number> {
  const args = await completeArguments(client, tool, pairs, argsJson, output);
  const task = await withProgress(output, (options) =>
    client.callTool(tool, args, { ...options, task: true }),
  );
  if (task.taskId !== undefined) {
    try {
      rememberTask(scopeOf(place), { taskId: task.taskId, tool, createdAt: new Date().toISOString() });
    } catch (error) {
      // The call goes on: only task list misses it.
      note(
        `warning: task ${task.taskId} is not remembered for tsmcp task list: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return follow(task, place.target, output);
}

/** The lines of one task for people. */
function renderTask(task: DetailedTask): string {
  const lines = [statusLine(task.taskId, task)];
  const ttl = task.ttlMs === null ? "unlimited" : `${task.ttlMs} ms`;
  const poll = task.pollIntervalMs === undefined ? "" : `, poll every ${task.pollIntervalMs} ms`;
  lines.push(`created ${task.createdAt}, updated ${task.lastUpdatedAt}, kept ${ttl}${poll}`);
  const keys = Object.keys(task.inputRequests ?? {});
  if (keys.length > 0) lines.push(`waiting for input: ${keys.join(", ")} (answer with tsmcp task result)`);
  if (task.error !== undefined) lines.push(`error ${task.error.code}: ${task.error.message}`);
  if (task.result !== undefined)
    lines.push(renderToolResult(task.result as Parameters<typeof renderToolResult>[0]));
  return lines.join("\n");
}

/** `tsmcp task get <target> <id>`: the task as the server describes it now. */
export async function taskGet(client: Client, taskId: string, output: Output): Promise<number> {
  const task = await client.session.getTask(taskId);
  output.json ? printJson(task) : print(renderTask(task));
  return EXIT_OK;
}

/** `tsmcp task result <target> <id>`: waits for the task's end (answering its questions) and prints its result. */
export async function taskResult(
  client: Client,
  target: string,
  taskId: string,
  output: Output,
): Promise<number> {
  return follow(await client.task(taskId), target, output);
}

/** The task without its payload (`inputRequests`, `result`, `error`): what a listing shows. */
function withoutPayload(task: DetailedTask): Task {
  const { inputRequests: _i, result: _r, error: _e, ...rest } = task;
  return rest;
}

const ENDED: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/** Prints what became of a task asked to cancel: its status now, and whether it was cancelled. */
function printCancelled(taskId: string, task: Task | undefined, output: Output): number {
  const cancelled = task?.status === "cancelled";
  if (output.json) {
    printJson({ taskId, cancelled, ...(task === undefined ? {} : { task }) });
    return EXIT_OK;
  }
  if (task === undefined) {
    print(`task ${taskId}: cancellation requested (the server no longer knows the task)`);
  } else if (cancelled) {
    print(statusLine(taskId, task));
  } else if (ENDED.has(task.status)) {
    print(`${statusLine(taskId, task)} (it had already ended: not cancelled)`);
  } else {
    print(
      `${statusLine(taskId, task)} (cancellation requested: the server may still finish it; tsmcp task get shows its status)`,
    );
  }
  return EXIT_OK;
}

/**
 * `tsmcp task cancel <target> <id>`: asks the server to cancel the task and prints the status it
 * then has. At 2026-07-28 the server acknowledges every cancel (also of a task that ended), so a
 * `tasks/get` follows; on a 2025-11-25 session the answer is the cancelled task, and a task that
 * already ended answers -32602, told apart from an unknown one by a `tasks/get`.
 */
export async function taskCancel(client: Client, taskId: string, output: Output): Promise<number> {
  let answered: Task | undefined;
  try {
    answered = await client.session.cancelTask(taskId);
  } catch (error) {
    if (!(error instanceof UnknownTaskError) || client.era !== "legacy") throw error;
    const now = await client.session.getTask(taskId).catch(() => undefined);
    if (now === undefined || !ENDED.has(now.status)) throw error;
    return printCancelled(taskId, withoutPayload(now), output);
  }
  if (answered !== undefined) return printCancelled(taskId, answered, output);
  let now: Task | undefined;
  try {
    now = withoutPayload(await client.session.getTask(taskId));
  } catch (error) {
    if (!(error instanceof UnknownTaskError)) throw error;
  }
  return printCancelled(taskId, now, output);
}

/** A 2025-11-25 server's `tasks/list`, every page (at most {@link MAX_TASK_PAGES}). */
async function listedTasks(client: Client, output: Output): Promise<number> {
  const tasks: Task[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TASK_PAGES; page++) {
    const listed = await client.session.listTasks(cursor === undefined ? {} : { cursor });
    tasks.push(...listed.tasks);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  if (output.json) printJson({ tasks });
  else
    print(tasks.length === 0 ? "(no tasks)" : tasks.map((task) => statusLine(task.taskId, task)).join("\n"));
  return EXIT_OK;
}

/**
 * `tsmcp task list <target>`: a 2025-11-25 server's `tasks/list` (every page); at 2026-07-28, and
 * on a 2025-11-25 server whose capabilities offer no `tasks.list`, the tasks this command created
 * for the target under the same identity, each with its status now (one the server no longer knows
 * is shown as gone and forgotten). A 2025-11-25 server that offers no tasks is not asked at all.
 * Spec (2025-11-25): basic/utilities/tasks §Capabilities.
 */
export async function taskList(client: Client, place: TaskPlace, output: Output): Promise<number> {
  if (client.era === "legacy") {
    const offered = client.serverCapabilities?.tasks as { list?: unknown } | undefined;
    if (typeof offered !== "object" || offered === null) {
      output.json ? printJson({ tasks: [] }) : print("this server offers no tasks");
      return EXIT_OK;
    }
    if (offered.list !== undefined) return listedTasks(client, output);
    note("this server offers no tasks/list (its capabilities leave it out): the tasks created from here");
  }
  const scope = scopeOf(place);
  const remembered = rememberedTasks(scope);
  const gone = new Set<string>();
  const rows: { taskId: string; tool: string; createdAt: string; task?: Task; gone?: true }[] = [];
  for (const entry of remembered) {
    try {
      rows.push({ ...entry, task: withoutPayload(await client.session.getTask(entry.taskId)) });
    } catch (error) {
      if (!(error instanceof UnknownTaskError)) throw error;
      gone.add(entry.taskId);
      rows.push({ ...entry, gone: true });
    }
  }
  forgetTasks(scope, gone);
  if (output.json) {
    printJson({ tasks: rows });
    return EXIT_OK;
  }
  if (rows.length === 0) {
    print("(no tasks created from here for this target)");
    return EXIT_OK;
  }
  const lines = rows.map((row) =>
    row.task === undefined
      ? `task ${row.taskId}: gone · the server no longer knows it (forgotten) · ${row.tool}`
      : `${statusLine(row.taskId, row.task)} · ${row.tool}`,
  );
  print(lines.join("\n"));
  return EXIT_OK;
}
