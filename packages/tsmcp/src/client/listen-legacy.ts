/**
 * Listening on a 2025-era session: the same `Subscription` a `subscriptions/listen` stream gives at
 * 2026-07-28, built from what that era has. Each URI of `resourceSubscriptions` is subscribed with
 * `resources/subscribe` (once per session, however many listeners watch it) and unsubscribed with
 * `resources/unsubscribe` when the last listener watching it closes; the server's
 * `notifications/resources/updated` and `notifications/<kind>/list_changed`, wherever they arrive
 * (the standalone GET stream, a request's stream, stdout), go to every listener whose filter asks
 * for them. The acknowledgement carries what the server's `initialize` capabilities let it honour.
 * Spec (2025-11-25): server/resources §Subscriptions, §List Changed Notification; server/tools and
 * server/prompts §List Changed Notification.
 */

import { type Deferred, deferred } from "../protocol/async.js";
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import { resourceCovers } from "../protocol/resource-uri.js";
import type { ServerCapabilities } from "../protocol/schema/base.js";
import type { SubscriptionFilter } from "../protocol/schema/methods.js";
import { META } from "../protocol/versions.js";
import type { ListenNotification, Subscription } from "./session-options.js";

/** What the listeners need from their session. */
export interface LegacyListenersOptions {
  /** Sends `resources/subscribe` or `resources/unsubscribe` for `uri`; rejects when refused. */
  send(method: "resources/subscribe" | "resources/unsubscribe", uri: string): Promise<void>;
  /**
   * Resolves once the server's messages outside a request reach the session (over HTTP, the
   * standalone GET stream is open or refused).
   */
  ready(): Promise<void>;
  /** Hears of a re-subscription that failed after the session was renewed. */
  onResubscribeError(uri: string, error: unknown): void;
}

interface Listener {
  readonly filter: SubscriptionFilter;
  readonly onNotification: (notification: ListenNotification) => void;
  readonly acknowledgement: Deferred<SubscriptionFilter>;
  readonly closed: Deferred<void>;
  acknowledged: boolean;
  open: boolean;
}

interface Watched {
  count: number;
  subscribed: Promise<void>;
}

/** The list-changed notification each filter flag asks for. */
const LIST_CHANGED = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
} as const;

/**
 * The part of `requested` a 2025-era server with `capabilities` honours: a list's changes when it
 * declares that list's `listChanged`, resource updates when it declares `resources.subscribe`.
 */
export function legacyHonouredFilter(
  requested: SubscriptionFilter,
  capabilities: ServerCapabilities | undefined,
): SubscriptionFilter {
  const honoured: SubscriptionFilter = {};
  if (requested.toolsListChanged === true && capabilities?.tools?.listChanged === true) {
    honoured.toolsListChanged = true;
  }
  if (requested.promptsListChanged === true && capabilities?.prompts?.listChanged === true) {
    honoured.promptsListChanged = true;
  }
  if (requested.resourcesListChanged === true && capabilities?.resources?.listChanged === true) {
    honoured.resourcesListChanged = true;
  }
  if (requested.resourceSubscriptions !== undefined && capabilities?.resources?.subscribe === true) {
    honoured.resourceSubscriptions = [...requested.resourceSubscriptions];
  }
  return honoured;
}

/** The listeners of one 2025-era session. */
export class LegacyListeners {
  readonly #options: LegacyListenersOptions;
  readonly #listeners = new Set<Listener>();
  /** The subscribed URIs, with how many open listeners watch each. */
  readonly #watched = new Map<string, Watched>();
  /** The `resources/unsubscribe` in flight per URI: a new subscription waits for it. */
  readonly #leaving = new Map<string, Promise<void>>();

  constructor(options: LegacyListenersOptions) {
    this.#options = options;
  }

  /**
   * Opens a listener for the `honoured` part of a filter (see {@link legacyHonouredFilter}):
   * subscribes its URIs, then acknowledges once the session receives the server's messages.
   */
  open(
    id: RequestId,
    honoured: SubscriptionFilter,
    onNotification: (notification: ListenNotification) => void,
  ): Subscription {
    const listener: Listener = {
      filter: honoured,
      onNotification,
      acknowledgement: deferred<SubscriptionFilter>({ handled: true }),
      closed: deferred<void>({ handled: true }),
      acknowledged: false,
      open: true,
    };
    this.#listeners.add(listener);
    const uris = [...new Set(honoured.resourceSubscriptions ?? [])];
    const subscribed = uris.map((uri) => this.#retain(uri));
    const { acknowledgement } = listener;
    Promise.all(subscribed)
      .then(() => this.#options.ready())
      .then(
        () => {
          if (!listener.open) return;
          listener.acknowledged = true;
          acknowledgement.resolve(structuredClone(honoured));
        },
        (error: unknown) => {
          if (!listener.open) return;
          acknowledgement.reject(error);
          void this.#close(listener, uris).then(() => listener.closed.reject(error));
        },
      );
    const close = () => {
      if (!listener.open) return;
      acknowledgement.reject(new Error("subscription closed"));
      void this.#close(listener, uris).then(() => listener.closed.resolve());
    };
    return { id, acknowledged: acknowledgement.promise, closed: listener.closed.promise, close };
  }

  /**
   * Hands a notification to every acknowledged listener whose filter asks for it. A notification
   * tagged with a `subscriptions/listen` id belongs to that stream and is left alone.
   *
   * @throws the first error a listener threw (after every listener had its turn).
   */
  deliver(notification: JSONRPCNotification): void {
    if (this.#listeners.size === 0) return;
    const meta = notification.params?._meta as Record<string, unknown> | undefined;
    if (meta?.[META.subscriptionId] !== undefined) return;
    let failure: { error: unknown } | undefined;
    for (const listener of this.#listeners) {
      if (!listener.acknowledged || !wants(listener.filter, notification)) continue;
      try {
        listener.onNotification(notification);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure !== undefined) throw failure.error;
  }

  /**
   * Subscribes every watched URI again with `resubscribe` (a renewed session, after a new
   * `initialize`, starts with none). Resolves when every answer is in; never rejects: failures go
   * to `onResubscribeError`.
   */
  async resubscribeAll(resubscribe: (uri: string) => Promise<void>): Promise<void> {
    await Promise.all(
      [...this.#watched].map(([uri, watched]) => {
        watched.subscribed = resubscribe(uri);
        return watched.subscribed.catch((error: unknown) => this.#options.onResubscribeError(uri, error));
      }),
    );
  }

  /** Ends every listener without a word to the server (the connection is closing). */
  closeAll(): void {
    for (const listener of this.#listeners) {
      listener.open = false;
      listener.acknowledgement.reject(new Error("subscription closed"));
      listener.closed.resolve();
    }
    this.#listeners.clear();
    this.#watched.clear();
    this.#leaving.clear();
  }

  #retain(uri: string): Promise<void> {
    let watched = this.#watched.get(uri);
    if (watched === undefined) {
      const leaving = this.#leaving.get(uri) ?? Promise.resolve();
      const subscribed = leaving.then(() => this.#options.send("resources/subscribe", uri));
      subscribed.catch(() => {});
      watched = { count: 0, subscribed };
      this.#watched.set(uri, watched);
    }
    watched.count++;
    return watched.subscribed;
  }

  async #close(listener: Listener, uris: readonly string[]): Promise<void> {
    listener.open = false;
    this.#listeners.delete(listener);
    await Promise.all(uris.map((uri) => this.#release(uri)));
  }

  /** Unsubscribes `uri` when no open listener watches it any more; never rejects. */
  #release(uri: string): Promise<void> {
    const watched = this.#watched.get(uri);
    if (watched === undefined || --watched.count > 0) return Promise.resolve();
    this.#watched.delete(uri);
    const leaving = watched.subscribed
      .then(() => this.#options.send("resources/unsubscribe", uri))
      .catch(() => {});
    this.#leaving.set(uri, leaving);
    void leaving.then(() => {
      if (this.#leaving.get(uri) === leaving) this.#leaving.delete(uri);
    });
    return leaving;
  }
}

/** True when `filter` asks for `notification`. */
function wants(filter: SubscriptionFilter, notification: JSONRPCNotification): boolean {
  if (notification.method === "notifications/resources/updated") {
    const uri = notification.params?.uri;
    return (
      typeof uri === "string" &&
      (filter.resourceSubscriptions ?? []).some((watched) => resourceCovers(watched, uri))
    );
  }
  const flag = LIST_CHANGED[notification.method as keyof typeof LIST_CHANGED];
  return flag !== undefined && filter[flag] === true;
}
