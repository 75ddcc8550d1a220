/**
 * The tasks the command created, remembered per target so that `tsmcp task list` can show them
 * where the server has no `tasks/list` (the 2026-07-28 tasks extension has none; its spec has
 * clients keep task ids so they can resume after a restart). One JSON file, `tasks.json`, in the
 * state directory: `$TSMCP_STATE_DIR`, else `$XDG_STATE_HOME/tsmcp`, else `~/.local/state/tsmcp`;
 * owner-only (0600 in a 0700 directory), written whole to a temporary file and renamed over the
 * old one. At most {@link MAX_REMEMBERED_PER_TARGET} ids per target, the oldest forgotten first.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Polling).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The environment variable naming the state directory (over XDG). */
export const STATE_DIR_ENV = "TSMCP_STATE_DIR";

/** Task ids kept per target: 100. */
export const MAX_REMEMBERED_PER_TARGET = 100;

/** One task the command created. */
export interface RememberedTask {
  readonly taskId: string;
  /** The tool it runs. */
  readonly tool: string;
  /** When it was created here, ISO 8601. */
  readonly createdAt: string;
}

type Memory = Record<string, RememberedTask[]>;

/** The state directory: `$TSMCP_STATE_DIR`, else `$XDG_STATE_HOME/tsmcp`, else `~/.local/state/tsmcp`. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[STATE_DIR_ENV];
  if (explicit !== undefined && explicit !== "") return explicit;
  const xdg = env.XDG_STATE_HOME;
  if (xdg !== undefined && xdg !== "") return join(xdg, "tsmcp");
  return join(homedir(), ".local", "state", "tsmcp");
}

function file(dir: string): string {
  return join(dir, "tasks.json");
}

/** What the file holds; an absent or unreadable file holds nothing. */
function load(dir: string): Memory {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file(dir), "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const memory: Memory = {};
    for (const [target, tasks] of Object.entries(parsed)) {
      if (!Array.isArray(tasks)) continue;
      memory[target] = tasks.filter(
        (task): task is RememberedTask =>
          typeof task?.taskId === "string" &&
          typeof task.tool === "string" &&
          typeof task.createdAt === "string",
      );
    }
    return memory;
  } catch {
    return {};
  }
}

function save(dir: string, memory: Memory): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file(dir)}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(memory, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file(dir));
}

/** Remembers a task created on `target`. */
export function rememberTask(target: string, task: RememberedTask, dir: string = stateDir()): void {
  const memory = load(dir);
  const kept = (memory[target] ?? []).filter((entry) => entry.taskId !== task.taskId);
  kept.push(task);
  memory[target] = kept.slice(-MAX_REMEMBERED_PER_TARGET);
  save(dir, memory);
}

/** The tasks remembered for `target`, oldest first. */
export function rememberedTasks(target: string, dir: string = stateDir()): RememberedTask[] {
  return load(dir)[target] ?? [];
}

/** Forgets the tasks of `target` named in `taskIds` (the server no longer knows them). */
export function forgetTasks(target: string, taskIds: ReadonlySet<string>, dir: string = stateDir()): void {
  const memory = load(dir);
  const kept = (memory[target] ?? []).filter((entry) => !taskIds.has(entry.taskId));
  if (kept.length === (memory[target] ?? []).length) return;
  if (kept.length === 0) delete memory[target];
  else memory[target] = kept;
  save(dir, memory);
}
