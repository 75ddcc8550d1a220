/**
 * Writing a Server-Sent Events response stream: each JSON-RPC message is one `event: message`
 * event, keep-alive comment lines keep long streams open through proxies, and the client closing
 * the stream is reported (that is how HTTP cancels a request). Spec:
 * basic/transports/streamable-http (a response stream carries only that request's notifications,
 * then its response; closing it cancels the request).
 */
import type { JSONRPCMessage } from "../../protocol/jsonrpc.js";

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

/** Options of an {@link SseStream}. */
export interface SseStreamOptions {
  /** Milliseconds between keep-alive comments; 0 sends none. */
  keepAliveMs: number;
  /** Called once when the reader cancels the stream (the client went away). */
  onCancel: (reason: unknown) => void;
}

const encoder = new TextEncoder();

/** A server-to-client SSE stream of JSON-RPC messages, exposed as a web `ReadableStream`. */
export class SseStream {
  /** The bytes of the stream, to use as a `Response` body. */
  readonly readable: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(options: SseStreamOptions) {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: (reason) => {
        if (this.#closed) return;
        this.#stop();
        options.onCancel(reason);
      },
    });
    if (options.keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#write(SSE_KEEP_ALIVE), options.keepAliveMs);
    }
  }

  /** True once the stream was closed by either side. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one message (with the event id `id`, when given); does nothing once the stream is closed. */
  send(message: JSONRPCMessage, id?: string): void {
    this.#write(formatSseEvent(message, id));
  }

  /** Sends a pre-formatted event (a priming event); does nothing once the stream is closed. */
  sendRaw(text: string): void {
    this.#write(text);
  }

  /** Ends the stream (after everything sent so far). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#stop();
    try {
      this.#controller.close();
    } catch {
      // already errored or cancelled
    }
  }

  #write(text: string): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode(text));
    } catch {
      this.#stop();
    }
  }

  #stop(): void {
    this.#closed = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}
