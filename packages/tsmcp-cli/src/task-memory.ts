/**
 * The tasks the command created, remembered per target and per identity so that `tsmcp task list`
 * can show them where the server has no `tasks/list` (the 2026-07-28 tasks extension has none; its
 * spec has clients keep task ids so they can resume after a restart). A server shows a task only to
 * the identity that created it, so the tasks of one identity are never looked up, shown or
 * forgotten under another. One JSON file, `tasks.json`, in the state directory:
 * `$TSMCP_STATE_DIR`, else `$XDG_STATE_HOME/tsmcp`, else `~/.local/state/tsmcp`; owner-only (0600
 * in a 0700 directory), `{ "<target>": { "<identity digest>": [task, ...] } }`. Each change reads,
 * changes and writes the file under a lock file (`tasks.json.lock`, created exclusively), writing a
 * temporary file renamed over the old one, so two commands running at once lose neither's tasks.
 * At most {@link MAX_REMEMBERED_PER_TARGET} ids per target and identity, the oldest forgotten first.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Polling).
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** The environment variable naming the state directory (over XDG). */
export const STATE_DIR_ENV = "TSMCP_STATE_DIR";

/** Task ids kept per target and identity: 100. */
export const MAX_REMEMBERED_PER_TARGET = 100;

/** How long a command waits for another one's lock on the file before giving up: 5 000 ms. */
export const LOCK_WAIT_MS = 5000;

/** A lock file older than this is left over by a command that died holding it, and is removed: 10 000 ms. */
export const LOCK_STALE_MS = 10_000;

/** The pause between two tries to take the lock: 10 ms. */
const LOCK_RETRY_MS = 10;

/** One task the command created. */
export interface RememberedTask {
  readonly taskId: string;
  /** The tool it runs. */
  readonly tool: string;
  /** When it was created here, ISO 8601. */
  readonly createdAt: string;
}

/** Whose tasks: the target as typed (its key) and the digest of the identity the command used. */
export interface TaskScope {
  readonly target: string;
  /** A digest of the credentials the command presented (see `identityOf`), never a credential. */
  readonly identity: string;
}

type Memory = Record<string, Record<string, RememberedTask[]>>;

/** The OAuth sign-in a command uses: its token file and the client options. */
export interface SignInIdentity {
  /** The token file (one per config directory and server). */
  readonly tokenFile: string;
  readonly clientId?: string | undefined;
  readonly issuer?: string | undefined;
  readonly clientMetadataUrl?: string | undefined;
}

/**
 * The digest a command's tasks are remembered under: SHA-256 (hex) of every `--header` (any may
 * carry a credential: `authorization`, a cookie, an API key) and, when the command signs in with
 * OAuth, of that sign-in (its token file and client options). The same headers and sign-in give
 * the same digest; the file keeps the digest, never a credential.
 */
export function identityOf(headers: Readonly<Record<string, string>>, signIn?: SignInIdentity): string {
  const sortedHeaders = Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const oauth =
    signIn === undefined
      ? null
      : [signIn.tokenFile, signIn.clientId ?? null, signIn.issuer ?? null, signIn.clientMetadataUrl ?? null];
  return createHash("sha256")
    .update(JSON.stringify(["tsmcp task identity", sortedHeaders, oauth]), "utf8")
    .digest("hex");
}

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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What the file holds; an absent or unreadable file, or an entry of another shape, holds nothing. */
function load(dir: string): Memory {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file(dir), "utf8"));
  } catch {
    return {};
  }
  const memory: Memory = {};
  if (!isRecord(parsed)) return memory;
  for (const [target, identities] of Object.entries(parsed)) {
    if (!isRecord(identities)) continue;
    const kept: Record<string, RememberedTask[]> = {};
    for (const [identity, tasks] of Object.entries(identities)) {
      if (!Array.isArray(tasks)) continue;
      kept[identity] = tasks.filter(
        (task): task is RememberedTask =>
          typeof task?.taskId === "string" &&
          typeof task.tool === "string" &&
          typeof task.createdAt === "string",
      );
    }
    memory[target] = kept;
  }
  return memory;
}

function save(dir: string, memory: Memory): void {
  const temporary = `${file(dir)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(memory, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file(dir));
}

/** Blocks this thread for `ms` milliseconds (the command has nothing else to do meanwhile). */
function pauseSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Runs `work` holding the lock file: created exclusively, waited for while another command holds
 * it (up to {@link LOCK_WAIT_MS}), removed when older than {@link LOCK_STALE_MS}.
 *
 * @throws Error when another command holds the lock longer than {@link LOCK_WAIT_MS}.
 */
function locked<T>(dir: string, work: () => T): T {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = `${file(dir)}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, "wx", 0o600));
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") throw error;
    }
    let ageMs: number | undefined;
    try {
      ageMs = Date.now() - statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (ageMs > LOCK_STALE_MS) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`${lock} is held by another tsmcp command; remove it if none is running`);
    }
    pauseSync(LOCK_RETRY_MS);
  }
  try {
    return work();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Reads the file, lets `change` change what it holds, and writes it back if `change` returns true. */
function update(dir: string, change: (memory: Memory) => boolean): void {
  locked(dir, () => {
    const memory = load(dir);
    if (change(memory)) save(dir, memory);
  });
}

/** Remembers a task created in `scope`. */
export function rememberTask(scope: TaskScope, task: RememberedTask, dir: string = stateDir()): void {
  update(dir, (memory) => {
    const identities = memory[scope.target] ?? {};
    const kept = (identities[scope.identity] ?? []).filter((entry) => entry.taskId !== task.taskId);
    kept.push(task);
    identities[scope.identity] = kept.slice(-MAX_REMEMBERED_PER_TARGET);
    memory[scope.target] = identities;
    return true;
  });
}

/** The tasks remembered in `scope`, oldest first. */
export function rememberedTasks(scope: TaskScope, dir: string = stateDir()): RememberedTask[] {
  return load(dir)[scope.target]?.[scope.identity] ?? [];
}

/** Forgets the tasks of `scope` named in `taskIds` (the server no longer knows them). */
export function forgetTasks(scope: TaskScope, taskIds: ReadonlySet<string>, dir: string = stateDir()): void {
  if (taskIds.size === 0) return;
  update(dir, (memory) => {
    const identities = memory[scope.target];
    const before = identities?.[scope.identity];
    if (identities === undefined || before === undefined) return false;
    const kept = before.filter((entry) => !taskIds.has(entry.taskId));
    if (kept.length === before.length) return false;
    if (kept.length > 0) identities[scope.identity] = kept;
    else delete identities[scope.identity];
    if (Object.keys(identities).length === 0) delete memory[scope.target];
    return true;
  });
}
