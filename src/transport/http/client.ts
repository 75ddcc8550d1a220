/**
 * The client side of Streamable HTTP: each request is one POST carrying the request-metadata
 * headers; the answer is read as JSON or as an SSE stream (notifications first, the response
 * last). Aborting a request closes its stream, which is how HTTP cancels. Spec: §3.2-3.5.
 */
import { createParser } from "eventsource-parser";
import {
  isErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  parseMessage,
} from "../../protocol/jsonrpc.js";
import { type Transport, TransportError, type TransportRequestOptions } from "../transport.js";
import { requestMetadataHeaders } from "./headers.js";
import { isEventStreamContentType, isJsonContentType } from "./media-type.js";

/** Options of an {@link HttpClientTransport}. */
export interface HttpClientTransportOptions {
  /** Headers sent on every POST (for example `Authorization`). The protocol's own headers win. */
  headers?: Record<string, string>;
  /** The `fetch` to use. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

const ACCEPT = "application/json, text/event-stream";

/**
 * A {@link Transport} over Streamable HTTP: one POST per request to `url`.
 *
 * ```ts
 * const transport = new HttpClientTransport("http://127.0.0.1:3000/mcp", {
 *   headers: { Authorization: `Bearer ${token}` },
 * });
 * ```
 *
 * `request` resolves with the server's response, including a JSON-RPC error response that came
 * with a 4xx/5xx status. It rejects with a `TransportError` (with `httpStatus` when the server
 * answered) when no response can be had: a non-2xx status without a JSON-RPC error body, a body that
 * is not the response to this request, an SSE stream that ends without it, a network failure, or a
 * closed transport; with the signal's reason when `options.signal` aborts.
 */
export class HttpClientTransport implements Transport {
  /** Receives the notifications of requests sent without their own `onNotification`. */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** The MCP endpoint. */
  readonly url: URL;
  readonly #headers: Headers;
  readonly #fetch: typeof fetch;
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  /**
   * @throws TypeError when `url` is not an http(s) URL, a header is not a valid HTTP header, or
   *   `fetch` is not a function.
   */
  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    this.url = new URL(url);
    if (this.url.protocol !== "http:" && this.url.protocol !== "https:") {
      throw new TypeError(`HttpClientTransport: url must be http: or https:, got ${this.url.protocol}`);
    }
    this.#headers = new Headers(options.headers);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") throw new TypeError("HttpClientTransport: fetch must be a function");
    this.#fetch = fetchImpl;
  }

  /** {@inheritDoc Transport.request} */
  async request(request: JSONRPCRequest, options: TransportRequestOptions = {}): Promise<JSONRPCResponse> {
    return this.#withController(options.signal, async (signal) => {
      const response = await this.#post(request, options.headers, signal);
      return this.#readResponse(request, response, options.onNotification);
    });
  }

  /** Sends a notification; the server must answer 202 Accepted. {@inheritDoc Transport.notify} */
  async notify(notification: JSONRPCNotification): Promise<void> {
    await this.#withController(undefined, async (signal) => {
      const response = await this.#post(notification, undefined, signal);
      await discard(response);
      if (response.status !== 202) {
        throw new TransportError(`the server answered a notification with HTTP ${response.status}, not 202`, {
          httpStatus: response.status,
        });
      }
    });
  }

  /** Aborts every request in flight (they reject with a `TransportError`) and refuses new ones. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#inFlight) controller.abort(new TransportError("transport closed"));
    this.#inFlight.clear();
  }

  async #withController<T>(
    callerSignal: AbortSignal | undefined,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.#closed) throw new TransportError("transport is closed");
    if (callerSignal?.aborted) throw callerSignal.reason;
    const controller = new AbortController();
    const onAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener("abort", onAbort, { once: true });
    this.#inFlight.add(controller);
    try {
      return await run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason;
      if (error instanceof TransportError) throw error;
      throw new TransportError(`HTTP request to ${this.url.href} failed: ${describe(error)}`, {
        cause: error,
      });
    } finally {
      callerSignal?.removeEventListener("abort", onAbort);
      this.#inFlight.delete(controller);
    }
  }

  #post(
    message: JSONRPCRequest | JSONRPCNotification,
    extraHeaders: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<Response> {
    const headers = new Headers(this.#headers);
    for (const [name, value] of Object.entries(extraHeaders ?? {})) headers.set(name, value);
    for (const [name, value] of Object.entries(requestMetadataHeaders(message))) headers.set(name, value);
    headers.set("Content-Type", "application/json");
    headers.set("Accept", ACCEPT);
    return this.#fetch(this.url, { method: "POST", headers, body: JSON.stringify(message), signal });
  }

  async #readResponse(
    request: JSONRPCRequest,
    response: Response,
    onNotification: ((notification: JSONRPCNotification) => void) | undefined,
  ): Promise<JSONRPCResponse> {
    const contentType = response.headers.get("content-type");
    if (!response.ok) {
      if (isJsonContentType(contentType)) {
        const parsed = parseMessage(await response.text());
        if (
          parsed.kind === "response" &&
          isErrorResponse(parsed.message) &&
          (parsed.message.id === undefined || parsed.message.id === request.id)
        ) {
          return parsed.message;
        }
      } else {
        await discard(response);
      }
      throw new TransportError(`HTTP ${response.status} from ${this.url.href} without a JSON-RPC error`, {
        httpStatus: response.status,
      });
    }
    if (isJsonContentType(contentType)) {
      const parsed = parseMessage(await response.text());
      if (parsed.kind === "response" && parsed.message.id === request.id) return parsed.message;
      throw new TransportError(`the JSON body is not the response to request ${JSON.stringify(request.id)}`, {
        httpStatus: response.status,
      });
    }
    if (isEventStreamContentType(contentType) && response.body !== null) {
      const deliver = (notification: JSONRPCNotification) => {
        const listener = onNotification ?? this.onNotification;
        listener?.(notification);
      };
      return readEventStream(request, response.body, deliver);
    }
    await discard(response);
    throw new TransportError(
      `HTTP ${response.status} with content type ${JSON.stringify(contentType)}: expected application/json or text/event-stream`,
      { httpStatus: response.status },
    );
  }
}

/**
 * Reads an SSE response stream until the response to `request`: notifications go to `deliver`,
 * messages of other event types and server requests are ignored, the stream is released as soon as
 * the response arrives. Parsing uses `eventsource-parser` (comment lines, keep-alives, CRLF).
 */
async function readEventStream(
  request: JSONRPCRequest,
  body: ReadableStream<Uint8Array>,
  deliver: (notification: JSONRPCNotification) => void,
): Promise<JSONRPCResponse> {
  let result: JSONRPCResponse | undefined;
  let failure: TransportError | undefined;
  const parser = createParser({
    onEvent(event) {
      if (result !== undefined || failure !== undefined) return;
      if (event.event !== undefined && event.event !== "message") return;
      const parsed = parseMessage(event.data);
      if (parsed.kind === "notification") deliver(parsed.message);
      else if (parsed.kind === "response" && parsed.message.id === request.id) result = parsed.message;
      else if (parsed.kind === "invalid") {
        failure = new TransportError(`the SSE stream carried an invalid message: ${parsed.error.message}`);
      }
    },
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    while (result === undefined && failure === undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  } finally {
    if (result !== undefined || failure !== undefined) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  if (failure !== undefined) throw failure;
  if (result === undefined) {
    throw new TransportError(
      `the SSE stream ended without the response to request ${JSON.stringify(request.id)}`,
    );
  }
  return result;
}

/** Releases a response body we do not read. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
