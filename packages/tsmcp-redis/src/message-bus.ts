/**
 * The Redis `MessageBus`: Redis Pub/Sub, published on the command connection and received on
 * a connection of its own, with a bounded local delivery queue.
 */
import type { BusMessage, BusSubscribeOptions, BusSubscription, MessageBus } from "tsmcp/state";
import { type RedisClientLike, runCommand, unavailable } from "./client.js";
import {
  checkClient,
  integerOption,
  type RedisStoreOptions,
  type StoreSettings,
  storeSettings,
} from "./options.js";

/** Deliveries waiting at most, by default, before new messages are dropped and counted: 10 000. */
export const DEFAULT_REDIS_BUS_MAX_PENDING = 10_000;

/** Options of a {@link RedisMessageBus}. */
export interface RedisMessageBusOptions extends RedisStoreOptions {
  /** Deliveries waiting at most, from 1. Default {@link DEFAULT_REDIS_BUS_MAX_PENDING}. */
  maxPending?: number;
  /**
   * Receives what a subscriber (or its `onGap`) threw, a message that was not JSON, and each
   * dropped message (an `Error` naming the topic and the count so far). Default: ignored.
   */
  onError?: (error: unknown) => void;
}

interface Delivery {
  readonly text: string;
  readonly subscription: Active;
}

interface Active {
  active: boolean;
  readonly onMessage: (message: BusMessage) => void;
}

/** A subscription that asked to hear of gaps. */
interface GapWatch {
  readonly subscription: Active;
  readonly onGap: () => void;
}

/**
 * A `MessageBus` on Redis Pub/Sub, shared by every replica connected to the same Redis. Topic
 * `topic` is the channel `{keyPrefix}bus:{topic}`; a message travels as its JSON text (so each
 * subscriber gets its own copy, `undefined` members left out). `publish` is `PUBLISH` on the
 * command connection; subscriptions live on the subscriber connection (a client in Pub/Sub mode),
 * one Redis subscription per channel shared by its local subscriptions. Received messages wait in
 * one local queue, delivered on the next turn of the event loop; past `maxPending` waiting, new
 * ones are dropped, counted ({@link RedisMessageBus.dropped}) and reported to `onError`.
 *
 * Delivery is at most once: a message published while a replica is disconnected never reaches it.
 * After a reconnection, node-redis subscribes the connection to its channels again, so existing
 * subscriptions resume without a new `subscribe`; then (the subscriber client's `ready` event)
 * each subscription given an `onGap` (`BusSubscribeOptions` of `tsmcp/state`) has it called
 * once, on the next turn of the event loop, since what was published while it was down is lost.
 * `publish` and `subscribe` reject with `StateUnavailableError` (from `tsmcp/state`) while their
 * connection is down or after `commandTimeoutMs`; `unsubscribe` never rejects (a subscription
 * ended while disconnected is not renewed).
 *
 * @throws TypeError for clients that are not node-redis clients or options of the wrong type;
 *   RangeError for a bound below 1.
 */
export class RedisMessageBus implements MessageBus {
  readonly #publisher: RedisClientLike;
  readonly #subscriber: RedisClientLike;
  readonly #settings: StoreSettings;
  readonly #maxPending: number;
  readonly #onError: (error: unknown) => void;
  readonly #queue: Delivery[] = [];
  #scheduled = false;
  #dropped = 0;
  /** The live subscriptions with an `onGap`; the `ready` listener is on the subscriber while any is. */
  readonly #gapWatches = new Set<GapWatch>();
  readonly #onReady = (): void => this.#reportGaps();

  /**
   * @param publisher a node-redis client (connected by the caller) for `PUBLISH`.
   * @param subscriber another node-redis client (connected by the caller), given over to Pub/Sub.
   * @param options bound, error sink, key prefix and command timeout.
   */
  constructor(publisher: RedisClientLike, subscriber: RedisClientLike, options: RedisMessageBusOptions = {}) {
    checkClient("RedisMessageBus", publisher);
    checkClient("RedisMessageBus", subscriber);
    if (publisher === subscriber) {
      throw new TypeError(
        "RedisMessageBus: the subscriber needs a connection of its own (client.duplicate())",
      );
    }
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#settings = storeSettings("RedisMessageBus", options);
    this.#maxPending = integerOption(
      "RedisMessageBus",
      "maxPending",
      options.maxPending,
      DEFAULT_REDIS_BUS_MAX_PENDING,
    );
    if (options.onError !== undefined && typeof options.onError !== "function") {
      throw new TypeError("RedisMessageBus: onError must be a function");
    }
    this.#onError = options.onError ?? (() => {});
  }

  /** Messages dropped because `maxPending` deliveries were waiting. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The Pub/Sub channel of `topic`. */
  channelOf(topic: string): string {
    return `${this.#settings.keyPrefix}bus:${topic}`;
  }

  async publish(topic: string, message: BusMessage): Promise<number> {
    const text = JSON.stringify(message);
    // PUBLISH answers how many connections (one per subscribing instance) received it.
    const received = await runCommand<number>(this.#publisher, this.#settings, [
      "PUBLISH",
      this.channelOf(topic),
      text,
    ]);
    return typeof received === "number" ? received : 0;
  }

  async subscribe(
    topic: string,
    onMessage: (message: BusMessage) => void,
    options: BusSubscribeOptions = {},
  ): Promise<BusSubscription> {
    if (typeof onMessage !== "function")
      throw new TypeError("RedisMessageBus.subscribe: onMessage must be a function");
    const onGap = options?.onGap;
    if (onGap !== undefined && typeof onGap !== "function") {
      throw new TypeError("RedisMessageBus.subscribe: onGap must be a function");
    }
    const channel = this.channelOf(topic);
    const subscription: Active = { active: true, onMessage };
    const listener = (text: string) => this.#receive(topic, text, subscription);
    const watch: GapWatch | undefined = onGap === undefined ? undefined : { subscription, onGap };
    const unsubscribe = async (): Promise<void> => {
      if (!subscription.active) return;
      subscription.active = false;
      if (watch !== undefined) this.#unwatch(watch);
      // Delivery stopped above; the UNSUBSCRIBE itself may wait for a reconnection: bound the wait.
      await settledWithin(this.#subscriber.unsubscribe(channel, listener), this.#settings.commandTimeoutMs);
    };
    if (!this.#subscriber.isReady) {
      throw unavailable(this.#settings, new Error("the Pub/Sub connection to Redis is down"));
    }
    // SUBSCRIBE skips node-redis's offline check: bound it, and undo a late success.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscribed = this.#subscriber.subscribe(channel, listener);
    try {
      await Promise.race([
        subscribed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("SUBSCRIBE timed out")), this.#settings.commandTimeoutMs);
        }),
      ]);
    } catch (error) {
      subscription.active = false;
      subscribed.then(unsubscribeLate(this.#subscriber, channel, listener), () => {});
      throw unavailable(this.#settings, error);
    } finally {
      clearTimeout(timer);
    }
    // From here on, every `ready` of the subscriber is a reconnection this subscription lived through.
    if (watch !== undefined) this.#watch(watch);
    return { unsubscribe };
  }

  #watch(watch: GapWatch): void {
    if (this.#gapWatches.size === 0) this.#subscriber.on("ready", this.#onReady);
    this.#gapWatches.add(watch);
  }

  #unwatch(watch: GapWatch): void {
    if (!this.#gapWatches.delete(watch)) return;
    if (this.#gapWatches.size === 0) this.#subscriber.off("ready", this.#onReady);
  }

  /** The subscriber connection is ready again: every watching subscription may have missed messages. */
  #reportGaps(): void {
    const watches = [...this.#gapWatches];
    setImmediate(() => {
      for (const { subscription, onGap } of watches) {
        if (!subscription.active) continue;
        try {
          onGap();
        } catch (error) {
          this.#onError(error);
        }
      }
    });
  }

  #receive(topic: string, text: string, subscription: Active): void {
    if (!subscription.active) return;
    if (this.#queue.length >= this.#maxPending) {
      this.#dropped++;
      this.#onError(new Error(`RedisMessageBus dropped a message on ${topic} (${this.#dropped} so far)`));
      return;
    }
    this.#queue.push({ text, subscription });
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#drain());
    }
  }

  #drain(): void {
    this.#scheduled = false;
    for (const { text, subscription } of this.#queue.splice(0)) {
      if (!subscription.active) continue;
      try {
        subscription.onMessage(JSON.parse(text) as BusMessage);
      } catch (error) {
        this.#onError(error);
      }
    }
  }
}

/** Ends a subscription whose SUBSCRIBE succeeded after its caller gave up on it. */
function unsubscribeLate(
  subscriber: RedisClientLike,
  channel: string,
  listener: (text: string) => void,
): () => void {
  return () => {
    subscriber.unsubscribe(channel, listener).catch(() => {});
  };
}

/** Resolves once `promise` settled, or after `ms` milliseconds, whichever comes first; never rejects. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
