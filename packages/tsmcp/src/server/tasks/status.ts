/**
 * What a running task tells others about itself: its status message, set by its work and written
 * coalesced (the latest wins), and the publication of its status changes, which starts once the
 * task is announced (handed its work's outcome, or first asking its client something) so that a
 * task withdrawn unseen is never published. Spec: https://github.com/modelcontextprotocol/ext-tasks
 * (specification/draft/tasks.md §Task Status Notifications).
 */
import type { TaskRecord, TaskStore } from "../../state/task-store.js";

/** What a {@link TaskStatusWriter} needs of its run. */
export interface StatusChannel {
  readonly taskId: string;
  /** The holder of the run's lease (the store refuses writes of anyone else). */
  readonly holder: string;
  /** Where the run is: before its task exists, running here, or no more. */
  phase(): "before" | "running" | "ended";
  /** Runs one store write of the run, after the run's earlier writes. */
  write<T>(op: (store: TaskStore) => Promise<T>): Promise<T>;
  /** Publishes a status change to every listener. */
  publish(record: TaskRecord): void;
  /** The current time, epoch milliseconds. */
  now(): number;
  /** Reports a failed write that the work does not see. */
  warn(message: string, error: unknown): void;
}

/** The status message and the status publication of one task's run. */
export class TaskStatusWriter {
  readonly #channel: StatusChannel;
  #announced = false;
  #unannounced: TaskRecord | undefined;
  #message: string | undefined;
  #flushing: Promise<void> | undefined;

  constructor(channel: StatusChannel) {
    this.#channel = channel;
  }

  /** The message set before the task was created, to be its first. */
  get initialMessage(): string | undefined {
    return this.#message;
  }

  /**
   * The task was created as `record` (with `initialMessage` as it was then): kept to be published
   * first, and a message set meanwhile is written.
   */
  created(record: TaskRecord, initialMessage: string | undefined): void {
    this.#unannounced = record;
    if (this.#message === initialMessage) this.#message = undefined;
    else void this.setMessage(this.#message as string);
  }

  /**
   * Sets the status message: kept for the record before the task exists, written (coalesced)
   * while it runs, dropped after. Resolves once written or dropped.
   *
   * @throws TypeError for a message that is not a string.
   */
  async setMessage(message: string): Promise<void> {
    if (typeof message !== "string") throw new TypeError("setStatusMessage: message must be a string");
    const phase = this.#channel.phase();
    if (phase === "before") {
      this.#message = message;
      return;
    }
    if (phase !== "running") return;
    this.#message = message;
    this.#flushing ??= this.#flush().finally(() => {
      this.#flushing = undefined;
    });
    await this.#flushing;
  }

  /** Publishes a change of the task once it is announced; until then keeps the latest. */
  changed(record: TaskRecord): void {
    if (this.#announced) this.#channel.publish(record);
    else this.#unannounced = record;
  }

  /** Publishes the task from now on, starting with its latest change. */
  announce(): void {
    if (this.#announced) return;
    this.#announced = true;
    const latest = this.#unannounced;
    this.#unannounced = undefined;
    if (latest !== undefined) this.#channel.publish(latest);
  }

  /** Forgets the unpublished changes of a task withdrawn unseen. */
  forget(): void {
    this.#unannounced = undefined;
  }

  async #flush(): Promise<void> {
    const channel = this.#channel;
    while (this.#message !== undefined && channel.phase() === "running") {
      const statusMessage = this.#message;
      this.#message = undefined;
      const updated = await channel
        .write((store) =>
          store.update(
            channel.taskId,
            { statusMessage, lastUpdatedAtMs: channel.now() },
            { leaseHolder: channel.holder },
          ),
        )
        .catch((error: unknown) => {
          channel.warn("writing a task's status message failed", error);
          return undefined;
        });
      if (updated !== undefined) this.changed(updated);
    }
  }
}
