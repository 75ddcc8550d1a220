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
 * every task is live and running `create` answers `"store_full"`. A `list` cursor names the place
 * of the last task handed out in creation order, so the next page follows even when that task is
 * gone meanwhile; a cursor this store did not hand out gives an empty page.
 *
 * @throws TypeError for options of the wrong type; RangeError for a `maxTasks` below 1.
 */
export class MemoryTaskStore implements TaskStore {
  /** The bound, in tasks. */
  readonly maxTasks: number;
  readonly #clock: Clock;
  /** Task id -> record, in creation order. */
  readonly #tasks = new Map<string, TaskRecord>();
  /** Task id -> its place in creation order (what a `list` cursor names). */
  readonly #places = new Map<string, number>();
  #created = 0;

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
      if (task.owner === record.owner && holdsSlot(task, now)) active++;
    }
    if (active >= options.maxActivePerOwner) return "owner_limit";
    if (this.#tasks.size >= this.maxTasks && !this.#makeRoom(now)) return "store_full";
    this.#tasks.set(record.taskId, copy(record));
    this.#places.set(record.taskId, ++this.#created);
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
      // An own property whatever the key is (a key `__proto__` included).
      Object.defineProperty(answered, key, {
        value: response,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      changed = true;
    }
    if (!changed) return copy(task);
    const left = Object.keys(outstanding).length;
    const { inputRequests: _answered, ...rest } = task;
    const next: TaskRecord = {
      ...rest,
      status: left === 0 ? "working" : task.status,
      ...(left === 0 ? {} : { inputRequests: outstanding }),
      inputResponses: answered,
      lastUpdatedAtMs: nowMs,
    };
    this.#tasks.set(taskId, next);
    return copy(next);
  }

  async takeInputResponses(taskId: string, holder: string): Promise<Readonly<Record<string, unknown>>> {
    const task = this.#live(taskId);
    if (task === undefined || task.lease?.holder !== holder || task.inputResponses === undefined) return {};
    const { inputResponses, ...rest } = task;
    this.#tasks.set(taskId, rest);
    return structuredClone(inputResponses);
  }

  async list(
    owner: string,
    options: { readonly cursor?: string | undefined; readonly limit: number },
  ): Promise<TaskPage> {
    const now = this.#clock.now();
    // Newest first; a cursor is the creation place of the last task handed out, so the listing goes
    // on after it even when that task is gone meanwhile.
    const after = options.cursor === undefined ? Number.POSITIVE_INFINITY : placeOf(options.cursor);
    const mine = [...this.#tasks.values()]
      .filter((task) => task.owner === owner && !expired(task, now) && this.#placeOf(task) < after)
      .reverse();
    const page = mine.slice(0, options.limit);
    const last = page.at(-1);
    const more = options.limit < mine.length;
    return {
      tasks: page.map(copy),
      ...(more && last !== undefined ? { nextCursor: `m${this.#placeOf(last)}` } : {}),
    };
  }

  #placeOf(task: TaskRecord): number {
    return this.#places.get(task.taskId) ?? 0;
  }

  /** The task when held and not expired (an expired one is dropped). */
  #live(taskId: string): TaskRecord | undefined {
    const task = this.#tasks.get(taskId);
    if (task === undefined) return undefined;
    if (expired(task, this.#clock.now())) {
      this.#drop(taskId);
      return undefined;
    }
    return task;
  }

  #drop(taskId: string): void {
    this.#tasks.delete(taskId);
    this.#places.delete(taskId);
  }

  /** Drops expired tasks, else the oldest terminal one; false when every task is live and running. */
  #makeRoom(now: number): boolean {
    for (const [id, task] of this.#tasks) if (expired(task, now)) this.#drop(id);
    if (this.#tasks.size < this.maxTasks) return true;
    for (const [id, task] of this.#tasks) {
      if (isTerminalTaskStatus(task.status)) {
        this.#drop(id);
        return true;
      }
    }
    return false;
  }
}

/** The creation place a `list` cursor names; 0 (nothing after it) for one this store never handed out. */
function placeOf(cursor: string): number {
  const place = /^m(\d{1,15})$/.exec(cursor)?.[1];
  return place === undefined ? 0 : Number(place);
}

function expired(task: TaskRecord, now: number): boolean {
  return task.ttlMs !== null && now >= task.createdAtMs + task.ttlMs;
}

/** True while `task` counts against its owner's bound: not terminal, not expired, its lease (if any) not lapsed. */
function holdsSlot(task: TaskRecord, now: number): boolean {
  if (isTerminalTaskStatus(task.status) || expired(task, now)) return false;
  return task.lease === undefined || task.lease.expiresAtMs > now;
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
