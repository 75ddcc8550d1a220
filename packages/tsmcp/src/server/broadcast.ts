/**
 * The server's notifications that belong to no request (list_changed, resources/updated), across
 * the replicas of a fleet. Without a bus they are delivered at once to this server's own
 * `subscriptions/listen` streams and 2025-era sessions. With a bus attached they are published on
 * {@link SERVER_BUS_TOPIC}, and every replica, this one included through its own subscription,
 * delivers each message it receives to its own streams and sessions, so a client hears a change
 * made on any replica whichever replica holds its connection.
 *
 * The bus delivers at most once: while a replica's subscription is down (its engine restarting) the
 * notifications published meanwhile never reach it. Such a gap (reported by the bus, or a
 * subscription that failed and was taken again) is handed to the server, which tells every stream
 * and session it holds that what it watches may have changed, so these notifications arrive at
 * least once.
 */
import { MAX_QUOTED_LENGTH, truncate } from "../protocol/text.js";
import type { BusMessage, BusSubscription, MessageBus } from "../state/message-bus.js";
import type { LogFields } from "./logger.js";
import type { ListKind } from "./subscriptions.js";

/** How many delivered event ids a replica remembers, to skip the bus's copy of its own. */
const REMEMBERED_EVENT_IDS = 1000;

/** Milliseconds between attempts to subscribe to the bus after one failed. */
export const SUBSCRIBE_RETRY_MS = 1000;

/** The bus topic the replicas of one server share for its notifications that belong to no request. */
export const SERVER_BUS_TOPIC = "tsmcp:server";

/**
 * One notification to deliver, as it travels on {@link SERVER_BUS_TOPIC}:
 * `{"type":"list_changed","kind":"tools"}` or `{"type":"resource_updated","uri":"notes://1"}`.
 */
export type ServerEvent = (
  | { readonly type: "list_changed"; readonly kind: ListKind }
  | { readonly type: "resource_updated"; readonly uri: string }
) & {
  /**
   * A random id of this notification, the same on every replica: a session whose views several
   * replicas hold gets it once (the `onceKey` of `LegacySession.notify`). Absent without a bus.
   */
  readonly id?: string;
};

const LIST_KINDS: readonly unknown[] = ["tools", "prompts", "resources"];

/** The event a bus message carries, or undefined when it is not one. */
export function parseServerEvent(message: BusMessage): ServerEvent | undefined {
  const id = typeof message.id === "string" && message.id !== "" ? { id: message.id } : {};
  if (message.type === "list_changed" && LIST_KINDS.includes(message.kind)) {
    return { type: "list_changed", kind: message.kind as ListKind, ...id };
  }
  if (message.type === "resource_updated" && typeof message.uri === "string") {
    return { type: "resource_updated", uri: message.uri, ...id };
  }
  return undefined;
}

/** Where a {@link ServerBroadcast} reports; must not throw. */
export type BroadcastLog = (level: "warn" | "error", message: string, fields: LogFields) => void;

/** True for an object with `publish` and `subscribe` functions. */
function isMessageBus(value: unknown): value is MessageBus {
  if (typeof value !== "object" || value === null) return false;
  const bus = value as Partial<MessageBus>;
  return typeof bus.publish === "function" && typeof bus.subscribe === "function";
}

/**
 * Sends a server's {@link ServerEvent}s: straight to `deliver`, or through the attached bus.
 * Several attachments of one bus share one subscription, taken at the first and released at the
 * last detach, so every message is delivered once. Messages this replica publishes go out in the
 * order they were sent, after its own subscription is live (so it hears them too). When the
 * subscription may have missed messages (the bus reports a gap, or it had to be taken again after
 * failing), `onGap` is called (and the gap logged, warn).
 */
export class ServerBroadcast {
  readonly #deliver: (event: ServerEvent) => void;
  readonly #log: BroadcastLog;
  #bus: MessageBus | undefined;
  #attachments = 0;
  /** The live subscription's identity: a message reaching an older one is not delivered. */
  #generation: object | undefined;
  /** Settles with the subscription of this generation, or undefined when subscribing failed. */
  #subscription: Promise<BusSubscription | undefined> | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** The ids of the last events delivered here, so the bus's copy of one sent here is skipped. */
  readonly #delivered = new Set<string>();
  readonly #onGap: () => void;
  /** A subscription of the attached bus failed since the last one was live: the next one starts after a gap. */
  #failed = false;

  /**
   * `deliver` hands an event to this replica's own streams and sessions; `onGap` tells them all
   * that what they watch may have changed (a gap in the bus subscription). Neither may throw
   * (what they throw is logged).
   */
  constructor(deliver: (event: ServerEvent) => void, log: BroadcastLog, onGap: () => void = () => {}) {
    this.#deliver = deliver;
    this.#log = log;
    this.#onGap = onGap;
  }

  /**
   * Delivers `event` now (no bus attached) or publishes it on the attached bus, with a fresh id.
   * Resolves `true` once delivered or published, `false` when publishing failed (then it was
   * delivered on this replica only); never rejects.
   */
  send(event: ServerEvent): Promise<boolean> {
    const bus = this.#bus;
    if (bus === undefined) {
      this.#deliver(event);
      return Promise.resolve(true);
    }
    const published = this.#queue.then(() => this.#publish(bus, { ...event, id: crypto.randomUUID() }));
    this.#queue = published.then(
      () => {},
      (error: unknown) => this.#log("error", `sending ${event.type} failed`, { error }),
    );
    return published.catch(() => false);
  }

  /**
   * Attaches `bus`; see `Dispatcher.attachBus`.
   *
   * @throws TypeError when `bus` is not a `MessageBus`, or while another bus is attached.
   */
  attach(bus: MessageBus, owner: string): () => void {
    if (!isMessageBus(bus)) {
      throw new TypeError(`${owner}.attachBus: bus must be a MessageBus (with publish and subscribe)`);
    }
    if (this.#bus !== undefined && this.#bus !== bus) {
      throw new TypeError(
        `${owner}.attachBus: another MessageBus is attached; every handler serving one server shares one bus`,
      );
    }
    this.#bus = bus;
    this.#attachments++;
    if (this.#attachments === 1) this.#subscribe(bus);
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.#attachments--;
      if (this.#attachments === 0) this.#detach();
    };
  }

  #subscribe(bus: MessageBus): Promise<BusSubscription | undefined> {
    const generation = {};
    this.#generation = generation;
    const subscription = bus
      .subscribe(
        SERVER_BUS_TOPIC,
        (message) => {
          if (this.#generation === generation) this.#receive(message);
        },
        {
          onGap: () => {
            if (this.#generation === generation) this.#gap();
          },
        },
      )
      .then(
        (live) => {
          // Taken again after a failure: what was published while there was none never came here.
          if (this.#generation === generation && this.#failed) {
            this.#failed = false;
            this.#gap();
          }
          return live;
        },
        (error: unknown) => {
          this.#log("error", `subscribing to ${SERVER_BUS_TOPIC} failed; retrying`, { error });
          if (this.#generation === generation) {
            this.#failed = true;
            this.#subscription = undefined;
            this.#retryLater(bus, generation);
          }
          return undefined;
        },
      );
    this.#subscription = subscription;
    return subscription;
  }

  /**
   * Subscribes again after {@link SUBSCRIBE_RETRY_MS} unless something else did first (a
   * notification sent meanwhile) or the bus was detached, so a replica whose subscription failed
   * (its engine was restarting) hears the other replicas again without sending anything itself.
   */
  #retryLater(bus: MessageBus, generation: object): void {
    const timer = setTimeout(() => {
      if (this.#generation === generation && this.#bus === bus && this.#subscription === undefined) {
        this.#subscribe(bus);
      }
    }, SUBSCRIBE_RETRY_MS);
    (timer as { unref?: () => void }).unref?.();
  }

  /** The subscription may have missed messages: everything this replica's streams watch may have changed. */
  #gap(): void {
    this.#log(
      "warn",
      `the subscription to ${SERVER_BUS_TOPIC} may have missed notifications; telling every stream and session what it holds may have changed`,
      {},
    );
    try {
      this.#onGap();
    } catch (error) {
      this.#log("error", "telling streams and sessions of a gap failed", { error });
    }
  }

  #detach(): void {
    const subscription = this.#subscription;
    this.#bus = undefined;
    this.#generation = undefined;
    this.#failed = false;
    this.#subscription = undefined;
    void subscription
      ?.then((live) => live?.unsubscribe())
      .catch((error: unknown) => {
        this.#log("warn", `unsubscribing from ${SERVER_BUS_TOPIC} failed`, { error });
      });
  }

  async #publish(bus: MessageBus, event: ServerEvent): Promise<boolean> {
    if (this.#bus !== bus) {
      // Detached since it was sent: delivered as without a bus.
      this.#deliverSafely(event);
      return true;
    }
    if (this.#subscription === undefined) this.#subscribe(bus);
    // This replica delivers its own notification at once rather than waiting for the bus to bring
    // it back: while the bus reconnects (its engine restarting) its subscription may miss it. The
    // copy the bus brings back is recognised by its id and not delivered again.
    this.#deliverOnce(event);
    try {
      await bus.publish(SERVER_BUS_TOPIC, event);
    } catch (error) {
      // A duplicate list_changed costs a client one more list; a lost one leaves it stale.
      this.#log(
        "error",
        `publishing ${event.type} on ${SERVER_BUS_TOPIC} failed; delivered on this replica only`,
        {
          error,
        },
      );
      return false;
    }
    return true;
  }

  #receive(message: BusMessage): void {
    const event = parseServerEvent(message);
    if (event === undefined) {
      this.#log("warn", `ignored a malformed message on ${SERVER_BUS_TOPIC}`, {
        message: truncate(safeJson(message), MAX_QUOTED_LENGTH),
      });
      return;
    }
    this.#deliverOnce(event);
  }

  /** Delivers `event` unless an event of the same id was delivered here already. */
  #deliverOnce(event: ServerEvent): void {
    if (event.id !== undefined) {
      if (this.#delivered.has(event.id)) return;
      this.#delivered.add(event.id);
      if (this.#delivered.size > REMEMBERED_EVENT_IDS) {
        this.#delivered.delete(this.#delivered.values().next().value as string);
      }
    }
    this.#deliverSafely(event);
  }

  #deliverSafely(event: ServerEvent): void {
    try {
      this.#deliver(event);
    } catch (error) {
      this.#log("error", `delivering ${event.type} failed`, { error });
    }
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
