/**
 * One resumable SSE stream of a session: a POST's stream (the messages related to that request,
 * then its response) or the session's standalone GET stream. The stream outlives its HTTP
 * connections: every event goes to the event store first, then to the connection attached at the
 * moment, if any; a client that lost the connection (or whose connection the server closed, SSE
 * polling) reconnects with GET and `Last-Event-ID` and gets the rest. The store is asynchronous:
 * each stream runs its appends and writes through one ordered queue, so events reach the store and
 * the connection in the order they were sent. Spec (2025-11-25): basic/transports §Sending
 * Messages to the Server, §Resumability and Redelivery.
 */
import type { JSONRPCMessage, RequestId } from "../../../protocol/jsonrpc.js";
import type { EventStore, StoredEvent } from "../../../state/event-store.js";
import { formatPrimingEvent, SseStream } from "../server/sse.js";

/**
 * Messages a stream holds at most while the event store has not taken them; past it a message is
 * dropped and counted in the logs (a response never is).
 */
export const MAX_PENDING_APPENDS = 1000;

/** Milliseconds between two attempts to store an event the event store refused. */
export const STORE_RETRY_DELAY_MS = 250;

/**
 * Milliseconds a stream keeps trying to store an event the store refused (an engine restarting)
 * before it writes it to the live connection without an id, if one is attached, and goes on.
 */
export const STORE_RETRY_WINDOW_MS = 30_000;

/** What a {@link ResumableStream} needs from its session. */
export interface StreamOptions {
  readonly events: EventStore;
  /** The key of the stream's session in the event store. */
  readonly sessionKey: string;
  /** Milliseconds between keep-alive comments; 0 sends none. */
  readonly keepAliveMs: number;
  /** The `retry:` milliseconds of the priming event. */
  readonly retryMs: number;
  /**
   * Bytes a connection may hold that its client has not read; past it the connection is closed
   * (the events stay in the store, for `Last-Event-ID`).
   */
  readonly maxBufferedBytes: number;
  /** Called when a connection of this stream opens (true) or ends (false). */
  readonly onConnection: (open: boolean) => void;
  /** Receives a store failure or a dropped message. Must not throw. */
  readonly report: (error: unknown) => void;
  /**
   * The id of the stream's place already stored (a stream another replica began); without it the
   * stream begins with a priming event of its own.
   */
  readonly cursor?: string | undefined;
  /** Called with each event once it is stored (to tell other replicas). */
  readonly onStored?: (event: StoredEvent) => void;
  /**
   * The request whose response ends the stream when a connection carries it (a POST stream
   * another replica serves, resumed here); the stream then finishes by itself.
   */
  readonly endsWith?: RequestId | undefined;
}

/** True when `message` is the response (result or error) to request `id`. */
function isResponseTo(message: JSONRPCMessage | undefined, id: RequestId | undefined): boolean {
  return (
    id !== undefined &&
    message !== undefined &&
    !("method" in message) &&
    "id" in message &&
    message.id === id
  );
}

/** A logical SSE stream with at most one HTTP connection attached. */
export class ResumableStream {
  readonly id: string;
  readonly #options: StreamOptions;
  /** The connection attached (it carries events once {@link #primed} is it). */
  #connection: SseStream | undefined;
  /** The connection whose replay is written: later events go straight to it. */
  #primed: SseStream | undefined;
  /** The id of the last event written to a connection (or of the stream's first priming event). */
  #lastWritten: string | undefined;
  /** The last ids written to the connection, so a copy another replica relays is not written twice. */
  #written = new Set<string>();
  #finished = false;
  #finishing = false;
  #abandoned = false;
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;
  #dropped = 0;
  #primingFailure: { readonly error: unknown } | undefined;

  constructor(id: string, options: StreamOptions) {
    this.id = id;
    this.#options = options;
    this.#lastWritten = options.cursor;
    if (options.cursor === undefined) {
      this.#enqueue(async () => {
        try {
          this.#lastWritten = await options.events.append(options.sessionKey, id, undefined);
        } catch (error) {
          this.#primingFailure = { error };
          throw error;
        }
      });
    }
  }

  /**
   * What the event store rejected the stream's priming event with, once it did (see
   * {@link ResumableStream.settled}): such a stream has no place in the store, so its connections
   * carry no event id and a client that loses one cannot resume it. Undefined while the priming
   * event is stored or pending, and for a stream another replica began.
   */
  get primingFailure(): { readonly error: unknown } | undefined {
    return this.#primingFailure;
  }

  /** True while an HTTP connection carries this stream. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** True once the stream ended (a POST stream after its response). */
  get finished(): boolean {
    return this.#finished || this.#finishing;
  }

  /** The id of the last event a connection carried (the stream's place for a new connection). */
  get cursor(): string | undefined {
    return this.#lastWritten;
  }

  /** Resolves once everything sent so far is stored and written. */
  settled(): Promise<void> {
    return this.#tail;
  }

  /**
   * Attaches a new connection, replacing any other: a priming event (`retry:`, empty data, and the
   * id of the client's place in the stream, so that reconnecting from it loses nothing), then the
   * events after that place: those after the client's `Last-Event-ID` when resuming
   * (`lastEventId`), else those no connection carried yet. The connection closes once replayed
   * when the stream has finished.
   */
  connect(lastEventId?: string): SseStream {
    if (this.#connection !== undefined) this.#detach(this.#connection);
    const { keepAliveMs, maxBufferedBytes, onConnection } = this.#options;
    const connection = new SseStream({
      keepAliveMs,
      maxBufferedBytes,
      onCancel: () => this.#detach(connection),
    });
    this.#connection = connection;
    onConnection(true);
    this.#enqueue(() => this.#replay(connection, lastEventId));
    return connection;
  }

  async #replay(connection: SseStream, lastEventId: string | undefined): Promise<void> {
    const { events, sessionKey, retryMs } = this.#options;
    const cursor = lastEventId ?? this.#lastWritten;
    const pending = cursor === undefined ? [] : ((await events.after(sessionKey, cursor))?.events ?? []);
    if (this.#connection !== connection) return;
    if (!this.#finished && cursor !== undefined) connection.sendRaw(formatPrimingEvent(cursor, retryMs));
    this.#written.clear();
    for (const event of pending) {
      if (event.message !== undefined) connection.replay(event.message, event.id);
      this.#remember(event.id);
      this.#lastWritten = event.id;
      if (isResponseTo(event.message, this.#options.endsWith)) this.#finished = true;
    }
    this.#primed = connection;
    if (this.#finished) this.#detach(connection);
  }

  /**
   * Stores `message` as the next event and writes it to the connection, if one is attached. Past
   * {@link MAX_PENDING_APPENDS} messages waiting for the store, it is dropped (and reported). With
   * `onceKey`, nothing is stored or written when another view of the session (on any replica)
   * already stored a message under that key: the replica holding the connection gets it from that
   * one's event.
   */
  send(message: JSONRPCMessage, onceKey?: string): void {
    if (this.finished) return;
    if (this.#pending >= MAX_PENDING_APPENDS) {
      this.#dropped++;
      this.#options.report(
        new Error(
          `SSE stream ${this.id} dropped a message: ${MAX_PENDING_APPENDS} were waiting for the event store (${this.#dropped} dropped so far)`,
        ),
      );
      return;
    }
    this.#pending++;
    this.#enqueue(async () => {
      try {
        await this.#append(message, onceKey);
      } finally {
        this.#pending--;
      }
    });
  }

  /**
   * Writes an event another replica stored on this stream (delivered by the bus) to the
   * connection, unless it carried it already.
   */
  deliver(event: StoredEvent): void {
    this.#enqueue(async () => {
      const connection = this.#primed;
      if (connection === undefined || connection !== this.#connection || connection.closed) return;
      if (this.#written.has(event.id) || this.#finished) return;
      this.#remember(event.id);
      if (event.message !== undefined) connection.send(event.message, event.id);
      this.#lastWritten = event.id;
      if (isResponseTo(event.message, this.#options.endsWith)) {
        this.#finished = true;
        this.#detach(connection);
      }
    });
  }

  /**
   * Moves the place a new connection starts from (the session's record names where the last
   * connection, on any replica, stopped); ignored while a connection is attached here.
   */
  moveCursor(cursor: string): void {
    this.#enqueue(async () => {
      if (this.#connection === undefined) this.#lastWritten = cursor;
    });
  }

  async #append(message: JSONRPCMessage, onceKey?: string): Promise<void> {
    let id: string | undefined;
    try {
      id = await this.#store(message, onceKey);
      // Another view stored it first: its replica publishes the event to this stream's holder.
      if (id === undefined) return;
    } catch (error) {
      // The store stayed down past STORE_RETRY_WINDOW_MS: the live client, if any, still gets it.
      this.#options.report(error);
    }
    if (id !== undefined) this.#options.onStored?.({ id, message });
    const connection = this.#primed;
    if (connection !== undefined && connection === this.#connection && !connection.closed) {
      connection.send(message, id);
      if (id !== undefined) {
        this.#lastWritten = id;
        this.#remember(id);
      }
    }
  }

  /**
   * Stores `message`, trying again every {@link STORE_RETRY_DELAY_MS} while the store refuses it
   * (its engine restarting), for up to {@link STORE_RETRY_WINDOW_MS}: the stream's queue waits,
   * so a message is neither lost to a client that resumes from the store nor overtaken by a later
   * one. Resolves undefined when an `onceKey` append found the message stored by another view.
   *
   * @throws what the store last threw, once the window passed or the stream was abandoned.
   */
  async #store(message: JSONRPCMessage, onceKey: string | undefined): Promise<string | undefined> {
    const { events, sessionKey } = this.#options;
    const untilMs = Date.now() + STORE_RETRY_WINDOW_MS;
    let first = true;
    for (;;) {
      try {
        if (onceKey === undefined) return await events.append(sessionKey, this.id, message);
        return await events.appendOnce(sessionKey, this.id, onceKey, message);
      } catch (error) {
        if (this.#abandoned || Date.now() + STORE_RETRY_DELAY_MS > untilMs) throw error;
        if (first) this.#options.report(error);
        first = false;
        await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_DELAY_MS));
      }
    }
  }

  /**
   * Closes the connection, after what was sent before, but not the stream (SSE polling): the
   * client reconnects after `retry:` milliseconds with `Last-Event-ID` and gets what followed.
   */
  closeConnection(): void {
    this.#enqueue(async () => {
      if (this.#connection !== undefined) this.#detach(this.#connection);
    });
  }

  /**
   * Ends the stream after everything sent so far and `last` (its response, never dropped).
   * Resolves true when a connection carried it to the end (its events need not be kept for
   * resumption).
   */
  finish(last?: JSONRPCMessage): Promise<boolean> {
    this.#finishing = true;
    let delivered = false;
    const done = this.#enqueue(async () => {
      if (last !== undefined && !this.#finished) await this.#append(last);
      delivered = this.connected && this.#primed === this.#connection;
      this.#finished = true;
      if (this.#connection !== undefined) this.#detach(this.#connection);
    });
    return done.then(() => delivered);
  }

  /**
   * Ends the stream at once (its session ended): what the connection has not carried yet is
   * dropped and the connection closes.
   */
  abandon(reason: Error): void {
    this.#finished = true;
    this.#abandoned = true;
    const connection = this.#connection;
    if (connection === undefined) return;
    connection.abort(reason);
    this.#detach(connection);
  }

  /**
   * Writes to the attached connection the events the store holds after `from` that it has not
   * carried: those whose bus message was lost (the bus was reconnecting). Resolves with the id of
   * the last stored event seen (undefined when none, or no connection is attached).
   */
  catchUp(from: string): Promise<string | undefined> {
    let last: string | undefined;
    return this.#enqueue(async () => {
      const connection = this.#primed;
      if (connection === undefined || connection !== this.#connection || connection.closed) return;
      const found = await this.#options.events.after(this.#options.sessionKey, from);
      if (found === undefined || connection !== this.#connection || connection.closed) return;
      for (const event of found.events) {
        last = event.id;
        if (this.#written.has(event.id)) continue;
        this.#remember(event.id);
        if (event.message !== undefined) connection.send(event.message, event.id);
        this.#lastWritten = event.id;
      }
    }).then(() => last);
  }

  /** Notes an id written, keeping the last {@link MAX_PENDING_APPENDS} only. */
  #remember(id: string): void {
    this.#written.add(id);
    if (this.#written.size > MAX_PENDING_APPENDS) {
      this.#written.delete(this.#written.values().next().value as string);
    }
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#tail.then(task).catch((error: unknown) => this.#options.report(error));
    this.#tail = run;
    return run;
  }

  #detach(connection: SseStream): void {
    connection.close();
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    this.#primed = undefined;
    this.#options.onConnection(false);
  }
}
