/**
 * The in-memory {@link TaskStore}: one process's tasks, bounded and expiring. A fleet shares a
 * store instead (`tsmcp-redis`), so that any replica answers for a task another one runs.
 */
import { type Clock, checkClock, systemClock } from "../protocol/clock.js";
import { checkInteger } from "../protocol/options.js";
import {
  applyTaskChange,
  isTerminalTaskStatus,
  type TaskChange,
  type TaskCreateOutcome,
  type TaskExpectation,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from "./task-store.js";

/** The default bound of a {@link MemoryTaskStore}: 10 000 tasks held at once. */
export const DEFAULT_MEMORY_MAX_TASKS = 10_000;

/** Options of a {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** The most tasks held at once (expired ones are dropped first), from 1. Default {@link DEFAULT_MEMORY_MAX_TASKS}. */
  maxTasks?: number;
  /** The time tasks expire against. Default the system clock. */
  clock?: Clock;
}

/**
 * A bounded, expiring {@link TaskStore} in memory. Every operation runs in one synchronous step, so
 * each is atomic within the process. A task is gone once the clock reaches `createdAtMs + ttlMs`;
 * when `maxTasks` are held, expired ones are dropped first, then terminal ones oldest first, and if
 * every task is live and running `create` answers `"store_full"`.
 *
 * @throws TypeError for options of the wrong type; RangeError for a `maxTasks` below 1.
 */
export class MemoryTaskStore implements TaskStore {
  /** The bound, in tasks. */
  readonly maxTasks: number;
  readonly #clock: Clock;
  /** Task id -> record, in creation order. */
  readonly #tasks = new Map<string, TaskRecord>();

  constructor(options: MemoryTaskStoreOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError("MemoryTaskStore options must be an object");
    }
    checkInteger("MemoryTaskStore", "maxTasks", options.maxTasks, { min: 1, unit: "tasks" });
    checkClock("MemoryTaskStore", options.clock);
    this.maxTasks = options.maxTasks ?? DEFAULT_MEMORY_MAX_TASKS;
    this.#clock = options.clock ?? systemClock;
  }

  /** How many tasks are held (expired ones included until they are swept). */
  get size(): number {
    return this.#tasks.size;
  }

  async create(
    record: TaskRecord,
    options: { readonly maxActivePerOwner: number },
  ): Promise<TaskCreateOutcome> {
    const now = this.#clock.now();
    if (this.#tasks.has(record.taskId)) throw new TypeError("MemoryTaskStore.create: taskId already in use");
    let active = 0;
    for (const task of this.#tasks.values()) {
      if (task.owner === record.owner && !isTerminalTaskStatus(task.status) && !expired(task, now)) active++;
    }
    if (active >= options.maxActivePerOwner) return "owner_limit";
    if (this.#tasks.size >= this.maxTasks && !this.#makeRoom(now)) return "store_full";
    this.#tasks.set(record.taskId, copy(record));
    return "created";
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const task = this.#live(taskId);
    return task === undefined ? undefined : copy(task);
  }

  async update(
    taskId: string,
    change: TaskChange,
    expect?: TaskExpectation,
  ): Promise<TaskRecord | undefined> {
    const task = this.#live(taskId);
    if (task === undefined || isTerminalTaskStatus(task.status) || !holds(task, expect)) return undefined;
    const next = applyTaskChange(task, change);
    this.#tasks.set(taskId, next);
    return copy(next);
  }

  async addInputResponses(
    taskId: string,
    owner: string,
    responses: Readonly<Record<string, unknown>>,
    nowMs: number,
  ): Promise<TaskRecord | undefined> {
    const task = this.#live(taskId);
    if (task === undefined || task.owner !== owner) return undefined;
    if (isTerminalTaskStatus(task.status) || task.inputRequests === undefined) return copy(task);
    const outstanding = { ...task.inputRequests };
    const answered: Record<string, unknown> = { ...task.inputResponses };
    let changed = false;
    for (const [key, response] of Object.entries(responses)) {
      if (!Object.hasOwn(outstanding, key)) continue;
      delete outstanding[key];
      answered[key] = response;
      changed = true;
    }
    if (!changed) return copy(task);
    const left = Object.keys(outstanding).length;
    const next: TaskRecord = {
      ...task,
      status: left === 0 ? "working" : task.status,
      inputRequests: left === 0 ? undefined : outstanding,
      inputResponses: answered,
      lastUpdatedAtMs: nowMs,
    };
    this.#tasks.set(taskId, next);
    return copy(next);
  }

  async takeInputResponses(taskId: string, holder: string): Promise<Readonly<Record<string, unknown>>> {
    const task = this.#live(taskId);
    if (task === undefined || task.lease?.holder !== holder || task.inputResponses === undefined) return {};
    this.#tasks.set(taskId, { ...task, inputResponses: undefined });
    return structuredClone(task.inputResponses);
  }

  async list(
    owner: string,
    options: { readonly cursor?: string | undefined; readonly limit: number },
  ): Promise<TaskPage> {
    const now = this.#clock.now();
    const mine = [...this.#tasks.values()]
      .filter((task) => task.owner === owner && !expired(task, now))
      .reverse();
    let start = 0;
    if (options.cursor !== undefined) {
      const at = mine.findIndex((task) => task.taskId === options.cursor);
      start = at < 0 ? mine.length : at + 1;
    }
    const page = mine.slice(start, start + options.limit);
    const last = page.at(-1);
    const more = start + options.limit < mine.length;
    return { tasks: page.map(copy), ...(more && last !== undefined ? { nextCursor: last.taskId } : {}) };
  }

  /** The task when held and not expired (an expired one is dropped). */
  #live(taskId: string): TaskRecord | undefined {
    const task = this.#tasks.get(taskId);
    if (task === undefined) return undefined;
    if (expired(task, this.#clock.now())) {
      this.#tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  /** Drops expired tasks, else the oldest terminal one; false when every task is live and running. */
  #makeRoom(now: number): boolean {
    for (const [id, task] of this.#tasks) if (expired(task, now)) this.#tasks.delete(id);
    if (this.#tasks.size < this.maxTasks) return true;
    for (const [id, task] of this.#tasks) {
      if (isTerminalTaskStatus(task.status)) {
        this.#tasks.delete(id);
        return true;
      }
    }
    return false;
  }
}

function expired(task: TaskRecord, now: number): boolean {
  return task.ttlMs !== null && now >= task.createdAtMs + task.ttlMs;
}

function holds(task: TaskRecord, expect: TaskExpectation | undefined): boolean {
  if (expect === undefined) return true;
  if (expect.owner !== undefined && task.owner !== expect.owner) return false;
  if (expect.leaseHolder !== undefined && task.lease?.holder !== expect.leaseHolder) return false;
  if (
    expect.lease !== undefined &&
    (task.lease?.holder !== expect.lease.holder || task.lease.expiresAtMs !== expect.lease.expiresAtMs)
  ) {
    return false;
  }
  return true;
}

function copy(task: TaskRecord): TaskRecord {
  return structuredClone(task);
}
