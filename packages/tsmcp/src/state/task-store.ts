/**
 * The TaskStore seam: the tasks of the tasks extension (`io.modelcontextprotocol/tasks`) and of the
 * 2025-11-25 revision's tasks, kept where every replica of a fleet can read them, so that a poll, an
 * update, a cancel or a result request may land on any replica while another one runs the task.
 * The in-memory default ({@link MemoryTaskStore}) serves one process; a shared engine (Redis)
 * serves a fleet. Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md)
 * and https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */

/** A task's status. Terminal: `completed`, `failed`, `cancelled`. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** The statuses a task never leaves. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.has(status);
}

/** A JSON-RPC error as a failed task keeps it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** Who runs a task, and until when that claim holds unless renewed. */
export interface TaskLease {
  /** The running replica's id (opaque). */
  readonly holder: string;
  /** When the claim lapses, epoch milliseconds. */
  readonly expiresAtMs: number;
}

/**
 * One task, as the store keeps it. JSON-serialisable (a shared store writes it as text); a store
 * returns a fresh copy on every read.
 */
export interface TaskRecord {
  /** The task's id: unguessable, minted by the server. */
  readonly taskId: string;
  /**
   * Whose task it is: an opaque scope key the server derives from the caller (a digest of the
   * authenticated principal, never a credential). Reads are filtered by the caller's key; a task of
   * another owner answers like an unknown one.
   */
  readonly owner: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string | undefined;
  /** When the task was created, epoch milliseconds. */
  readonly createdAtMs: number;
  /** When the task last changed (status, message, input requests, result), epoch milliseconds. */
  readonly lastUpdatedAtMs: number;
  /** How long the task is kept after creation, milliseconds; `null` unlimited. */
  readonly ttlMs: number | null;
  /** The polling interval suggested to clients, milliseconds. */
  readonly pollIntervalMs?: number | undefined;
  /**
   * The outstanding server -> client requests (`inputRequests` of the tasks extension), by key; set
   * while `input_required`. A key answered by {@link TaskStore.addInputResponses} leaves this map.
   */
  readonly inputRequests?: Readonly<Record<string, unknown>> | undefined;
  /** Answers received for keys of `inputRequests`, not yet taken by the runner. */
  readonly inputResponses?: Readonly<Record<string, unknown>> | undefined;
  /** The final result of the underlying request (`completed`). */
  readonly result?: Readonly<Record<string, unknown>> | undefined;
  /** The JSON-RPC error the underlying request ended with (`failed`). */
  readonly error?: TaskError | undefined;
  /** The running replica's claim; absent once terminal or before anyone runs it. */
  readonly lease?: TaskLease | undefined;
  /**
   * What the task runs, for the engine (the method, the tool's name, the era it was created in, the
   * request's own data it needs): opaque to the store, JSON-serialisable.
   */
  readonly request: Readonly<Record<string, unknown>>;
}

/**
 * A change to a task, applied atomically by {@link TaskStore.update}. Fields given replace the
 * record's (`undefined` leaves one as it is; `null` clears an optional one, and sets `ttlMs` to
 * `null`: no expiry); `lastUpdatedAtMs` is set by the caller. `addInputRequests` and
 * `removeInputRequests` edit the outstanding map (an empty map is removed). Moving to a terminal status clears `inputRequests`, `inputResponses` and
 * `lease`.
 */
export interface TaskChange {
  readonly status?: TaskStatus;
  readonly statusMessage?: string | null;
  readonly lastUpdatedAtMs?: number;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number | null;
  /**
   * Requests added to the outstanding `inputRequests` (merged with those still there, so that an
   * answer recorded meanwhile by {@link TaskStore.addInputResponses} is never brought back).
   */
  readonly addInputRequests?: Readonly<Record<string, unknown>>;
  /** Keys withdrawn from the outstanding `inputRequests` (after `addInputRequests`). */
  readonly removeInputRequests?: readonly string[];
  readonly result?: Readonly<Record<string, unknown>>;
  readonly error?: TaskError;
  readonly lease?: TaskLease | null;
}

/** The precondition of a {@link TaskStore.update}: all given must hold, or nothing changes. */
export interface TaskExpectation {
  /** The record's owner. */
  readonly owner?: string;
  /** The lease's holder is this one (an absent lease fails it). */
  readonly leaseHolder?: string;
  /** The lease is exactly this one (holder and expiry), so that only one replica fails a lapsed task. */
  readonly lease?: TaskLease;
}

/** The outcome of {@link TaskStore.create}. */
export type TaskCreateOutcome = "created" | "owner_limit" | "store_full";

/** One page of {@link TaskStore.list}. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  /** Opaque; pass it back for the next page. Absent on the last page. */
  readonly nextCursor?: string | undefined;
}

/**
 * Where tasks live between requests.
 *
 * Guarantees an implementation gives (the shared contract suite checks them):
 *
 * - **Durable creation.** Once `create` resolves `"created"`, a `get` on any instance sharing the
 *   store finds the task (the tasks extension forbids returning a task before that holds).
 * - **Expiry.** A task with a `ttlMs` is gone (`get` resolves `undefined`, `list` skips it) from
 *   `createdAtMs + ttlMs` on, with no further call; storage for it is reclaimed eventually,
 *   without a read of that task (by the engine's own expiry, or by a later write's sweep).
 * - **Terminal is final.** `update` of a task in a terminal status changes nothing and resolves
 *   `undefined`; concurrent updates are linearisable (each sees the previous one's record).
 * - **Bounded.** `create` counts the owner's non-terminal tasks whose lease, if any, has not
 *   lapsed (`lease.expiresAtMs` later than the store's clock), atomically with the insert, and
 *   answers `"owner_limit"` at `maxActivePerOwner`: the tasks of a replica that stopped hold no
 *   slot once their lease lapsed, even before a read turns them `failed`. A store with a total
 *   bound (in tasks, in bytes, an engine's memory) answers `"store_full"` rather than dropping a
 *   running task, and may reject an `update` or `addInputResponses` it has no room for with
 *   `StateUnavailableError`, changing nothing.
 * - **Fail loudly.** An unreachable engine rejects with `StateUnavailableError`; nothing is
 *   reported as missing that may exist.
 */
export interface TaskStore {
  /**
   * Stores a new task (`record.taskId` unused so far).
   *
   * @param options.maxActivePerOwner the most non-terminal tasks `record.owner` may have, counting
   *   neither expired ones nor those whose lease lapsed.
   * @returns `"created"`, or why not.
   */
  create(record: TaskRecord, options: { readonly maxActivePerOwner: number }): Promise<TaskCreateOutcome>;

  /** The task, or `undefined` when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;

  /**
   * Applies `change` atomically when the task exists, is not terminal and `expect` holds.
   *
   * @returns the record after the change, or `undefined` when nothing changed.
   */
  update(taskId: string, change: TaskChange, expect?: TaskExpectation): Promise<TaskRecord | undefined>;

  /**
   * Records answers of a `tasks/update`, atomically: each key of `responses` that is outstanding in
   * `inputRequests` moves from there into `inputResponses`; other keys are ignored. When no request
   * stays outstanding, the status goes back to `working`. A task of another owner, or terminal,
   * is left as it is.
   *
   * @returns the record after the change, or `undefined` when the task is unknown, expired or of
   *   another owner (a terminal one is returned unchanged).
   */
  addInputResponses(
    taskId: string,
    owner: string,
    responses: Readonly<Record<string, unknown>>,
    nowMs: number,
  ): Promise<TaskRecord | undefined>;

  /**
   * Takes (removes and returns) the answers waiting in `inputResponses`, when `holder` holds the
   * lease. Each answer is taken once.
   */
  takeInputResponses(taskId: string, holder: string): Promise<Readonly<Record<string, unknown>>>;

  /** The owner's tasks, newest first, `limit` at most per page. */
  list(
    owner: string,
    options: { readonly cursor?: string | undefined; readonly limit: number },
  ): Promise<TaskPage>;
}

/**
 * The record after `change`, by the rules of {@link TaskChange} (for stores that apply changes
 * themselves: read, apply, compare-and-set). Does not check `expect` or terminal status.
 */
export function applyTaskChange(task: TaskRecord, change: TaskChange): TaskRecord {
  const { addInputRequests, removeInputRequests, ...fields } = change;
  const next: Record<string, unknown> = { ...task };
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // `ttlMs` is never absent: null is its value for "kept until deleted".
    if (value === null && field !== "ttlMs") delete next[field];
    else next[field] = value;
  }
  if (addInputRequests !== undefined || removeInputRequests !== undefined) {
    const outstanding: Record<string, unknown> = { ...task.inputRequests, ...addInputRequests };
    for (const key of removeInputRequests ?? []) delete outstanding[key];
    if (Object.keys(outstanding).length === 0) delete next.inputRequests;
    else next.inputRequests = outstanding;
  }
  if (change.status !== undefined && isTerminalTaskStatus(change.status)) {
    delete next.inputRequests;
    delete next.inputResponses;
    delete next.lease;
  }
  return structuredClone(next) as unknown as TaskRecord;
}

/** True when `value` has the methods of a {@link TaskStore}. */
export function isTaskStore(value: unknown): value is TaskStore {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["create", "get", "update", "addInputResponses", "takeInputResponses", "list"].every(
    (name) => typeof record[name] === "function",
  );
}
