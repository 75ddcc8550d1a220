/**
 * One resumable SSE stream of a session: a POST's stream (the messages related to that request,
 * then its response) or the session's standalone GET stream. The stream outlives its HTTP
 * connections: every event goes to the event store first, then to the connection attached at the
 * moment, if any; a client that lost the connection (or whose connection the server closed, SSE
 * polling) reconnects with GET and `Last-Event-ID` and gets the rest. Spec (2025-11-25):
 * basic/transports §Sending Messages to the Server, §Resumability and Redelivery.
 */
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import { formatPrimingEvent, SseStream } from "../server/sse.js";
import type { EventStore, StoredEvent } from "./event-store.js";

/** What a {@link ResumableStream} needs from its session. */
export interface StreamOptions {
  readonly store: EventStore;
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
}

/** A logical SSE stream with at most one HTTP connection attached. */
export class ResumableStream {
  readonly id: string;
  readonly #options: StreamOptions;
  #connection: SseStream | undefined;
  /** The id of the last event written to a connection (or of the stream's first priming event). */
  #lastWritten: string;
  #finished = false;

  constructor(id: string, options: StreamOptions) {
    this.id = id;
    this.#options = options;
    this.#lastWritten = options.store.append(id, undefined);
  }

  /** True while an HTTP connection carries this stream. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** True once the stream ended (a POST stream after its response). */
  get finished(): boolean {
    return this.#finished;
  }

  /**
   * Attaches a new connection, replacing any other: a priming event (`retry:`, empty data, and the
   * id of the client's place in the stream, so that reconnecting from it loses nothing), then the
   * events after that place: those after the client's `Last-Event-ID` when resuming (`from`), else
   * those no connection carried yet. The connection closes at once when the stream has finished.
   */
  connect(from?: { lastEventId: string; events: readonly StoredEvent[] }): SseStream {
    if (this.#connection !== undefined) this.#detach(this.#connection);
    const { store, keepAliveMs, retryMs, maxBufferedBytes, onConnection } = this.#options;
    const cursor = from?.lastEventId ?? this.#lastWritten;
    const pending = from?.events ?? store.after(cursor)?.events ?? [];
    const connection = new SseStream({
      keepAliveMs,
      maxBufferedBytes,
      onCancel: () => this.#detach(connection),
    });
    this.#connection = connection;
    onConnection(true);
    if (!this.#finished) connection.sendRaw(formatPrimingEvent(cursor, retryMs));
    for (const event of pending) {
      if (event.message !== undefined) connection.replay(event.message, event.id);
      this.#lastWritten = event.id;
    }
    if (this.#finished) this.#detach(connection);
    return connection;
  }

  /** Stores `message` as the next event and writes it to the connection, if one is attached. */
  send(message: JSONRPCMessage): void {
    if (this.#finished) return;
    const id = this.#options.store.append(this.id, message);
    if (this.connected) {
      this.#connection?.send(message, id);
      this.#lastWritten = id;
    }
  }

  /**
   * Closes the connection but not the stream (SSE polling): the client reconnects after `retry:`
   * milliseconds with `Last-Event-ID` and gets what followed.
   */
  closeConnection(): void {
    if (this.#connection !== undefined) this.#detach(this.#connection);
  }

  /**
   * Ends the stream after everything sent so far. Returns true when a connection carried it to
   * the end (its events need not be kept for resumption).
   */
  finish(): boolean {
    const delivered = this.connected;
    this.#finished = true;
    this.closeConnection();
    return delivered;
  }

  /**
   * Ends the stream at once (its session ended): what the connection has not carried yet is
   * dropped and the connection closes.
   */
  abandon(reason: Error): void {
    this.#finished = true;
    const connection = this.#connection;
    if (connection === undefined) return;
    connection.abort(reason);
    this.#detach(connection);
  }

  #detach(connection: SseStream): void {
    connection.close();
    if (this.#connection !== connection) return;
    this.#connection = undefined;
    this.#options.onConnection(false);
  }
}
