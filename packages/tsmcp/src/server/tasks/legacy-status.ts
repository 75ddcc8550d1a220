/**
 * `notifications/tasks/status` on 2025-11-25 sessions: a session that created a task on this
 * replica is sent the full `Task` (without related-task `_meta`) at each change of its status or
 * status message, on its standalone stream, until the task is terminal or the session ends. The
 * notification is optional in that revision (clients keep polling `tasks/get`); a change made while
 * no replica that created it is listening (without a bus, on another replica) is not notified.
 * Spec (2025-11-25): https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 * §Task Status Notification.
 */
import { isTerminalTaskStatus } from "../../state/task-store.js";
import type { LegacySession } from "../../transport/dispatcher.js";
import type { TaskSnapshot } from "./fanout.js";
import { toLegacyTask } from "./legacy-wire.js";
import type { TaskManager } from "./manager.js";

/** The sessions to tell about the tasks they created, by task id. */
export class LegacyTaskStatus {
  readonly #watched = new Map<string, { session: LegacySession; forget: () => void }>();
  readonly #onError: (error: unknown) => void;
  readonly #stopListening: () => void;

  /** Listens to `tasks`' changes (until {@link LegacyTaskStatus.close}); `onError` hears of a session whose `notify` threw. */
  constructor(tasks: TaskManager, onError: (error: unknown) => void) {
    this.#onError = onError;
    this.#stopListening = tasks.onChange((task) => this.#changed(task));
  }

  /** Stops listening to the manager's changes and forgets every watched task. */
  close(): void {
    this.#stopListening();
    for (const { forget } of [...this.#watched.values()]) forget();
  }

  /** How many tasks are watched. */
  get size(): number {
    return this.#watched.size;
  }

  /** Tells `session` about the changes of task `taskId` from now on. */
  watch(taskId: string, session: LegacySession): void {
    if (session.signal.aborted || this.#watched.has(taskId)) return;
    const forget = () => {
      session.signal.removeEventListener("abort", forget);
      this.#watched.delete(taskId);
    };
    session.signal.addEventListener("abort", forget, { once: true });
    this.#watched.set(taskId, { session, forget });
  }

  #changed(task: TaskSnapshot): void {
    const watched = this.#watched.get(task.taskId);
    if (watched === undefined) return;
    const params = toLegacyTask(task);
    if (isTerminalTaskStatus(task.status)) watched.forget();
    try {
      watched.session.notify({ jsonrpc: "2.0", method: "notifications/tasks/status", params });
    } catch (error) {
      this.#onError(error);
    }
  }
}
