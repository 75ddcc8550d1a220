/**
 * Task messages between the replicas of a fleet, over the `MessageBus`: every status change of a
 * task goes to every replica (topic {@link TASKS_BUS_TOPIC}), so each delivers `notifications/tasks`
 * to its own listen streams; answers and cancels go to the replica running the task (topic
 * `tsmcp:task:{taskId}`). Without a bus, status changes are delivered in this process only. The bus
 * is an accelerator: the store stays the truth, and a runner that misses a message picks the change
 * up from the store at its next lease renewal.
 */
import { MAX_QUOTED_LENGTH, truncate } from "../../protocol/text.js";
import type { BusMessage, BusSubscription, MessageBus } from "../../state/message-bus.js";
import type { TaskRecord, TaskStatus } from "../../state/task-store.js";
import type { LogFields } from "../logger.js";

/** The bus topic every replica hears each task's status changes on. */
export const TASKS_BUS_TOPIC = "tsmcp:tasks";

/** The bus topic of the messages for the replica running task `taskId`. */
export function taskBusTopic(taskId: string): string {
  return `tsmcp:task:${taskId}`;
}

/**
 * A task as its status changes are published: the record without what only its runner reads (the
 * original request, answers not yet taken, the lease).
 */
export type TaskSnapshot = Omit<TaskRecord, "request" | "inputResponses" | "lease">;

/** A message to the replica running a task: answers arrived (`input`), or it was cancelled (`cancel`). */
export type TaskRunnerMessage = { readonly type: "input" } | { readonly type: "cancel" };

/** Hears every status change of every task (on this replica, and through the bus on the others). */
export type TaskChangeListener = (task: TaskSnapshot) => void;

/** Where the fan-out reports; must not throw. */
export type FanoutLog = (level: "warn" | "error", message: string, fields: LogFields) => void;

/** How many published change ids a replica remembers, to skip the bus's copy of its own. */
const REMEMBERED_CHANGE_IDS = 1000;

const STATUSES: ReadonlySet<unknown> = new Set([
  "working",
  "input_required",
  "completed",
  "failed",
  "cancelled",
]);

/** The snapshot of `record`. */
export function snapshotOf(record: TaskRecord): TaskSnapshot {
  const { request: _request, inputResponses: _answers, lease: _lease, ...snapshot } = record;
  return snapshot;
}

/** The snapshot a bus message carries, or undefined when it carries none. */
function parseChange(message: BusMessage): { id: string; task: TaskSnapshot } | undefined {
  const task = message.task as Record<string, unknown> | undefined;
  if (
    message.type !== "status" ||
    typeof message.id !== "string" ||
    typeof task !== "object" ||
    task === null
  ) {
    return undefined;
  }
  if (typeof task.taskId !== "string" || typeof task.owner !== "string" || !STATUSES.has(task.status)) {
    return undefined;
  }
  return {
    id: message.id,
    task: { ...(task as unknown as TaskSnapshot), status: task.status as TaskStatus },
  };
}

/** The status fan-out and the runner messages of one `TaskManager`. */
export class TaskFanout {
  readonly #bus: MessageBus | undefined;
  readonly #log: FanoutLog;
  readonly #listeners = new Set<TaskChangeListener>();
  #subscription: Promise<BusSubscription | undefined> | undefined;
  readonly #delivered = new Set<string>();

  constructor(bus: MessageBus | undefined, log: FanoutLog) {
    this.#bus = bus;
    this.#log = log;
  }

  /**
   * Adds a listener of every status change; with a bus, the first one subscribes this replica to
   * {@link TASKS_BUS_TOPIC}. Returns the function that removes it.
   */
  onChange(listener: TaskChangeListener): () => void {
    this.#listeners.add(listener);
    const bus = this.#bus;
    if (bus !== undefined && this.#subscription === undefined) {
      this.#subscription = bus
        .subscribe(TASKS_BUS_TOPIC, (message) => this.#receive(message))
        .catch((error: unknown) => {
          this.#log("error", `subscribing to ${TASKS_BUS_TOPIC} failed; task notifications stay local`, {
            error,
          });
          return undefined;
        });
    }
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Tells every replica that `record` changed: delivered here at once, and published on the bus
   * when there is one (the bus's copy of it is not delivered here again). Does nothing without a
   * bus while no one listens here. Never rejects.
   */
  publishChange(record: TaskRecord): void {
    const bus = this.#bus;
    if (bus === undefined && this.#listeners.size === 0) return;
    const task = snapshotOf(record);
    if (bus === undefined) {
      this.#deliver(task);
      return;
    }
    const id = crypto.randomUUID();
    this.#remember(id);
    this.#deliver(task);
    bus.publish(TASKS_BUS_TOPIC, { type: "status", id, task }).catch((error: unknown) => {
      this.#log(
        "error",
        `publishing a task status on ${TASKS_BUS_TOPIC} failed; delivered on this replica only`,
        {
          error,
        },
      );
    });
  }

  /** Sends `message` to the replica running `taskId`, over the bus; does nothing without one. */
  async sendToRunner(taskId: string, message: TaskRunnerMessage): Promise<void> {
    const bus = this.#bus;
    if (bus === undefined) return;
    try {
      await bus.publish(taskBusTopic(taskId), message);
    } catch (error) {
      this.#log("warn", `publishing a task ${message.type} failed; its runner finds it in the store later`, {
        error,
      });
    }
  }

  /**
   * Subscribes the runner of `taskId` to its messages (nothing without a bus). Resolves with the
   * function that unsubscribes it; a failed subscription is logged (the runner then relies on the
   * store alone).
   */
  async subscribeRunner(
    taskId: string,
    onMessage: (message: TaskRunnerMessage) => void,
  ): Promise<() => void> {
    const bus = this.#bus;
    if (bus === undefined) return () => {};
    try {
      const subscription = await bus.subscribe(taskBusTopic(taskId), (message) => {
        if (message.type === "input" || message.type === "cancel") onMessage({ type: message.type });
      });
      return () => {
        subscription.unsubscribe().catch((error: unknown) => {
          this.#log("warn", "unsubscribing a finished task's runner failed", { error });
        });
      };
    } catch (error) {
      this.#log("warn", "subscribing a task's runner to the bus failed; it polls the store instead", {
        error,
      });
      return () => {};
    }
  }

  /** Stops listening to the bus. */
  close(): void {
    const subscription = this.#subscription;
    this.#subscription = undefined;
    this.#listeners.clear();
    void subscription?.then((live) => live?.unsubscribe()).catch(() => {});
  }

  #receive(message: BusMessage): void {
    const change = parseChange(message);
    if (change === undefined) {
      this.#log("warn", `ignored a malformed message on ${TASKS_BUS_TOPIC}`, {
        message: truncate(JSON.stringify(message) ?? "", MAX_QUOTED_LENGTH),
      });
      return;
    }
    if (this.#delivered.has(change.id)) return;
    this.#remember(change.id);
    this.#deliver(change.task);
  }

  #remember(id: string): void {
    this.#delivered.add(id);
    if (this.#delivered.size > REMEMBERED_CHANGE_IDS) {
      this.#delivered.delete(this.#delivered.values().next().value as string);
    }
  }

  #deliver(task: TaskSnapshot): void {
    for (const listener of this.#listeners) {
      try {
        listener(task);
      } catch (error) {
        this.#log("error", "a task status listener failed", { error });
      }
    }
  }
}
