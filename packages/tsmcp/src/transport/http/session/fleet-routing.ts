/**
 * The messages one replica of a fleet sends the others over the `MessageBus`, for handshake-era
 * sessions served by any replica: a client's answer to a server -> client request, carried to the
 * replica whose handler awaits it; a session ended by DELETE; a `notifications/cancelled` for a
 * request another replica runs; each event of a session stream, for the replica holding that
 * stream's connection; a session's facts changed (so views elsewhere read them again); and the
 * liveness ping of a replica that owns a stream. Topics (all under
 * `tsmcp:`): `instance:{instanceId}`, `sessions`, `stream:{sessionId}:{streamId}`.
 */
import type { JSONRPCMessage, JSONRPCNotification, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { StateUnavailableError } from "../../../state/errors.js";
import type { StoredEvent } from "../../../state/event-store.js";
import type { BusMessage, BusSubscription, MessageBus } from "../../../state/message-bus.js";

/** Answers kept at most for replicas that did not take them yet; one more is refused (503). */
export const MAX_UNDELIVERED_ANSWERS = 1000;
/** Milliseconds between two attempts to hand over the answers no replica took. */
export const ANSWER_RETRY_MS = 250;

/** The topic of the messages for one replica. */
export const instanceTopic = (instanceId: string): string => `tsmcp:instance:${instanceId}`;
/** The topic every replica hears: sessions ended, facts changed, cancellations. */
export const SESSIONS_TOPIC = "tsmcp:sessions";
/** The topic of one session stream's events. */
export const streamTopic = (sessionId: string, streamId: string): string =>
  `tsmcp:stream:${sessionId}:${streamId}`;

/** What a replica does with the messages it hears. */
export interface FleetHandlers {
  /** A client's answer to a server -> client request this replica made on session `sessionId`. */
  settle(sessionId: string, response: JSONRPCResponse): void;
  /** The session `sessionId` ended on some replica. */
  ended(sessionId: string): void;
  /** The client cancelled a request of session `sessionId`. */
  cancel(sessionId: string, notification: JSONRPCNotification): void;
  /** Another replica wrote back facts of session `sessionId` (subscriptions, log level, ...). */
  refresh(sessionId: string): void;
}

/** The instance a back-channel request id of the form `{instanceId}-{n}` names, if any. */
export function ownerOfRequestId(id: unknown): string | undefined {
  if (typeof id !== "string") return undefined;
  const match = /^([^-]+)-\d+$/.exec(id);
  return match?.[1];
}

/** One replica's side of the bus. */
export class FleetRouting {
  readonly #bus: MessageBus;
  readonly #instanceId: string;
  readonly #handlers: FleetHandlers;
  readonly #report: (error: unknown) => void;
  #ready: Promise<BusSubscription[]> | undefined;
  readonly #pongs = new Map<string, () => void>();
  #nextPing = 0;
  #closed = false;
  /** Answers no replica took yet, oldest first. */
  readonly #undelivered: { topic: string; message: BusMessage; untilMs: number }[] = [];
  #retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    bus: MessageBus,
    instanceId: string,
    handlers: FleetHandlers,
    report: (error: unknown) => void,
  ) {
    this.#bus = bus;
    this.#instanceId = instanceId;
    this.#handlers = handlers;
    this.#report = report;
  }

  /**
   * Resolves once this replica hears its topics (subscribing on first use); rejects while the bus
   * cannot be reached, and tries again on the next call. Both topics are subscribed or neither:
   * when one subscription failed, the other is ended before this rejects, so the next call does not
   * leave this replica hearing a topic twice.
   */
  ready(): Promise<void> {
    if (this.#ready === undefined) {
      const subscribing = this.#subscribeBoth();
      this.#ready = subscribing;
      subscribing.then(
        (subscriptions) => {
          if (this.#closed) for (const subscription of subscriptions) void subscription.unsubscribe();
        },
        () => {
          if (this.#ready === subscribing) this.#ready = undefined;
        },
      );
    }
    return this.#ready.then(() => undefined);
  }

  /** Subscribes to this replica's two topics; on a failure, ends the one that succeeded, then rejects. */
  async #subscribeBoth(): Promise<BusSubscription[]> {
    const outcomes = await Promise.allSettled([
      this.#bus.subscribe(instanceTopic(this.#instanceId), (message) => this.#onInstance(message)),
      this.#bus.subscribe(SESSIONS_TOPIC, (message) => this.#onSessions(message)),
    ]);
    const subscriptions: BusSubscription[] = [];
    let failure: PromiseRejectedResult | undefined;
    for (const outcome of outcomes) {
      if (outcome.status === "fulfilled") subscriptions.push(outcome.value);
      else failure ??= outcome;
    }
    if (failure === undefined) return subscriptions;
    await Promise.all(subscriptions.map((subscription) => subscription.unsubscribe().catch(this.#report)));
    throw failure.reason;
  }

  /**
   * Carries a client's `response` to the replica `owner` that awaits it. When no replica took it
   * (the owner's subscription was reconnecting, or the bus was down), it is kept and sent again
   * every {@link ANSWER_RETRY_MS} until the owner takes it or `keepMs` pass (its handler has
   * given up by then), so an answer the client saw accepted is not lost while this replica lives.
   *
   * @throws StateUnavailableError (rejects) when {@link MAX_UNDELIVERED_ANSWERS} answers wait already.
   */
  async forwardResponse(
    owner: string,
    sessionId: string,
    response: JSONRPCResponse,
    keepMs: number,
  ): Promise<void> {
    const message = { type: "response", sessionId, response };
    if ((await this.#tryPublish(instanceTopic(owner), message)) > 0) return;
    if (this.#undelivered.length >= MAX_UNDELIVERED_ANSWERS) {
      throw new StateUnavailableError(
        `${MAX_UNDELIVERED_ANSWERS} answers wait for the replicas awaiting them; retry later`,
      );
    }
    this.#undelivered.push({ topic: instanceTopic(owner), message, untilMs: Date.now() + keepMs });
    this.#scheduleRetry();
  }

  /** Tells every replica that session `sessionId` ended. */
  async sessionEnded(sessionId: string): Promise<void> {
    await this.#bus.publish(SESSIONS_TOPIC, { type: "ended", sessionId });
  }

  /** Tells every replica that facts of session `sessionId` changed in the store. */
  async factsChanged(sessionId: string): Promise<void> {
    await this.#bus.publish(SESSIONS_TOPIC, { type: "facts", sessionId, from: this.#instanceId });
  }

  /** Publishes, resolving how many took it (0 when the bus failed, which is reported). */
  async #tryPublish(topic: string, message: BusMessage): Promise<number> {
    try {
      return await this.#bus.publish(topic, message);
    } catch (error) {
      this.#report(error);
      return 0;
    }
  }

  #scheduleRetry(): void {
    if (this.#retry !== undefined || this.#closed || this.#undelivered.length === 0) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#retryUndelivered();
    }, ANSWER_RETRY_MS);
    (this.#retry as { unref?: () => void }).unref?.();
  }

  async #retryUndelivered(): Promise<void> {
    const waiting = this.#undelivered.splice(0);
    for (const entry of waiting) {
      if (Date.now() >= entry.untilMs) {
        this.#report(new Error(`dropped an answer no replica took on ${entry.topic}`));
        continue;
      }
      if ((await this.#tryPublish(entry.topic, entry.message)) === 0) this.#undelivered.push(entry);
    }
    this.#scheduleRetry();
  }

  /** Tells every replica the client cancelled a request of session `sessionId`. */
  async cancel(sessionId: string, notification: JSONRPCNotification): Promise<void> {
    await this.#bus.publish(SESSIONS_TOPIC, { type: "cancel", sessionId, notification });
  }

  /** Publishes an event stored on a session stream, for the replica holding its connection. */
  publishEvent(sessionId: string, streamId: string, event: StoredEvent): void {
    const message = { type: "event", from: this.#instanceId, id: event.id, message: event.message ?? null };
    this.#bus.publish(streamTopic(sessionId, streamId), message).catch(this.#report);
  }

  /** Delivers the events other replicas store on a session stream to `onEvent`, from when it resolves. */
  subscribeStream(
    sessionId: string,
    streamId: string,
    onEvent: (event: StoredEvent) => void,
  ): Promise<BusSubscription> {
    return this.#bus.subscribe(streamTopic(sessionId, streamId), (message) => {
      if (message.type !== "event" || typeof message.id !== "string") return;
      const body = message.message as JSONRPCMessage | null;
      onEvent({ id: message.id, message: body ?? undefined });
    });
  }

  /**
   * True when replica `owner` answers a ping within `timeoutMs`; false when it does not (or the
   * bus cannot be reached).
   */
  async ping(owner: string, timeoutMs: number): Promise<boolean> {
    if (owner === this.#instanceId) return !this.#closed;
    const nonce = `${this.#instanceId}:${this.#nextPing++}`;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = new Promise<boolean>((resolve) => {
      this.#pongs.set(nonce, () => resolve(true));
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      await this.ready();
      await this.#bus.publish(instanceTopic(owner), { type: "ping", from: this.#instanceId, nonce });
      return await answered;
    } catch (error) {
      this.#report(error);
      return false;
    } finally {
      clearTimeout(timer);
      this.#pongs.delete(nonce);
    }
  }

  /** Stops hearing the bus (and sending answers again). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#ready?.then(
      (subscriptions) => {
        for (const subscription of subscriptions) subscription.unsubscribe().catch(this.#report);
      },
      () => {},
    );
  }

  #onInstance(message: BusMessage): void {
    switch (message.type) {
      case "response":
        if (typeof message.sessionId === "string") {
          this.#handlers.settle(message.sessionId, message.response as JSONRPCResponse);
        }
        return;
      case "ping":
        if (typeof message.from === "string" && !this.#closed) {
          this.#bus
            .publish(instanceTopic(message.from), { type: "pong", nonce: message.nonce })
            .catch(this.#report);
        }
        return;
      case "pong":
        if (typeof message.nonce === "string") this.#pongs.get(message.nonce)?.();
        return;
    }
  }

  #onSessions(message: BusMessage): void {
    if (typeof message.sessionId !== "string") return;
    if (message.type === "ended") this.#handlers.ended(message.sessionId);
    else if (message.type === "facts") {
      if (message.from !== this.#instanceId) this.#handlers.refresh(message.sessionId);
    } else if (message.type === "cancel") {
      this.#handlers.cancel(message.sessionId, message.notification as JSONRPCNotification);
    }
  }
}
