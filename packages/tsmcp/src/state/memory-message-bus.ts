/**
 * The in-memory {@link MessageBus}: publish/subscribe within one process. Two HTTP handlers given
 * the same instance behave as two replicas of a fleet (the tests use it so).
 */
import type { BusMessage, BusSubscribeOptions, BusSubscription, MessageBus } from "./message-bus.js";

/** Messages waiting for delivery at most, by default, before new ones are dropped and counted. */
export const DEFAULT_MEMORY_BUS_MAX_PENDING = 10_000;

/** Options of a {@link MemoryMessageBus}. */
export interface MemoryMessageBusOptions {
  /** Deliveries waiting at most, from 1. Default {@link DEFAULT_MEMORY_BUS_MAX_PENDING}. */
  maxPending?: number;
  /** Receives what a subscriber threw and the count of dropped messages. Default: ignored. */
  onError?: (error: unknown) => void;
}

type Handler = (message: BusMessage) => void;

/**
 * A {@link MessageBus} within one process. Delivery is asynchronous (a microtask after
 * `publish`), each subscriber gets a JSON copy, and past `maxPending` deliveries in flight new
 * messages are dropped and counted ({@link MemoryMessageBus.dropped}). A subscription in one
 * process is never interrupted, so `onGap` ({@link BusSubscribeOptions}) is never called.
 *
 * @throws RangeError for a `maxPending` below 1.
 */
export class MemoryMessageBus implements MessageBus {
  readonly #topics = new Map<string, Set<Handler>>();
  readonly #maxPending: number;
  readonly #onError: (error: unknown) => void;
  #pending = 0;
  #dropped = 0;

  constructor(options: MemoryMessageBusOptions = {}) {
    const max = options.maxPending ?? DEFAULT_MEMORY_BUS_MAX_PENDING;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`MemoryMessageBus: maxPending must be an integer >= 1, got ${max}`);
    }
    this.#maxPending = max;
    this.#onError = options.onError ?? (() => {});
  }

  /** Messages dropped because `maxPending` deliveries were waiting. */
  get dropped(): number {
    return this.#dropped;
  }

  async publish(topic: string, message: BusMessage): Promise<number> {
    const handlers = this.#topics.get(topic);
    if (handlers === undefined || handlers.size === 0) return 0;
    const text = JSON.stringify(message);
    let handed = 0;
    for (const handler of [...handlers]) {
      if (this.#pending >= this.#maxPending) {
        this.#dropped++;
        this.#onError(new Error(`MemoryMessageBus dropped a message on ${topic} (${this.#dropped} so far)`));
        continue;
      }
      this.#pending++;
      handed++;
      queueMicrotask(() => {
        this.#pending--;
        if (!handlers.has(handler)) return;
        try {
          handler(JSON.parse(text) as BusMessage);
        } catch (error) {
          this.#onError(error);
        }
      });
    }
    return handed;
  }

  async subscribe(
    topic: string,
    onMessage: (message: BusMessage) => void,
    _options?: BusSubscribeOptions,
  ): Promise<BusSubscription> {
    let handlers = this.#topics.get(topic);
    if (handlers === undefined) {
      handlers = new Set();
      this.#topics.set(topic, handlers);
    }
    // A distinct function per subscription, so subscribing the same callback twice delivers twice.
    const handler: Handler = (message) => onMessage(message);
    handlers.add(handler);
    return {
      unsubscribe: async () => {
        handlers.delete(handler);
        if (handlers.size === 0 && this.#topics.get(topic) === handlers) this.#topics.delete(topic);
      },
    };
  }
}
