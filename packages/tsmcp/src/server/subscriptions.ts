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

interface Subscription {
  id: RequestId;
  filter: SubscriptionFilter;
  notify: (notification: JSONRPCNotification) => void;
  end: () => void;
  /** The task owner key of the listener, when the server serves tasks. */
  owner: string | undefined;
}

/** The live listen requests of one server. */
export class SubscriptionHub {
  readonly #subscriptions = new Set<Subscription>();

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
        end: () => {
          stopListening();
          this.#subscriptions.delete(subscription);
          resolve("closed");
        },
      };
      const stopListening = onAbort(signal, () => {
        this.#subscriptions.delete(subscription);
        resolve("aborted");
      });
      notify(tagged(id, "notifications/subscriptions/acknowledged", { notifications: filter }));
      this.#subscriptions.add(subscription);
    });
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
   * `owner` that it changed, with `task` (the full `DetailedTask`) as the params.
   */
  publishTask(owner: string, taskId: string, task: Record<string, unknown>): void {
    for (const subscription of this.#subscriptions) {
      if (subscription.owner === owner && subscription.filter.taskIds?.includes(taskId) === true) {
        subscription.notify(tagged(subscription.id, "notifications/tasks", task));
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
