/**
 * Writing a Server-Sent Events response stream: each JSON-RPC message is one `event: message`
 * event, keep-alive comment lines keep long streams open through proxies, and the client closing
 * the stream is reported (that is how HTTP cancels a request). Spec:
 * basic/transports/streamable-http (a response stream carries only that request's notifications,
 * then its response; closing it cancels the request).
 */
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import type { AnswerStream, SseWritable } from "../exchange.js";

/** The keep-alive comment line, ignored by every SSE parser. */
export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

/** The response headers of an SSE stream (`X-Accel-Buffering: no` keeps nginx from buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  "X-Accel-Buffering": "no",
});

/**
 * One SSE event carrying `message`, with an `id:` line when `id` is given (a resumable stream).
 * `JSON.stringify` escapes line breaks inside strings, so the data is always a single line.
 */
export function formatSseEvent(message: JSONRPCMessage, id?: string): string {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return `${idLine}event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * A priming event: an id and empty data, so that the client has a `Last-Event-ID` to reconnect
 * with before any message arrives, and the `retry:` milliseconds it must wait before reconnecting.
 * Spec (2025-11-25): basic/transports §Sending Messages to the Server (SSE polling).
 */
export function formatPrimingEvent(id: string, retryMs: number): string {
  return `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}

/** Bytes an SSE stream may hold for a client that does not read them, by default: 1 MiB. */
export const DEFAULT_MAX_STREAM_BUFFER_BYTES = 1024 * 1024;

/** Options of an {@link SseStream}. */
export interface SseStreamOptions {
  /** Milliseconds between keep-alive comments; 0 sends none. */
  keepAliveMs: number;
  /**
   * Bytes written but not yet taken by the reader (the connection) at which the stream gives up on
   * it: a write that finds this many bytes still waiting (one event larger than the bound goes to a
   * reader that keeps up) drops the queued bytes, the stream errors (the front end closes the connection) and `onCancel` is
   * called, as when the client goes away.
   */
  maxBufferedBytes: number;
  /** Called once when the reader cancels the stream (the client went away) or stops reading it. */
  onCancel: (reason: unknown) => void;
}

/** The reason a stream whose reader fell more than its bound behind ends with. */
function overflowed(maxBufferedBytes: number): Error {
  return new Error(
    `the client did not read the SSE stream: more than ${maxBufferedBytes} bytes were waiting`,
  );
}

const encoder = new TextEncoder();

/** Where the bytes of a stream go once a front end takes it. */
interface Sink {
  write(bytes: Uint8Array): void;
  /** Bytes written that the reader has not taken. */
  buffered(): number;
  close(): void;
  error(reason: Error): void;
}

/**
 * A server-to-client SSE stream of JSON-RPC messages. A front end takes its bytes once, either as
 * a web `ReadableStream` ({@link readable}) or written straight to a Node response
 * ({@link pipeTo}); what is sent before that is held (within the bound).
 */
export class SseStream implements AnswerStream {
  readonly #options: SseStreamOptions;
  #sink: Sink | undefined;
  /** Bytes sent before a sink was attached. */
  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  /** No more writes: closed, errored or cancelled. */
  #closed = false;
  /** How the stream ended before a sink was attached, applied when one is. */
  #ending: { kind: "close" } | { kind: "error"; reason: Error } | undefined;

  constructor(options: SseStreamOptions) {
    this.#options = options;
    if (options.keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#write(SSE_KEEP_ALIVE), options.keepAliveMs);
    }
  }

  /** True once the stream was closed by either side. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The bytes of the stream as a web stream, to use as a `Response` body. Takes the stream. */
  get readable(): ReadableStream<Uint8Array> {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const maxBufferedBytes = this.#options.maxBufferedBytes;
    const readable = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        cancel: (reason) => this.#cancelled(reason),
      },
      // Counting bytes makes `desiredSize` the room left under the bound.
      { highWaterMark: maxBufferedBytes, size: (chunk) => chunk.byteLength },
    );
    this.#attach({
      write: (bytes) => {
        try {
          controller.enqueue(bytes);
        } catch {
          this.#stop();
        }
      },
      buffered: () => maxBufferedBytes - (controller.desiredSize ?? maxBufferedBytes),
      close: () => {
        try {
          controller.close();
        } catch {
          // already errored or cancelled
        }
      },
      error: (reason) => controller.error(reason),
    });
    return readable;
  }

  /**
   * Writes the stream straight to `target` (its head already written) and ends it when the stream
   * closes; the connection is destroyed when the stream errors (a reader that fell behind, a
   * session that ended). `target` closing first cancels the stream. Takes the stream.
   */
  pipeTo(target: SseWritable): void {
    const gone = () => this.#cancelled(new Error("the client closed the connection"));
    if (target.destroyed) {
      gone();
      return;
    }
    target.once("close", () => {
      if (!target.writableFinished) gone();
    });
    this.#attach({
      write: (bytes) => {
        target.write(bytes);
      },
      buffered: () => target.writableLength,
      close: () => target.end(),
      error: (reason) => target.destroy(reason),
    });
  }

  /** Sends one message (with the event id `id`, when given); does nothing once the stream is closed. */
  send(message: JSONRPCMessage, id?: string): void {
    this.#write(formatSseEvent(message, id));
  }

  /**
   * Sends one stored event replayed to a resuming client: not checked against the bound (the
   * event store bounds a replay), though it counts for the writes that follow.
   */
  replay(message: JSONRPCMessage, id: string): void {
    this.#write(formatSseEvent(message, id), false);
  }

  /** Sends a pre-formatted event (a priming event); does nothing once the stream is closed. */
  sendRaw(text: string): void {
    this.#write(text);
  }

  /** Ends the stream (after everything sent so far). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#stop();
    if (this.#sink === undefined) this.#ending = { kind: "close" };
    else this.#sink.close();
  }

  /**
   * Ends the stream dropping what the reader has not taken yet: a graceful end when nothing is
   * waiting, else the stream errors (the front end closes the connection). For a stream nobody
   * will read any more (its session ended). Idempotent.
   */
  abort(reason: Error): void {
    if (this.#closed) return;
    if (this.#buffered() === 0) {
      this.close();
      return;
    }
    this.#stop();
    this.#fail(reason);
  }

  #attach(sink: Sink): void {
    if (this.#sink !== undefined) throw new Error("an SSE stream is taken by one front end only");
    this.#sink = sink;
    const pending = this.#pending;
    this.#pending = [];
    this.#pendingBytes = 0;
    const ending = this.#ending;
    if (ending?.kind === "error") {
      sink.error(ending.reason);
      return;
    }
    for (const bytes of pending) sink.write(bytes);
    if (ending?.kind === "close") sink.close();
  }

  #cancelled(reason: unknown): void {
    if (this.#closed) return;
    this.#stop();
    this.#options.onCancel(reason);
  }

  #fail(reason: Error): void {
    if (this.#sink === undefined) {
      this.#pending = [];
      this.#pendingBytes = 0;
      this.#ending = { kind: "error", reason };
    } else {
      this.#sink.error(reason);
    }
  }

  /** Bytes sent that the reader has not taken. */
  #buffered(): number {
    return this.#sink === undefined ? this.#pendingBytes : this.#sink.buffered();
  }

  #write(text: string, bounded = true): void {
    if (this.#closed) return;
    const bytes = encoder.encode(text);
    // A client is behind when what it has not read already reaches the bound at the next write; one
    // event larger than the bound still goes to a client that reads (the bound is not an event size).
    if (bounded && this.#buffered() >= this.#options.maxBufferedBytes) {
      const reason = overflowed(this.#options.maxBufferedBytes);
      this.#stop();
      this.#fail(reason);
      this.#options.onCancel(reason);
      return;
    }
    if (this.#sink !== undefined) {
      this.#sink.write(bytes);
      return;
    }
    this.#pending.push(bytes);
    this.#pendingBytes += bytes.byteLength;
  }

  #stop(): void {
    this.#closed = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}
