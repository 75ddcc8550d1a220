/**
 * What a task's work and the code that starts it see of one task: {@link TaskControl} (the task's
 * id and status message, for the work) and {@link PendingTask} (a task begun for a request, created
 * before its work starts, then handed the work's outcome or withdrawn). Spec:
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import type { TaskRecord } from "../../state/task-store.js";
import type { RequestContext } from "../context.js";

/**
 * What a task's work can do about its task: its id, and its status message. The type of
 * `ctx.task` in an `MCPServer` tool and of the second argument of a `TaskManager.run` work function.
 */
export interface TaskControl {
  /** The task's id, as the client polls it. */
  readonly taskId: string;
  /**
   * Sets the task's `statusMessage` (what `tasks/get` and `notifications/tasks` show, e.g. how far
   * the work is). Writes are coalesced: the latest message wins. Resolves once written (or
   * dropped, once the task is terminal). Before the task is created, the message becomes its first.
   */
  setStatusMessage(message: string): Promise<void>;
}

/**
 * A task begun for one request (`TaskManager.begin`) whose creation is still to come. Create it
 * ({@link PendingTask.create}) before its work starts in {@link PendingTask.context}, so that a
 * refused creation (the owner's cap, a full or unreachable store) has no effect; then hand the
 * work's outcome over ({@link PendingTask.settle}), or, when the work answered its request in
 * another way at once (an `InputRequiredResult` round), {@link PendingTask.withdraw} the task so
 * that no one ever sees it.
 */
export interface PendingTask {
  /** The id the task has (or will have once created). */
  readonly taskId: string;
  /**
   * The request context the work runs in: the request's own, except `signal` (aborted when the
   * request is before creation, and afterwards on cancel, on losing the lease and on close) and
   * the server -> client requests (`elicit`, `createMessage`, `listRoots`), which become the task's
   * `inputRequests` (and create the task first, see {@link PendingTask.demanded}).
   */
  readonly context: RequestContext;
  /** The task's status message and id, for the work. */
  readonly control: TaskControl;
  /** Resolves when the work asks the client something, which needs the task to exist. */
  readonly demanded: Promise<void>;
  /**
   * Creates the task durably (a `tasks/get` finds it once this resolves) and starts holding its
   * lease; from now on the request's own abort no longer reaches the work. Idempotent. Its status
   * changes are published from {@link PendingTask.settle} (or the work's first question) on.
   *
   * @throws McpError -32600 when the owner already has `maxActivePerPrincipal` tasks running, or
   *   that many handlers still running on this replica (a cancelled task's handler that ignores
   *   its signal counts until it returns); -32603 when the store is full or cannot be reached (the
   *   cause is logged). The work is then aborted with that error.
   */
  create(): Promise<TaskRecord>;
  /**
   * Hands the work's outcome over, once the task is created: a result object -> `completed`
   * (`failed` -32603 when its JSON is larger than `maxResultBytes`, or for an
   * `InputRequiredResult`), a rejection -> `failed` (an `McpError` as it is, anything else as
   * -32603, its cause logged). A task cancelled meanwhile stays cancelled. A write the store
   * fails is tried again, with a back-off up to a third of the lease, while this replica holds the
   * lease; it is given up (logged) once the lease is lost or the manager closes. The owner's
   * running-handler count drops once `outcome` settles.
   *
   * @throws TypeError when the task was not created.
   */
  settle(outcome: Promise<unknown>): void;
  /** Gives the task up before it was created (nothing is stored); aborts the work with `reason`. */
  discard(reason?: unknown): void;
  /**
   * Withdraws the created task, its work having answered its request in another way and
   * finished: the task ends `cancelled` and expires at once (no read finds it; nothing about it is
   * published). Before `create()`, as `discard()`. Resolves once written (a failed write is
   * retried while the lease is held, then logged).
   */
  withdraw(): Promise<void>;
  /**
   * Asks the client through the task (the task's `inputRequests`, each key made unique over the
   * task's lifetime), creating the task first, and resolves with the answers by `requests`' keys.
   *
   * @throws as `TaskInputs.ask`, and the creation's error.
   */
  ask(
    requests: Readonly<Record<string, unknown>>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Record<string, unknown>>;
}
