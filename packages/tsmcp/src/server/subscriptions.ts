/**
 * `subscriptions/listen`: long-lived requests that receive the list-changed, resource-updated and
 * task-status (`notifications/tasks`, the tasks extension) notifications they asked for, each tagged
 * with the subscription id (the listen request's id). State lives only as long as the listen request
 * itself. Spec: basic/patterns/subscriptions, https://github.com/modelcontextprotocol/ext-tasks
 * (specification/draft/tasks.md §Task Status Notifications).
 */

import { onAbort } from "../protocol/async.js";
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import { resourceCovers } from "../protocol/resource-uri.js";
import type { SubscriptionFilter } from "../protocol/schema/methods.js";
import { META } from "../protocol/versions.js";

/** What a subscription can be told about. */
export type ListKind = "tools" | "prompts" | "resources";

const FILTER_KEY = {
  tools: "toolsListChanged",
  prompts: "promptsListChanged",
  resources: "resourcesListChanged",
} as const satisfies Record<ListKind, keyof SubscriptionFilter>;

/**
 * The most task ids one `subscriptions/listen` request may list in `notifications.taskIds` unless
 * the server's `maxTaskSubscriptions` option says otherwise: 1000. A longer list is refused with
 * -32602. Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md
 * §Task Status Notifications).
 */
export const DEFAULT_MAX_TASK_SUBSCRIPTIONS = 1000;

interface Subscription {
  id: RequestId;
  filter: SubscriptionFilter;
  notify: (notification: JSONRPCNotification) => void;
  end: () => void;
  /** The task owner key of the listener, when the server serves tasks. */
  owner: string | undefined;
  /** The task ids it watches, as indexed in the hub (read from the filter once). */
  taskIds: readonly string[];
}

/** The live listen requests of one server. */
export class SubscriptionHub {
  readonly #subscriptions = new Set<Subscription>();
  /**
   * Task id -> the subscriptions watching it, so a task's change costs the streams watching that
   * task, never a scan of every stream's list.
   */
  readonly #byTaskId = new Map<string, Set<Subscription>>();

  /** How many listen requests are open. */
  get size(): number {
    return this.#subscriptions.size;
  }

  /**
   * Registers a listen request with the filter the server honours; sends the acknowledgement
   * first. `owner` is the listener's task owner key: `notifications/tasks` reach it only for its
   * own tasks. Resolves with `"closed"` when the server ends it, `"aborted"` when the client does.
   */
  listen(
    id: RequestId,
    filter: SubscriptionFilter,
    notify: (notification: JSONRPCNotification) => void,
    signal: AbortSignal,
    owner?: string,
  ): Promise<"closed" | "aborted"> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve("aborted");
        return;
      }
      const subscription: Subscription = {
        id,
        filter,
        notify,
        owner,
        taskIds: [...new Set(filter.taskIds ?? [])],
        end: () => {
          stopListening();
          this.#remove(subscription);
          resolve("closed");
        },
      };
      const stopListening = onAbort(signal, () => {
        this.#remove(subscription);
        resolve("aborted");
      });
      notify(tagged(id, "notifications/subscriptions/acknowledged", { notifications: filter }));
      // A listener that aborted while the acknowledgement went out is already answered.
      if (signal.aborted) return;
      this.#subscriptions.add(subscription);
      for (const taskId of subscription.taskIds) {
        let watching = this.#byTaskId.get(taskId);
        if (watching === undefined) {
          watching = new Set();
          this.#byTaskId.set(taskId, watching);
        }
        watching.add(subscription);
      }
    });
  }

  #remove(subscription: Subscription): void {
    if (!this.#subscriptions.delete(subscription)) return;
    for (const taskId of subscription.taskIds) {
      const watching = this.#byTaskId.get(taskId);
      watching?.delete(subscription);
      if (watching?.size === 0) this.#byTaskId.delete(taskId);
    }
  }

  /** Tells every subscription that asked for it that a list changed. */
  publishListChanged(kind: ListKind): void {
    const key = FILTER_KEY[kind];
    for (const subscription of this.#subscriptions) {
      if (subscription.filter[key] === true) {
        subscription.notify(tagged(subscription.id, `notifications/${kind}/list_changed`, {}));
      }
    }
  }

  /** Tells every subscription watching `uri` (or a resource it contains) that it changed. */
  publishResourceUpdated(uri: string): void {
    for (const subscription of this.#subscriptions) {
      const watched = subscription.filter.resourceSubscriptions ?? [];
      if (watched.some((prefix) => resourceCovers(prefix, uri))) {
        subscription.notify(tagged(subscription.id, "notifications/resources/updated", { uri }));
      }
    }
  }

  /**
   * Tells every subscription that asked for task `taskId` (`taskIds`) and whose listener is its
   * `owner` that it changed, with `task` (the full `DetailedTask`) as the params. Costs the
   * subscriptions watching `taskId`, whatever the others watch.
   */
  publishTask(owner: string, taskId: string, task: Record<string, unknown>): void {
    const watching = this.#byTaskId.get(taskId);
    if (watching === undefined) return;
    for (const subscription of [...watching]) {
      if (subscription.owner === owner) {
        subscription.notify(tagged(subscription.id, "notifications/tasks", task));
      }
    }
  }

  /**
   * Tells every subscription that what it watches may have changed (notifications meant for it may
   * have been lost): `notifications/resources/updated` for each URI in its `resourceSubscriptions`
   * and `notifications/<kind>/list_changed` for each list it asked for (and was granted).
   */
  publishEverythingChanged(): void {
    for (const subscription of [...this.#subscriptions]) {
      for (const uri of new Set(subscription.filter.resourceSubscriptions ?? [])) {
        subscription.notify(tagged(subscription.id, "notifications/resources/updated", { uri }));
      }
      for (const kind of Object.keys(FILTER_KEY) as ListKind[]) {
        if (subscription.filter[FILTER_KEY[kind]] === true) {
          subscription.notify(tagged(subscription.id, `notifications/${kind}/list_changed`, {}));
        }
      }
    }
  }

  /** Ends every subscription gracefully. */
  closeAll(): void {
    for (const subscription of [...this.#subscriptions]) subscription.end();
  }
}

function tagged(id: RequestId, method: string, params: Record<string, unknown>): JSONRPCNotification {
  return { jsonrpc: "2.0", method, params: { ...params, _meta: { [META.subscriptionId]: id } } };
}
