/**
 * One 2025-era session on Streamable HTTP (one `Mcp-Session-Id`): the `LegacySession` the server
 * reads and writes, its SSE streams (the standalone GET stream and one per POST that streams), the
 * back-channel of server -> client requests and their answers, and the client's requests in
 * flight (so `notifications/cancelled` can abort one). Spec (2025-11-25): basic/transports
 * §Session Management, basic/utilities/cancellation, basic/lifecycle.
 */
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCResponse,
  RequestId,
} from "../../../protocol/jsonrpc.js";
import type { LoggingLevel } from "../../../protocol/schema/base.js";
import type { EventStore } from "../../../state/event-store.js";
import type { BackChannelRequest, LegacyHandshake, LegacySession } from "../../dispatcher.js";
import type { SseStream } from "../server/sse.js";
import { OutgoingRequests } from "./back-channel.js";
import type { FleetRouting } from "./fleet-routing.js";
import type { CheckedSessionOptions } from "./options.js";
import type { SessionFacts } from "./records.js";
import { base64url, followRemote, parsePostStreamId } from "./remote-stream.js";
import { StateFailure } from "./state-guard.js";
import { ResumableStream, type StreamOptions } from "./stream.js";

/** The id of the standalone GET stream within its session. */
const STANDALONE_STREAM = "0";

/**
 * Milliseconds between two reads of the store by the replica holding a session's GET stream in a
 * fleet, for the events whose bus message it missed while the bus reconnected.
 */
export const STANDALONE_CATCH_UP_MS = 2000;

/**
 * A client request being served on a session: `notifications/cancelled` naming its `id`, or the
 * session's end, calls `abort` with the reason.
 */
export interface IncomingRequest {
  readonly id: RequestId;
  abort(reason: unknown): void;
}

/** What a session needs from its handler. */
export interface HttpSessionOptions extends Pick<CheckedSessionOptions, "maxQueuedEvents" | "retryMs"> {
  /** The session id; undefined for the one-request sessions of the stateless mode. */
  readonly id: string | undefined;
  readonly keepAliveMs: number;
  /** Bytes an SSE connection may hold that its client has not read (see `maxStreamBufferBytes`). */
  readonly maxStreamBufferBytes: number;
  readonly backChannelTimeoutMs: number;
  /** False in the stateless mode: no `request`, and `env.request` is never offered. */
  readonly backChannel: boolean;
  /** Where the session's SSE events are kept (the handler's `state.events`). */
  readonly events: EventStore;
  /**
   * True when the session's events are forgotten as it ends (its store is private to this
   * handler); false when another replica may still serve it.
   */
  readonly dropEventsOnEnd: boolean;
  /** Receives a store failure. Must not throw. */
  readonly report: (error: unknown) => void;
  /**
   * This replica's id in a fleet: server -> client request ids become `"{instanceId}-{n}"` and
   * POST stream ids name it, so another replica knows where an answer or a resumption goes.
   * Undefined without a bus.
   */
  readonly instanceId?: string | undefined;
  /** The bus side of this replica, to publish each stored event; undefined without a bus. */
  readonly routing?: FleetRouting | undefined;
  /** The place of the standalone stream another replica began (the session's record). */
  readonly standaloneCursor?: string | undefined;
  /** Called with the standalone stream's place when a connection of it ends here (in a fleet). */
  readonly onStandaloneCursor?: ((cursor: string) => void) | undefined;
  /** Milliseconds the replica serving a resumed POST stream has to answer a ping. */
  readonly ownerPingTimeoutMs: number;
  /** Called when the session's busy count reaches zero (the idle clock starts) or leaves it. */
  readonly onBusy?: (busy: boolean) => void;
}

/** One Streamable HTTP session. */
export class HttpSession implements LegacySession {
  readonly id: string | undefined;
  handshake: LegacyHandshake | undefined;
  initialized = false;
  logLevel: LoggingLevel | undefined;
  readonly resourceSubscriptions = new Set<string>();
  readonly request?: BackChannelRequest;
  /** The revision the client's `initialize` response named, as the transport saw it. */
  negotiatedVersion: string | undefined;
  /**
   * The principal (`principalOf`) of the identity that opened the session; undefined when it was
   * opened without one. Every later request must come from the same principal.
   */
  principal: string | undefined;
  /** The facts last written to (or read from) the session store; undefined without shared stores. */
  persisted: SessionFacts | undefined;
  /**
   * With shared stores, the principal digest (`principalDigest`) the session's record named when
   * this view last wrote or read it; undefined before that.
   */
  recordPrincipal: { readonly digest: string | undefined } | undefined;

  readonly #options: HttpSessionOptions;
  readonly #ended = new AbortController();
  /** The session's key in the event store: its id, or a random one for a one-request session. */
  readonly #key: string;
  readonly #streams = new Map<string, ResumableStream>();
  /** POST streams of other replicas resumed here, while connected. */
  readonly #remote = new Set<ResumableStream>();
  /** Finished POST streams whose end no connection carried, oldest first (kept for resumption). */
  readonly #undelivered: string[] = [];
  #nextStream = 1;
  readonly #outgoing: OutgoingRequests;
  /** The client's requests in flight, by id (`notifications/cancelled` names one). */
  readonly #incoming = new Map<RequestId, IncomingRequest>();
  /** Every client request in flight (two may share an id): the session's end aborts each. */
  readonly #inFlight = new Set<IncomingRequest>();
  #busy = 0;
  /** Ends what a fleet's standalone connection holds (its subscription), recording its place. */
  #standaloneDetached: (() => void) | undefined;
  #serving = 0;
  #used = false;

  constructor(options: HttpSessionOptions) {
    this.id = options.id;
    this.#options = options;
    this.#key = options.id ?? `stateless-${crypto.randomUUID()}`;
    this.#outgoing = new OutgoingRequests({
      signal: this.#ended.signal,
      timeoutMs: options.backChannelTimeoutMs,
      instanceId: options.instanceId,
    });
    this.#streams.set(STANDALONE_STREAM, this.#newStream(STANDALONE_STREAM, options.standaloneCursor));
    if (options.backChannel) this.request = this.backChannel((message) => this.#standalone.send(message));
  }

  get signal(): AbortSignal {
    return this.#ended.signal;
  }

  /** True once the session ended. */
  get ended(): boolean {
    return this.#ended.signal.aborted;
  }

  /** True while a request is served or a stream connection is open (the idle clock is stopped). */
  get busy(): boolean {
    return this.#busy > 0;
  }

  get #standalone(): ResumableStream {
    return this.#streams.get(STANDALONE_STREAM) as ResumableStream;
  }

  notify(notification: JSONRPCNotification, options?: { readonly onceKey?: string }): void {
    if (!this.ended) this.#standalone.send(notification, options?.onceKey);
  }

  /** True once the session served a request (`initialize` aside). */
  get used(): boolean {
    return this.#used;
  }

  /** True while a request of this session is being served (open streams aside). */
  get serving(): boolean {
    return this.#serving > 0;
  }

  /**
   * Marks the session serving `request` (and used) until {@link finishRequest}: its idle clock
   * stops, `notifications/cancelled` naming its id aborts it (the latest of two in flight with
   * one id), and so does the session's end.
   */
  beginRequest(request: IncomingRequest): void {
    this.#used = true;
    this.#serving++;
    this.#inFlight.add(request);
    this.#incoming.set(request.id, request);
    this.#setBusy(1);
  }

  /** Ends what {@link beginRequest} began; a second call does nothing. */
  finishRequest(request: IncomingRequest): void {
    if (!this.#inFlight.delete(request)) return;
    if (this.#incoming.get(request.id) === request) this.#incoming.delete(request.id);
    this.#serving--;
    this.#setBusy(-1);
  }

  /**
   * A new POST stream, registered for resumption. In a fleet its id names this replica and the
   * request it answers (`{instanceId}.{n}.{base64url(JSON(requestId))}`), so a replica resuming it
   * knows whom to ask whether it still runs and which id to answer.
   */
  openStream(requestId?: RequestId): ResumableStream {
    const n = this.#nextStream++;
    const { instanceId } = this.#options;
    const id =
      instanceId === undefined || requestId === undefined
        ? String(n)
        : `${instanceId}.${n}.${base64url(JSON.stringify(requestId))}`;
    const stream = this.#newStream(id);
    this.#streams.set(id, stream);
    return stream;
  }

  /**
   * Ends a POST stream after what it carried and its `response` (none for a request the client
   * cancelled); resolves once that is stored and written. A stream whose end no connection carried is kept for
   * resumption (at most `maxQueuedEvents` of them, the oldest dropped first); others are forgotten.
   */
  async finishStream(stream: ResumableStream, response?: JSONRPCResponse): Promise<void> {
    if (await stream.finish(response)) {
      this.#forgetStream(stream.id);
      return;
    }
    this.#undelivered.push(stream.id);
    while (this.#undelivered.length > this.#options.maxQueuedEvents) {
      this.#forgetStream(this.#undelivered.shift() as string);
    }
  }

  /** Whether a GET without `Last-Event-ID` may open the standalone stream (one at a time). */
  get standaloneOpen(): boolean {
    return this.#standalone.connected;
  }

  /** The place of the standalone stream once its first event is stored (for the session's record). */
  async standaloneCursor(): Promise<string> {
    await this.#standalone.settled();
    const cursor = this.#standalone.cursor;
    if (cursor === undefined)
      throw new StateFailure(new Error("the event store did not take the stream's first event"));
    return cursor;
  }

  /**
   * Opens the standalone stream on a new connection: the messages queued for it, then the live
   * ones. In a fleet, the events other replicas store on it too (subscribed first), and the place
   * the connection reached is recorded when it ends, for the next GET on any replica. With
   * `lastEventId`, it resumes after that event (a GET with `Last-Event-ID`). Rejects when the bus
   * cannot be reached.
   */
  async connectStandalone(lastEventId?: string): Promise<SseStream> {
    const { routing } = this.#options;
    const standalone = this.#standalone;
    if (routing === undefined || this.id === undefined) return standalone.connect(lastEventId);
    const subscription = await routing.subscribeStream(this.id, STANDALONE_STREAM, (event) =>
      standalone.deliver(event),
    );
    this.#standaloneDetached?.();
    // Connecting detaches any earlier connection (and its subscription) first.
    const connection = standalone.connect(lastEventId);
    let caughtUpTo = lastEventId ?? standalone.cursor;
    let catchingUp = false;
    const catchUp = setInterval(() => {
      if (this.ended || connection.closed) {
        clearInterval(catchUp);
        return;
      }
      if (catchingUp || caughtUpTo === undefined) return;
      catchingUp = true;
      standalone
        .catchUp(caughtUpTo)
        .then((last) => {
          if (last !== undefined) caughtUpTo = last;
        })
        .finally(() => {
          catchingUp = false;
        });
    }, STANDALONE_CATCH_UP_MS);
    (catchUp as { unref?: () => void }).unref?.();
    this.#standaloneDetached = () => {
      this.#standaloneDetached = undefined;
      clearInterval(catchUp);
      subscription.unsubscribe().catch(this.#options.report);
      const cursor = standalone.cursor;
      if (cursor !== undefined && !this.ended) this.#options.onStandaloneCursor?.(cursor);
    };
    return connection;
  }

  /** Moves the standalone stream's place to the one the session's record names (in a fleet). */
  refreshStandalone(cursor: string | undefined): void {
    if (cursor !== undefined && !this.#standalone.connected) this.#standalone.moveCursor(cursor);
  }

  /**
   * Resumes the stream `lastEventId` belongs to on a new connection: the events after it, then
   * the live ones (or the end, when that stream finished). `undefined` when the id names no stream
   * of this session that is still kept.
   */
  async resume(lastEventId: string): Promise<SseStream | undefined> {
    const found = await this.#options.events.after(this.#key, lastEventId);
    if (found === undefined || this.ended) return undefined;
    // The standalone stream resumes as it opens: in a fleet, with what other replicas send it.
    if (found.streamId === STANDALONE_STREAM) return this.connectStandalone(lastEventId);
    const stream = this.#streams.get(found.streamId);
    if (stream === undefined) return this.#resumeRemote(found.streamId, lastEventId);
    const connection = stream.connect(lastEventId);
    if (stream.finished) {
      const id = stream.id;
      void stream.settled().then(() => this.#forgetStream(id));
    }
    return connection;
  }

  /**
   * Resumes a POST stream another replica serves (in a fleet): see `followRemote`. Undefined for
   * a stream id that names no such stream.
   */
  async #resumeRemote(streamId: string, lastEventId: string): Promise<SseStream | undefined> {
    const { routing, instanceId } = this.#options;
    const post = parsePostStreamId(streamId);
    if (routing === undefined || this.id === undefined || post === undefined) return undefined;
    let stop = () => {};
    const stream = this.#newStream(streamId, lastEventId, {
      endsWith: post.requestId,
      onDetached: () => {
        this.#remote.delete(stream);
        stop();
      },
    });
    this.#remote.add(stream);
    const followed = await followRemote({
      routing,
      sessionId: this.id,
      stream,
      owner: post.owner,
      requestId: post.requestId,
      lastEventId,
      pingTimeoutMs: this.#options.ownerPingTimeoutMs,
      // This replica runs no request of a stream it does not hold: its view was dropped.
      ownerGone: post.owner === instanceId,
      report: this.#options.report,
    });
    stop = followed.stop;
    if (this.ended) stream.abandon(new Error("the session ended"));
    return followed.connection;
  }

  /**
   * Aborts the client request `notifications/cancelled` names, if it is in flight here; false
   * when it is not (another replica may run it).
   */
  cancelIncoming(notification: JSONRPCNotification): boolean {
    const requestId = notification.params?.requestId;
    if (typeof requestId !== "string" && typeof requestId !== "number") return false;
    const reason = notification.params?.reason;
    const request = this.#incoming.get(requestId);
    request?.abort(
      new Error(typeof reason === "string" && reason !== "" ? reason : "the client cancelled the request"),
    );
    return request !== undefined;
  }

  /** Settles the server -> client request a client's response answers; false when none is in flight. */
  settle(response: JSONRPCResponse): boolean {
    return this.#outgoing.settle(response);
  }

  /**
   * The back-channel that sends each server -> client request with `send` (a POST's stream, or the
   * standalone stream) and resolves with the client's answer. See `BackChannelRequest`.
   */
  backChannel(send: (message: JSONRPCMessage) => void): BackChannelRequest {
    return (method, params, options = {}) => this.#outgoing.send(send, method, params, options);
  }

  /** Ends the session: its signal aborts, its streams close, its pending requests reject. Idempotent. */
  end(reason = "the session ended"): void {
    if (this.ended) return;
    this.#ended.abort(new Error(reason));
    for (const request of [...this.#inFlight]) request.abort(this.signal.reason);
    this.#incoming.clear();
    this.#outgoing.rejectAll();
    const ended = new Error(reason);
    for (const stream of [...this.#streams.values(), ...this.#remote]) stream.abandon(ended);
    this.#streams.clear();
    this.#remote.clear();
    if (this.#options.dropEventsOnEnd) this.dropEvents();
  }

  /** Forgets every stored event of the session (in the background; a failure is reported). */
  dropEvents(): void {
    this.#options.events.dropSession(this.#key).catch(this.#options.report);
  }

  #newStream(
    id: string,
    cursor?: string,
    extra: Pick<StreamOptions, "endsWith"> & { onDetached?: () => void } = {},
  ): ResumableStream {
    const { routing } = this.#options;
    const sessionId = this.id;
    return new ResumableStream(id, {
      cursor,
      endsWith: extra.endsWith,
      ...(routing === undefined || sessionId === undefined
        ? {}
        : { onStored: (event) => routing.publishEvent(sessionId, id, event) }),
      events: this.#options.events,
      sessionKey: this.#key,
      report: this.#options.report,
      keepAliveMs: this.#options.keepAliveMs,
      retryMs: this.#options.retryMs,
      maxBufferedBytes: this.#options.maxStreamBufferBytes,
      onConnection: (open) => {
        this.#setBusy(open ? 1 : -1);
        if (open) return;
        extra.onDetached?.();
        if (id === STANDALONE_STREAM) this.#standaloneDetached?.();
      },
    });
  }

  #forgetStream(id: string): void {
    this.#streams.delete(id);
    if (this.ended) return;
    this.#options.events.dropStream(this.#key, id).catch(this.#options.report);
  }

  #setBusy(delta: number): void {
    const wasBusy = this.#busy > 0;
    this.#busy += delta;
    const isBusy = this.#busy > 0;
    if (wasBusy !== isBusy) this.#options.onBusy?.(isBusy);
  }
}
