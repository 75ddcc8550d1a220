/**
 * The live 2025-era sessions of one server, for the notifications that belong to no request:
 * `notifications/<kind>/list_changed` to every session that completed `initialize`, and
 * `notifications/resources/updated` to the sessions subscribed to that URI. A session leaves when
 * its `signal` aborts. Spec (2025-11-25): server/tools, server/prompts, server/resources
 * §List Changed Notification, §Subscriptions.
 */
import type { JSONRPCNotification } from "../../protocol/jsonrpc.js";
import type { LegacySession } from "../../transport/dispatcher.js";
import type { LogFields } from "../logger.js";
import type { ListKind } from "../subscriptions.js";

/** The sessions that completed `initialize` and have not ended. */
export class LegacySessions {
  readonly #sessions = new Set<LegacySession>();
  readonly #onError: (message: string, fields: LogFields) => void;

  /** `onError` hears of a session whose `notify` threw (the others are still notified). */
  constructor(onError: (message: string, fields: LogFields) => void) {
    this.#onError = onError;
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Adds a session that completed `initialize`; it leaves when its signal aborts. */
  add(session: LegacySession): void {
    if (session.signal.aborted || this.#sessions.has(session)) return;
    this.#sessions.add(session);
    session.signal.addEventListener("abort", () => this.#sessions.delete(session), { once: true });
  }

  /**
   * Sends `notifications/<kind>/list_changed` to every live session; `onceKey` (a broadcast's id)
   * lets views of one session on several replicas deliver it once.
   */
  publishListChanged(kind: ListKind, onceKey?: string): void {
    this.#send(() => true, { jsonrpc: "2.0", method: `notifications/${kind}/list_changed` }, onceKey);
  }

  /** Sends `notifications/resources/updated` to the live sessions subscribed to `uri` (`onceKey` as above). */
  publishResourceUpdated(uri: string, onceKey?: string): void {
    this.#send(
      (session) => session.resourceSubscriptions.has(uri),
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } },
      onceKey,
    );
  }

  /** Sends `notification` to every live session `to` accepts. */
  publish(notification: JSONRPCNotification, to: (session: LegacySession) => boolean): void {
    this.#send(to, notification, undefined);
  }

  /**
   * Tells every live session that what it holds may have changed (notifications meant for it may
   * have been lost): `notifications/<kind>/list_changed` for each of `kinds` (the lists whose
   * `listChanged` the server declares) and `notifications/resources/updated` for each URI it
   * subscribed to. `onceKey` as above, made distinct per notification.
   */
  publishEverythingChanged(kinds: readonly ListKind[], onceKey?: string): void {
    const key = (part: string) => (onceKey === undefined ? undefined : `${onceKey}:${part}`);
    for (const kind of kinds) {
      this.#send(() => true, { jsonrpc: "2.0", method: `notifications/${kind}/list_changed` }, key(kind));
    }
    const uris = new Set<string>();
    for (const session of this.#sessions) for (const uri of session.resourceSubscriptions) uris.add(uri);
    for (const uri of uris) this.publishResourceUpdated(uri, key(`updated:${uri}`));
  }

  #send(
    to: (session: LegacySession) => boolean,
    notification: JSONRPCNotification,
    onceKey: string | undefined,
  ): void {
    for (const session of this.#sessions) {
      if (session.signal.aborted || !to(session)) continue;
      try {
        if (onceKey === undefined) session.notify(notification);
        else session.notify(notification, { onceKey });
      } catch (error) {
        this.#onError(`sending ${notification.method} to a session failed`, { error });
      }
    }
  }
}
