/**
 * The standalone GET stream of a 2025-era Streamable HTTP session: the SSE stream on which the
 * server sends messages unrelated to any client request (`notifications/tools/list_changed`,
 * resource updates, log messages, and server -> client requests). It is kept open: when the
 * connection ends, the client reconnects after the server's `retry:` with `Last-Event-ID`; after
 * `maxAttempts` reconnections in a row that delivered no message it gives up; a server that offers
 * no GET stream (405) is left alone. Spec
 * (2025-11-25): basic/transports §Listening for Messages from the Server, §Resumability and
 * Redelivery.
 */
import { deferred } from "../../../protocol/async.js";
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import { SessionExpiredError, TransportError } from "../../transport.js";
import { newCursor, readSseMessages } from "./event-stream.js";
import type { HttpClientAnswer } from "./http-answer.js";
import { linkedController, type ReconnectPolicy, reconnectDelay, sleep } from "./reconnect.js";

/** What the standalone stream needs from its transport. */
export interface StandaloneStreamOptions {
  /**
   * Opens one connection (a GET, with `Last-Event-ID` when given). Resolves with the SSE body, or
   * undefined when the server offers no GET stream (HTTP 405). Throws `SessionExpiredError` when
   * the session is gone, another error for any other failure.
   */
  connect(lastEventId: string | undefined, signal: AbortSignal): Promise<HttpClientAnswer | undefined>;
  readonly maxEventBytes: number;
  readonly reconnect: ReconnectPolicy;
  /** Receives every message of the stream. */
  onMessage(message: JSONRPCMessage): void;
  /** Receives the failures of the stream (it never throws). */
  onError(error: Error): void;
}

/** One session's GET stream; runs from {@link start} until {@link stop}. */
export class StandaloneStream {
  readonly #options: StandaloneStreamOptions;
  readonly #stopped = new AbortController();
  readonly #opened = deferred<void>();
  #running: Promise<void> | undefined;

  constructor(options: StandaloneStreamOptions) {
    this.#options = options;
  }

  /** Resolves once the stream has stopped for good (stopped, refused, or out of attempts). */
  get done(): Promise<void> {
    return this.#running ?? Promise.resolve();
  }

  /**
   * Resolves once the first connection attempt has an outcome: the server answered the GET (the
   * stream is open, or refused with 405), the attempt failed, or the stream was stopped. Never
   * rejects.
   */
  get opened(): Promise<void> {
    return this.#opened.promise;
  }

  /** Opens the stream (in the background). Idempotent. */
  start(): void {
    this.#running ??= this.#run();
  }

  /** Closes the stream and stops reconnecting. Idempotent. */
  stop(): void {
    this.#stopped.abort(new TransportError("the GET stream was closed"));
    this.#opened.resolve();
  }

  async #run(): Promise<void> {
    try {
      await this.#connectAndRead();
    } finally {
      this.#opened.resolve();
    }
  }

  async #connectAndRead(): Promise<void> {
    const { connect, maxEventBytes, reconnect, onMessage, onError } = this.#options;
    const signal = this.#stopped.signal;
    const cursor = newCursor();
    // Reconnections in a row that delivered no message: priming events and comments do not reset
    // it, so a server that only primes and closes cannot keep the client reconnecting forever.
    let failures = 0;
    let reconnecting = false;
    while (!signal.aborted) {
      let delivered = false;
      // Each connection has its own controller, unlinked when it ends: no listener per
      // reconnection accumulates on the long-lived stop signal.
      const connection = linkedController(signal);
      try {
        let body: HttpClientAnswer | undefined;
        try {
          body = await connect(cursor.lastEventId, connection.signal);
        } finally {
          this.#opened.resolve();
        }
        if (body === undefined) return;
        await readSseMessages(body, {
          maxEventBytes,
          cursor,
          onMessage: (message) => {
            delivered = true;
            onMessage(message);
            return false;
          },
        });
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof SessionExpiredError) {
          onError(error);
          return;
        }
        onError(error instanceof Error ? error : new TransportError(String(error)));
      } finally {
        connection.unlink();
      }
      if (delivered) failures = 0;
      else if (reconnecting) failures++;
      if (failures >= reconnect.maxAttempts) {
        onError(
          new TransportError(
            `the GET stream could not be reopened after ${reconnect.maxAttempts} attempts in a row; ` +
              "messages the server sends outside a request are no longer received",
          ),
        );
        return;
      }
      try {
        await sleep(reconnectDelay(reconnect, cursor, failures), signal);
      } catch {
        return;
      }
      reconnecting = true;
    }
  }
}
