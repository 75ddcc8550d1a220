/**
 * `TaskManager`: the tasks engine of one server, apart from any era's wire. It creates tasks durably
 * for the caller that asked (owner-scoped, unguessable ids), runs their work on this replica under a
 * lease, answers owner-scoped reads (a task whose lease lapsed reads as `failed`), takes answers and
 * cancels from any replica, and publishes every status change. The 2026-07-28 methods
 * (`tasks/get`, `tasks/update`, `tasks/cancel`) and `MCPServer`'s task tools are built on it.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import { type Clock, systemClock } from "../../protocol/clock.js";
import { ERRORS } from "../../protocol/errors.js";
import type { CreateTaskResult } from "../../protocol/schema/tasks.js";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import type { MessageBus } from "../../state/message-bus.js";
import {
  isTerminalTaskStatus,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from "../../state/task-store.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import type { RequestContext } from "../context.js";
import type { Awaitable } from "../handlers.js";
import { type Logger, stderrLogger } from "../logger.js";
import { type TaskChangeListener, TaskFanout } from "./fanout.js";
import { newTaskId, taskOwnerOf } from "./identity.js";
import { requestedTaskOf, taskOwnerOfRequest } from "./legacy-scope.js";
import { resolveTaskOptions, type TaskOptions } from "./options.js";
import { STOPPED_MESSAGE } from "./outcome.js";
import type { PendingTask, TaskControl } from "./pending.js";
import { sleepOf } from "./retry.js";
import { TaskRun } from "./run.js";
import { acceptsTaskResult, toCreateTaskResult } from "./wire.js";

/**
 * A task's work: the task's own request context (its `signal` aborts on cancel; `ctx.elicit`,
 * `ctx.createMessage` and `ctx.listRoots` ask through the task's `inputRequests`) and its
 * {@link TaskControl}; resolves with the result the request would have answered (a `CallToolResult`
 * for `tools/call`), or throws an `McpError` to fail the task with it.
 */
export type TaskWork = (ctx: RequestContext, task: TaskControl) => Awaitable<Record<string, unknown>>;

/** Options of one task's start. */
export interface TaskStartOptions {
  /**
   * The task's TTL, milliseconds, from 1 to the manager's `maxTtlMs` (longer is cut to it). Default
   * the `params.task.ttl` a 2025-11-25 request asked for, else the manager's `defaultTtlMs`.
   */
  ttlMs?: number;
  /**
   * What the task runs, kept opaque in its record (JSON): default `{ method }` of the request.
   * An era's `tasks/result` or a later reader may need more (the tool's name, say).
   */
  request?: Readonly<Record<string, unknown>>;
}

/** Each manager's wait on its clock (see {@link pollWait}). */
const waits = new WeakMap<TaskManager, (ms: number, signal?: AbortSignal) => Promise<void>>();

/**
 * Waits `ms` milliseconds on the clock of `tasks` (for an era's reader that polls a task between
 * its status changes); resolves early, never rejects, when `signal` aborts.
 */
export function pollWait(tasks: TaskManager, ms: number, signal?: AbortSignal): Promise<void> {
  const wait = waits.get(tasks);
  if (wait === undefined) throw new TypeError("pollWait: not a TaskManager");
  return wait(ms, signal);
}

/** The message of a task whose lease lapsed: the replica running it stopped. */
export const LEASE_LAPSED_MESSAGE = STOPPED_MESSAGE;

/**
 * The tasks engine of a server. One per server (a `Server`'s `tasks` option, an `MCPServer`'s);
 * every replica of a fleet gets one over the same `store` and `bus`.
 *
 * ```ts
 * const tasks = new TaskManager({ maxActivePerPrincipal: 10 });
 * const server = new Server("jobs", {
 *   tasks,
 *   onCallTool: (ctx, params) =>
 *     tasks.accepts(ctx)
 *       ? tasks.run(ctx, async (taskCtx, task) => { await task.setStatusMessage("working"); return { content: [] }; })
 *       : { content: [] },
 * });
 * ```
 *
 * Owner scope: every task belongs to the caller that created it, as {@link TaskManager.ownerOf}
 * keys it (a digest of the authenticated principal, or one anonymous key without auth); every read
 * takes the caller's key, and another owner's task reads exactly like an unknown one.
 *
 * @throws TypeError/RangeError for bad options (see {@link TaskOptions}).
 */
export class TaskManager {
  /** Where the tasks live. */
  readonly store: TaskStore;
  /** The bus task messages travel on between replicas, if any. */
  readonly bus: MessageBus | undefined;
  /** This replica's id, the holder of its leases. */
  readonly instanceId: string;
  /**
   * How long a task is kept after creation, milliseconds; one still running near then is ended
   * `failed` (see {@link TaskOptions.defaultTtlMs}).
   */
  readonly defaultTtlMs: number;
  /** The longest TTL a task may ask for, milliseconds. */
  readonly maxTtlMs: number;
  /** The polling interval suggested to clients, milliseconds. */
  readonly pollIntervalMs: number;
  /** How long a lease holds unless renewed, milliseconds. */
  readonly leaseMs: number;
  /**
   * The most non-terminal tasks one principal may have, and the most handlers of its tasks this
   * replica runs at once (a cancelled task's handler counts until it returns).
   */
  readonly maxActivePerPrincipal: number;
  /** The largest result a task keeps, bytes of UTF-8 JSON. */
  readonly maxResultBytes: number;
  readonly #clock: Clock;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #logger: Logger;
  readonly #fanout: TaskFanout;
  readonly #runs = new Map<string, TaskRun>();
  /** Owner key -> how many handlers of its tasks run on this replica, terminal in the store or not. */
  readonly #live = new Map<string, number>();
  #closed = false;

  constructor(options: TaskOptions = {}) {
    const resolved = resolveTaskOptions("TaskManager", options);
    this.#clock = resolved.clock ?? systemClock;
    this.#sleep = sleepOf(this.#clock);
    waits.set(this, this.#sleep);
    this.#logger = resolved.logger ?? stderrLogger;
    this.store = resolved.store ?? new MemoryTaskStore({ clock: this.#clock });
    this.bus = resolved.bus;
    this.instanceId = resolved.instanceId;
    this.defaultTtlMs = resolved.defaultTtlMs;
    this.maxTtlMs = resolved.maxTtlMs;
    this.pollIntervalMs = resolved.pollIntervalMs;
    this.leaseMs = resolved.leaseMs;
    this.maxActivePerPrincipal = resolved.maxActivePerPrincipal;
    this.maxResultBytes = resolved.maxResultBytes;
    this.#fanout = new TaskFanout(this.bus, (level, message, fields) => {
      try {
        this.#logger[level](message, fields);
      } catch {
        // Reporting never fails the caller.
      }
    });
  }

  /** The owner key of a caller (see `taskOwnerOf`): what every read of its tasks is scoped by. */
  ownerOf(auth: AuthInfo | undefined): string {
    return taskOwnerOf(auth);
  }

  /**
   * True when the request may be answered with a task: at 2026-07-28, a request that declared the
   * tasks extension (`io.modelcontextprotocol/tasks`) in its `clientCapabilities`; on a 2025-11-25
   * session, a `tools/call` that carries `params.task` (its `ttl` becomes the task's TTL).
   */
  accepts(ctx: RequestContext): boolean {
    return acceptsTaskResult(ctx);
  }

  /**
   * Creates a task for the request (durably, before resolving) and then runs `work` in it on this
   * replica; resolves with the `CreateTaskResult` to answer the request with. A refused creation
   * never starts `work`. Check {@link TaskManager.accepts} first: a request that did not declare
   * the extension must not get one.
   *
   * @throws McpError as `PendingTask.create` (too many tasks, the store full or unreachable);
   *   TypeError after `close()`.
   */
  async run(ctx: RequestContext, work: TaskWork, options: TaskStartOptions = {}): Promise<CreateTaskResult> {
    if (typeof work !== "function") throw new TypeError("TaskManager.run: work must be a function");
    const pending = this.begin(ctx, options);
    const record = await pending.create();
    pending.settle(Promise.resolve().then(() => work(pending.context, pending.control)));
    return toCreateTaskResult(record);
  }

  /**
   * Begins a task for the request without creating it yet (see {@link PendingTask}): `create()`
   * it, then start its work in its `context`, and `settle()` it with the work's outcome (or
   * `withdraw()` it when the work answered the request in another way at once). `run` is `begin`,
   * `create`, `settle`.
   *
   * @throws TypeError after `close()`.
   */
  begin(ctx: RequestContext, options: TaskStartOptions = {}): PendingTask {
    if (this.#closed) throw new TypeError("TaskManager: closed");
    const asked = options.ttlMs ?? requestedTaskOf(ctx)?.ttlMs ?? this.defaultTtlMs;
    const ttlMs = Math.max(1, Math.min(Math.floor(asked), this.maxTtlMs));
    return new TaskRun(
      {
        store: this.store,
        fanout: this.#fanout,
        clock: this.#clock,
        logger: this.#logger,
        holder: this.instanceId,
        leaseMs: this.leaseMs,
        pollIntervalMs: this.pollIntervalMs,
        maxActivePerOwner: this.maxActivePerPrincipal,
        maxResultBytes: this.maxResultBytes,
        admit: (run) => {
          const live = this.#live.get(run.owner) ?? 0;
          if (live >= this.maxActivePerPrincipal) return false;
          this.#live.set(run.owner, live + 1);
          return true;
        },
        release: (run) => {
          const live = (this.#live.get(run.owner) ?? 1) - 1;
          if (live > 0) this.#live.set(run.owner, live);
          else this.#live.delete(run.owner);
        },
        started: (run) => this.#runs.set(run.taskId, run),
        ended: (run) => {
          if (this.#runs.get(run.taskId) === run) this.#runs.delete(run.taskId);
        },
      },
      ctx,
      {
        taskId: newTaskId(),
        owner: taskOwnerOfRequest(ctx),
        ttlMs,
        request: options.request ?? { method: ctx.method },
      },
    );
  }

  /**
   * The task `taskId` of `owner`, or `undefined` when it is unknown, expired or another owner's. A
   * non-terminal task whose lease lapsed (the replica running it stopped) is first marked `failed`
   * (-32603, "The server running this task stopped before it finished"), once, whichever replica
   * reads it.
   */
  async get(owner: string, taskId: string): Promise<TaskRecord | undefined> {
    const record = await this.store.get(taskId);
    if (record === undefined || record.owner !== owner) return undefined;
    return await this.#lapsed(record);
  }

  /**
   * Records answers to the task's outstanding `inputRequests` (`tasks/update`): keys not
   * outstanding are ignored; the task is `working` again once none is left; the replica running it
   * is told. Resolves with the task after, or `undefined` when it is unknown, expired or another
   * owner's (a terminal one is returned unchanged).
   */
  async answer(
    owner: string,
    taskId: string,
    responses: Readonly<Record<string, unknown>>,
  ): Promise<TaskRecord | undefined> {
    const record = await this.store.addInputResponses(taskId, owner, responses, this.#clock.now());
    if (record === undefined || isTerminalTaskStatus(record.status)) return record;
    const taken = record.inputResponses ?? {};
    if (Object.keys(responses).some((key) => Object.hasOwn(taken, key))) {
      this.#fanout.publishChange(record);
      await this.#tellRunner(taskId, "input");
    }
    return record;
  }

  /**
   * Cancels the task (`tasks/cancel`): a non-terminal one becomes `cancelled` and its work is
   * aborted, on whichever replica runs it. Resolves with the task after (a terminal one as it
   * was), or `undefined` when it is unknown, expired or another owner's.
   */
  async cancel(
    owner: string,
    taskId: string,
    statusMessage = "Cancelled by the client",
  ): Promise<TaskRecord | undefined> {
    const record = await this.get(owner, taskId);
    if (record === undefined || isTerminalTaskStatus(record.status)) return record;
    const cancelled = await this.store.update(
      taskId,
      { status: "cancelled", statusMessage, lastUpdatedAtMs: this.#clock.now() },
      { owner },
    );
    if (cancelled === undefined) return await this.get(owner, taskId);
    this.#fanout.publishChange(cancelled);
    await this.#tellRunner(taskId, "cancel");
    return cancelled;
  }

  /**
   * One page of the owner's tasks, newest first (each read as {@link TaskManager.get} does). For
   * an era that lists tasks (2025-11-25 `tasks/list`); the 2026-07-28 extension has no list.
   */
  async list(owner: string, options: { cursor?: string | undefined; limit: number }): Promise<TaskPage> {
    const page = await this.store.list(owner, options);
    const read = await Promise.all(page.tasks.map((task) => this.#lapsed(task)));
    const tasks = read.filter((task): task is TaskRecord => task !== undefined);
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  /**
   * Resolves with the task once it is terminal (or `undefined` once it is unknown, expired or
   * another owner's), watching its status changes and reading it every `pollIntervalMs`: for an
   * era whose result request blocks (2025-11-25 `tasks/result`).
   *
   * @throws the signal's reason when it aborts first.
   */
  async awaitTerminal(owner: string, taskId: string, signal: AbortSignal): Promise<TaskRecord | undefined> {
    for (;;) {
      signal.throwIfAborted();
      let wake: () => void = () => {};
      const changed = new Promise<void>((resolve) => {
        wake = resolve;
      });
      const stop = this.onChange((task) => {
        if (task.taskId === taskId) wake();
      });
      const tick = new AbortController();
      try {
        const record = await this.get(owner, taskId);
        if (record === undefined || isTerminalTaskStatus(record.status)) return record;
        await Promise.race([
          changed,
          this.#sleep(this.pollIntervalMs, AbortSignal.any([signal, tick.signal])),
        ]);
      } finally {
        stop();
        tick.abort();
      }
    }
  }

  /**
   * Adds a listener of every status change of every task (this replica's, and with a bus every
   * replica's), given without its runner's fields; check `task.owner` before telling anyone.
   * Returns the function that removes it. A listener that throws is logged.
   */
  onChange(listener: TaskChangeListener): () => void {
    return this.#fanout.onChange(listener);
  }

  /**
   * Stops this manager: the tasks running here are marked `failed` (-32603, the server running
   * them stopped) and their work aborted, and the bus is left. A marking the store fails is tried
   * again until the task's lease would lapse (at most `leaseMs`; any read then marks it so).
   * Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#runs.values()].map((run) => run.stop()));
    this.#fanout.close();
  }

  /** `record`, or once its lease lapsed, the task as failed (or as another replica left it). */
  async #lapsed(record: TaskRecord): Promise<TaskRecord | undefined> {
    const lease = record.lease;
    if (isTerminalTaskStatus(record.status) || lease === undefined) return record;
    const now = this.#clock.now();
    if (lease.expiresAtMs > now) return record;
    const failed = await this.store.update(
      record.taskId,
      {
        status: "failed",
        statusMessage: LEASE_LAPSED_MESSAGE,
        error: { code: ERRORS.INTERNAL_ERROR.code, message: LEASE_LAPSED_MESSAGE },
        lastUpdatedAtMs: now,
      },
      { lease },
    );
    if (failed !== undefined) {
      this.#fanout.publishChange(failed);
      return failed;
    }
    const current = await this.store.get(record.taskId);
    return current?.owner === record.owner ? current : undefined;
  }

  /** Tells the replica running `taskId` (this one directly, others through the bus). */
  async #tellRunner(taskId: string, type: "input" | "cancel"): Promise<void> {
    const run = this.#runs.get(taskId);
    if (run !== undefined) {
      if (type === "cancel") run.cancelled();
      else run.answersArrived();
      return;
    }
    await this.#fanout.sendToRunner(taskId, { type });
  }
}
