/**
 * The options of a `TaskManager` and their defaults, checked when the manager is built: where tasks
 * live (`store`), how replicas talk about them (`bus`), how long they are kept, how often clients
 * should poll, how long a running replica's claim on a task holds, and the caps that keep one caller
 * or one result from exhausting the server. Spec: https://github.com/modelcontextprotocol/ext-tasks
 * (specification/draft/tasks.md).
 */
import { randomUUID } from "node:crypto";
import { type Clock, checkClock } from "../../protocol/clock.js";
import { checkLogger, type Logger } from "../../protocol/logger.js";
import { checkInteger, checkString, isObject, optionTypeError } from "../../protocol/options.js";
import type { MessageBus } from "../../state/message-bus.js";
import { isMessageBus } from "../../state/stores.js";
import { isTaskStore, type TaskStore } from "../../state/task-store.js";

/** How long a task is kept after its creation by default, milliseconds: 1 hour. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
/** The longest a task may be kept by default, milliseconds: 24 hours. */
export const DEFAULT_MAX_TASK_TTL_MS = 86_400_000;
/** The polling interval suggested to clients by default, milliseconds: 1 second. */
export const DEFAULT_TASK_POLL_INTERVAL_MS = 1000;
/**
 * How long a running replica's claim on a task holds unless renewed, by default, milliseconds: 15
 * seconds. The runner renews it every third of that.
 */
export const DEFAULT_TASK_LEASE_MS = 15_000;
/** The most non-terminal tasks one principal may have at once, by default. */
export const DEFAULT_MAX_ACTIVE_TASKS_PER_PRINCIPAL = 100;
/** The largest result a task keeps by default, bytes of UTF-8 JSON: 1 MiB. */
export const DEFAULT_MAX_TASK_RESULT_BYTES = 1_048_576;
/** The shortest lease a manager takes, milliseconds (renewed every third of it). */
export const MIN_TASK_LEASE_MS = 30;

/** Options of a `TaskManager`; every one is checked when the manager is built. */
export interface TaskOptions {
  /**
   * Where tasks live. Default a `MemoryTaskStore` of this manager (one process); a fleet gives
   * every replica the same shared store (e.g. tsmcp-redis), so that any replica answers for a task
   * another one runs.
   */
  store?: TaskStore;
  /**
   * Carries task messages between replicas: an answer (`tasks/update`) or a cancel to the replica
   * running the task (topic `tsmcp:task:{taskId}`), and status changes to every replica's
   * `subscriptions/listen` streams (topic `tsmcp:tasks`). Default none: one process, delivered in
   * memory. Without a bus, a runner still picks up answers and cancellation from the store at every
   * lease renewal.
   */
  bus?: MessageBus;
  /**
   * How long a task is kept after creation, milliseconds, from 1. A task still running when its TTL
   * nears is ended `failed` (-32603, "The task ran past its time to live") a lease renewal
   * (`leaseMs / 3`, at most half the TTL) before it expires, and its work aborted, so a running
   * task never just disappears: give work that may run long a TTL longer than it. Default
   * {@link DEFAULT_TASK_TTL_MS}.
   */
  defaultTtlMs?: number;
  /**
   * The longest TTL a task may ask for (the 2025-11-25 `params.task.ttl`), milliseconds, at least
   * `defaultTtlMs`; a task running near its TTL ends as `defaultTtlMs` says. Default
   * {@link DEFAULT_MAX_TASK_TTL_MS}, or `defaultTtlMs` when that is longer.
   */
  maxTtlMs?: number;
  /** The polling interval suggested to clients, milliseconds, from 1. Default {@link DEFAULT_TASK_POLL_INTERVAL_MS}. */
  pollIntervalMs?: number;
  /**
   * How long the running replica's claim on a task holds unless renewed, milliseconds, from
   * {@link MIN_TASK_LEASE_MS}; renewed every third of it. A task whose claim lapsed (its replica
   * stopped) reads as `failed`. Default {@link DEFAULT_TASK_LEASE_MS}.
   */
  leaseMs?: number;
  /**
   * The most non-terminal tasks one principal (one owner) may have at once, from 1, and the most
   * handlers of its tasks one replica runs at once: a cancelled task's handler that ignores its
   * signal counts until it returns. One more is refused with -32600 (`too_many_tasks`) before its
   * handler starts. Without auth every caller is the one anonymous owner and shares this limit.
   * Default {@link DEFAULT_MAX_ACTIVE_TASKS_PER_PRINCIPAL}.
   */
  maxActivePerPrincipal?: number;
  /**
   * The largest result a task keeps, bytes of its UTF-8 JSON, from 1; a larger one fails the task
   * with -32603. Default {@link DEFAULT_MAX_TASK_RESULT_BYTES}.
   */
  maxResultBytes?: number;
  /** This replica's id, the holder named in its leases. Default a random UUID per manager. */
  instanceId?: string;
  /**
   * The time tasks are stamped and leases judged with; its `sleep` paces the manager's polls and
   * retries (the system timers for a clock with only `now()`). Default the system clock.
   */
  clock?: Clock;
  /** Where diagnostics go (a failed write, a task's internal error). Default: warnings and errors to stderr. */
  logger?: Logger;
}

/** The options with every default filled in. */
export interface ResolvedTaskOptions {
  readonly store: TaskStore | undefined;
  readonly bus: MessageBus | undefined;
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  readonly maxActivePerPrincipal: number;
  readonly maxResultBytes: number;
  readonly instanceId: string;
  readonly clock: Clock | undefined;
  readonly logger: Logger | undefined;
}

/**
 * Checks `options` and fills in the defaults.
 *
 * @throws TypeError naming the option for one of the wrong type (a `store` that is not a
 *   `TaskStore`, a `bus` that is not a `MessageBus`, an empty `instanceId`, ...); RangeError for a
 *   number out of range (below its minimum, or a `maxTtlMs` below `defaultTtlMs`).
 */
export function resolveTaskOptions(owner: string, options: unknown): ResolvedTaskOptions {
  if (!isObject(options)) throw new TypeError(`${owner} options must be an object`);
  const o = options as TaskOptions;
  if (o.store !== undefined && !isTaskStore(o.store)) throw optionTypeError(owner, "store", "a TaskStore");
  if (o.bus !== undefined && !isMessageBus(o.bus)) throw optionTypeError(owner, "bus", "a MessageBus");
  checkInteger(owner, "defaultTtlMs", o.defaultTtlMs, { min: 1, unit: "milliseconds" });
  checkInteger(owner, "maxTtlMs", o.maxTtlMs, { min: 1, unit: "milliseconds" });
  checkInteger(owner, "pollIntervalMs", o.pollIntervalMs, { min: 1, unit: "milliseconds" });
  checkInteger(owner, "leaseMs", o.leaseMs, { min: MIN_TASK_LEASE_MS, unit: "milliseconds" });
  checkInteger(owner, "maxActivePerPrincipal", o.maxActivePerPrincipal, { min: 1, unit: "tasks" });
  checkInteger(owner, "maxResultBytes", o.maxResultBytes, { min: 1, unit: "bytes" });
  checkString(owner, "instanceId", o.instanceId);
  if (o.instanceId === "") throw new TypeError(`${owner} option "instanceId" must not be empty`);
  checkClock(owner, o.clock);
  if (o.logger !== undefined) checkLogger(o.logger, owner);
  const defaultTtlMs = o.defaultTtlMs ?? DEFAULT_TASK_TTL_MS;
  const maxTtlMs = o.maxTtlMs ?? Math.max(DEFAULT_MAX_TASK_TTL_MS, defaultTtlMs);
  if (maxTtlMs < defaultTtlMs) {
    throw new RangeError(
      `${owner} option "maxTtlMs" must be at least defaultTtlMs (${defaultTtlMs}), got ${maxTtlMs}`,
    );
  }
  return {
    store: o.store,
    bus: o.bus,
    defaultTtlMs,
    maxTtlMs,
    pollIntervalMs: o.pollIntervalMs ?? DEFAULT_TASK_POLL_INTERVAL_MS,
    leaseMs: o.leaseMs ?? DEFAULT_TASK_LEASE_MS,
    maxActivePerPrincipal: o.maxActivePerPrincipal ?? DEFAULT_MAX_ACTIVE_TASKS_PER_PRINCIPAL,
    maxResultBytes: o.maxResultBytes ?? DEFAULT_MAX_TASK_RESULT_BYTES,
    instanceId: o.instanceId ?? randomUUID(),
    clock: o.clock,
    logger: o.logger,
  };
}
