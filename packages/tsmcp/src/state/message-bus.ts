/**
 * The MessageBus seam: publish/subscribe between the replicas of a fleet. The HTTP handler and the
 * server use it to carry (a) a back-channel answer to the replica whose handler awaits it, (b) a
 * server-to-client message to the replica that holds the client's stream, and (c) list-changed,
 * resource-updated and `subscriptions/listen` events to every replica. The in-memory default
 * ({@link MemoryMessageBus}) serves one process; a shared engine (Redis pub/sub) serves a fleet.
 */

/** A message on the bus: a JSON-serialisable object (a shared bus sends it as text). */
export type BusMessage = Readonly<Record<string, unknown>>;

/** One subscription; {@link BusSubscription.unsubscribe} ends it. */
export interface BusSubscription {
  /** Stops delivery to this subscription. Idempotent. */
  unsubscribe(): Promise<void>;
}

/** Options of one {@link MessageBus.subscribe}. */
export interface BusSubscribeOptions {
  /**
   * Called when this subscription may have missed messages: its engine connection was lost and is
   * back (the subscription resumed by itself, but what was published meanwhile never reached it).
   * Delivery is at most once, so after `onGap` the subscriber treats everything it holds from the
   * topic as possibly changed (it re-reads, or tells its own listeners to). Runs outside
   * `subscribe` and `publish`; what it throws is reported like what `onMessage` throws. Never
   * called after `unsubscribe`. Default: none (a gap goes unnoticed).
   */
  readonly onGap?: () => void;
}

/**
 * A publish/subscribe channel between instances.
 *
 * Guarantees an implementation gives (the shared contract suite checks them):
 *
 * - **Live delivery, at most once.** A message reaches every subscription of its topic that was
 *   active (its `subscribe` resolved) when `publish` was called, on every instance, the
 *   publisher's own included, at most once each. A message published while nobody listens is
 *   lost: whatever must survive goes to a store first.
 * - **Order.** Messages of one publisher on one topic arrive in the order they were published.
 * - **Copies.** Each subscriber gets its own copy (JSON round-tripped); `onMessage` runs after
 *   `publish` returned, never inside it.
 * - **Isolation.** An `onMessage` that throws affects no other subscriber (the bus reports it).
 * - **Bounded.** A slow subscriber cannot grow memory without bound: past the implementation's
 *   cap, messages are dropped and counted in its logs.
 * - **Failures reject** (`StateUnavailableError` when the engine cannot be reached); once it is
 *   back, existing subscriptions resume without a new `subscribe`.
 * - **Gaps are reported.** A subscription that may have missed messages (its connection to the
 *   engine was lost and is back) has its `onGap` ({@link BusSubscribeOptions}) called once per
 *   gap, after it resumed. At most once means a subscriber that must not miss a change treats a
 *   gap as "everything may have changed". A bus that cannot lose a live subscription (one
 *   process) never reports one.
 */
export interface MessageBus {
  /**
   * Sends `message` to the subscriptions of `topic`. Resolves with how many subscribers the engine
   * handed it to (instances, or subscriptions in one process): 0 when nobody listened, so a caller
   * that needs it received (a back-channel answer) can send it again later.
   */
  publish(topic: string, message: BusMessage): Promise<number>;
  /**
   * Delivers the messages of `topic` to `onMessage` from the moment the promise resolves, and
   * reports to `options.onGap` each time the subscription may have missed some.
   */
  subscribe(
    topic: string,
    onMessage: (message: BusMessage) => void,
    options?: BusSubscribeOptions,
  ): Promise<BusSubscription>;
}
