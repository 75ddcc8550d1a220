/**
 * The in-memory {@link TaskStore}: one process's tasks, bounded and expiring. A fleet shares a
 * store instead (`tsmcp-redis`), so that any replica answers for a task another one runs.
 */
import { type Clock, checkClock, systemClock } from "../protocol/clock.js";
import { checkInteger } from "../protocol/options.js";
import { StateUnavailableError } from "./errors.js";
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

/**
 * The default bound in bytes of a {@link MemoryTaskStore}: 64 MiB (67 108 864 bytes) of task
 * records, each counted as its JSON text in UTF-8. The task engine keeps results of up to 1 MiB
 * by default (its `maxResultBytes`), so this holds 64 results of that largest size, or thousands of
 * typical ones, until they expire; a record in the heap costs a small multiple of its JSON length, which keeps the store at
 * a few hundred MiB at worst, well inside a default Node.js heap shared with the application. A
 * server keeping many large results for long raises it (or shares a store with its own bound).
 */
export const DEFAULT_MEMORY_MAX_TASK_BYTES = 64 * 1024 * 1024;

/** How often, at most, a write drops every expired task, milliseconds. */
const SWEEP_INTERVAL_MS = 1_000;

/** Options of a {@link MemoryTaskStore}. */
export interface MemoryTaskStoreOptions {
  /** The most tasks held at once (expired ones are dropped first), from 1. Default {@link DEFAULT_MEMORY_MAX_TASKS}. */
  maxTasks?: number;
  /**
   * The most bytes of task records held at once, each record counted as its JSON text in UTF-8,
   * from 1. Default {@link DEFAULT_MEMORY_MAX_TASK_BYTES}.
   */
  maxBytes?: number;
  /** The time tasks expire against. Default the system clock. */
  clock?: Clock;
}

/** A task held, with its size and its place in creation order (what a `list` cursor names). */
interface Held {
  record: TaskRecord;
  bytes: number;
  readonly place: number;
}

/**
 * A bounded, expiring {@link TaskStore} in memory. Every operation runs in one synchronous step, so
 * each is atomic within the process.
 *
 * A task is gone once the clock reaches `createdAtMs + ttlMs`; the expired task a call touches is
 * dropped at once, and every write (`create`, `update`, `addInputResponses`, `takeInputResponses`)
 * drops all expired tasks when the last such sweep is a second old or more, so an idle task's
 * memory is reclaimed with no read of it and no timer.
 *
 * Two bounds hold: `maxTasks` tasks and `maxBytes` bytes of records, a record's size being its JSON
 * text in UTF-8, measured once per write. A write that would pass either bound makes room: expired
 * tasks are dropped first, then terminal ones oldest first (only when that makes enough room), never
 * a running one. When it cannot, `create` answers `"store_full"`, and an `update` or
 * `addInputResponses` that grows a running task rejects with `StateUnavailableError` and changes
 * nothing (a write that does not grow a record is always applied). A write moving a task to a
 * terminal status is applied even then, after dropping every other terminal task, since refusing
 * it would lose the task's outcome: the bytes it brings over `maxBytes` are reclaimed by the next
 * write that needs room, which drops terminal tasks oldest first.
 *
 * `create` counts the owner's non-terminal tasks that are neither expired nor holding a lapsed lease
 * (`lease.expiresAtMs` at or before the clock's now). A `list` cursor names the place of the last
 * task handed out in creation order, so the next page follows even when that task is gone
 * meanwhile; a cursor this store did not hand out gives an empty page.
 *
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md) and
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 *
 * @throws TypeError for options of the wrong type; RangeError for a `maxTasks` or `maxBytes` below 1.
 */
export class MemoryTaskStore implements TaskStore {
  /** The bound, in tasks. */
  readonly maxTasks: number;
  /** The bound, in bytes of records (JSON text in UTF-8). */
  readonly maxBytes: number;
  readonly #clock: Clock;
  /** Task id -> the task held, in creation order. */
  readonly #tasks = new Map<string, Held>();
  #created = 0;
  #bytes = 0;
  /** When the last sweep of expired tasks ran, epoch milliseconds. */
  #sweptAtMs = Number.NEGATIVE_INFINITY;

  constructor(options: MemoryTaskStoreOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError("MemoryTaskStore options must be an object");
    }
    checkInteger("MemoryTaskStore", "maxTasks", options.maxTasks, { min: 1, unit: "tasks" });
    checkInteger("MemoryTaskStore", "maxBytes", options.maxBytes, { min: 1, unit: "bytes" });
    checkClock("MemoryTaskStore", options.clock);
    this.maxTasks = options.maxTasks ?? DEFAULT_MEMORY_MAX_TASKS;
    this.maxBytes = options.maxBytes ?? DEFAULT_MEMORY_MAX_TASK_BYTES;
    this.#clock = options.clock ?? systemClock;
  }

  /** How many tasks are held (expired ones included until they are swept). */
  get size(): number {
    return this.#tasks.size;
  }

  /** How many bytes of records are held (JSON text in UTF-8; expired ones included until they are swept). */
  get bytes(): number {
    return this.#bytes;
  }

  async create(
    record: TaskRecord,
    options: { readonly maxActivePerOwner: number },
  ): Promise<TaskCreateOutcome> {
    const now = this.#clock.now();
    this.#sweepIfDue(now);
    if (this.#tasks.has(record.taskId)) throw new TypeError("MemoryTaskStore.create: taskId already in use");
    let active = 0;
    for (const { record: task } of this.#tasks.values()) {
      if (task.owner === record.owner && holdsSlot(task, now)) active++;
    }
    if (active >= options.maxActivePerOwner) return "owner_limit";
    const stored = copy(record);
    const bytes = bytesOf(stored);
    if (!this.#makeRoom(now, { bytes, task: true })) return "store_full";
    this.#tasks.set(record.taskId, { record: stored, bytes, place: ++this.#created });
    this.#bytes += bytes;
    return "created";
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const held = this.#live(taskId, this.#clock.now());
    return held === undefined ? undefined : copy(held.record);
  }

  async update(
    taskId: string,
    change: TaskChange,
    expect?: TaskExpectation,
  ): Promise<TaskRecord | undefined> {
    const now = this.#clock.now();
    this.#sweepIfDue(now);
    const held = this.#live(taskId, now);
    if (held === undefined || isTerminalTaskStatus(held.record.status) || !holds(held.record, expect)) {
      return undefined;
    }
    const next = applyTaskChange(held.record, change);
    this.#replace(taskId, held, next, now);
    return copy(next);
  }

  async addInputResponses(
    taskId: string,
    owner: string,
    responses: Readonly<Record<string, unknown>>,
    nowMs: number,
  ): Promise<TaskRecord | undefined> {
    const now = this.#clock.now();
    this.#sweepIfDue(now);
    const held = this.#live(taskId, now);
    if (held === undefined || held.record.owner !== owner) return undefined;
    const task = held.record;
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
    const next: TaskRecord = structuredClone({
      ...rest,
      status: left === 0 ? "working" : task.status,
      ...(left === 0 ? {} : { inputRequests: outstanding }),
      inputResponses: answered,
      lastUpdatedAtMs: nowMs,
    });
    this.#replace(taskId, held, next, now);
    return copy(next);
  }

  async takeInputResponses(taskId: string, holder: string): Promise<Readonly<Record<string, unknown>>> {
    const now = this.#clock.now();
    this.#sweepIfDue(now);
    const held = this.#live(taskId, now);
    if (
      held === undefined ||
      held.record.lease?.holder !== holder ||
      held.record.inputResponses === undefined
    ) {
      return {};
    }
    const { inputResponses, ...rest } = held.record;
    this.#replace(taskId, held, rest, now);
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
      .filter((held) => held.record.owner === owner && !expired(held.record, now) && held.place < after)
      .reverse();
    const page = mine.slice(0, options.limit);
    const last = page.at(-1);
    const more = options.limit < mine.length;
    return {
      tasks: page.map((held) => copy(held.record)),
      ...(more && last !== undefined ? { nextCursor: `m${last.place}` } : {}),
    };
  }

  /** The task when held and not expired (an expired one is dropped). */
  #live(taskId: string, now: number): Held | undefined {
    const held = this.#tasks.get(taskId);
    if (held === undefined) return undefined;
    if (expired(held.record, now)) {
      this.#drop(taskId);
      return undefined;
    }
    return held;
  }

  /**
   * Puts `next` in place of the held task, counting its size; makes room when it grows.
   *
   * @throws StateUnavailableError when a running task grows and no room can be made.
   */
  #replace(taskId: string, held: Held, next: TaskRecord, now: number): void {
    const bytes = bytesOf(next);
    const growth = bytes - held.bytes;
    if (growth > 0) {
      const terminal = isTerminalTaskStatus(next.status);
      if (!this.#makeRoom(now, { bytes: growth, keep: taskId, force: terminal }) && !terminal) {
        throw new StateUnavailableError(
          `The MemoryTaskStore holds its maximum of ${this.maxBytes} bytes of tasks and has no room for ${growth} more bytes of a running task`,
        );
      }
    }
    held.record = next;
    held.bytes = bytes;
    this.#bytes += growth;
  }

  #drop(taskId: string): void {
    const held = this.#tasks.get(taskId);
    if (held === undefined) return;
    this.#tasks.delete(taskId);
    this.#bytes -= held.bytes;
  }

  /** Drops every expired task when the last sweep is a second old or more. */
  #sweepIfDue(now: number): void {
    if (now >= this.#sweptAtMs && now - this.#sweptAtMs < SWEEP_INTERVAL_MS) return;
    this.#sweep(now);
  }

  #sweep(now: number): void {
    for (const [id, held] of this.#tasks) if (expired(held.record, now)) this.#drop(id);
    this.#sweptAtMs = now;
  }

  /**
   * Makes room for `need.bytes` more bytes (and one more task when `need.task`): drops expired
   * tasks, then terminal ones oldest first (never `need.keep`), these only when that makes enough
   * room unless `need.force`. False when there is not enough room after.
   */
  #makeRoom(
    now: number,
    need: {
      readonly bytes: number;
      readonly task?: boolean;
      readonly keep?: string;
      readonly force?: boolean;
    },
  ): boolean {
    const fits = (bytes: number, count: number) =>
      bytes + need.bytes <= this.maxBytes && (need.task !== true || count < this.maxTasks);
    if (fits(this.#bytes, this.#tasks.size)) return true;
    this.#sweep(now);
    let bytes = this.#bytes;
    let count = this.#tasks.size;
    if (fits(bytes, count)) return true;
    const dropped: string[] = [];
    for (const [id, held] of this.#tasks) {
      if (id === need.keep || !isTerminalTaskStatus(held.record.status)) continue;
      dropped.push(id);
      bytes -= held.bytes;
      count -= 1;
      if (fits(bytes, count)) break;
    }
    const enough = fits(bytes, count);
    if (enough || need.force === true) for (const id of dropped) this.#drop(id);
    return enough;
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

/** The size a record counts for: its JSON text's length in UTF-8. */
function bytesOf(task: TaskRecord): number {
  const text = JSON.stringify(task);
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair (JSON.stringify escapes lone surrogates): 4 bytes for 2 units.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
