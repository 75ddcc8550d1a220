/**
 * The client side of Streamable HTTP: each request is one POST carrying the request-metadata
 * headers; the answer is read as JSON or as an SSE stream (notifications first, the response last).
 * Aborting a request closes its stream, which is how HTTP cancels. Spec:
 * basic/transports/streamable-http (one POST per message, a JSON or SSE answer, §Request Metadata).
 */
import { createParser } from "eventsource-parser";
import { linkSignal } from "../../protocol/async.js";
import {
  isErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  parseMessage,
} from "../../protocol/jsonrpc.js";
import {
  checkFunction,
  checkInteger,
  checkObject,
  checkOptionsObject,
  parseHttpUrl,
} from "../../protocol/options.js";
import { type Transport, TransportError, type TransportRequestOptions } from "../transport.js";
import { requestMetadataHeaders } from "./headers.js";
import { isEventStreamContentType, isJsonContentType } from "./media-type.js";

/** The largest response body, or SSE event, an {@link HttpClientTransport} reads by default: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Options of an {@link HttpClientTransport}. */
export interface HttpClientTransportOptions {
  /** Headers sent on every POST (for example `Authorization`). The protocol's own headers win. */
  headers?: Record<string, string>;
  /** The `fetch` to use. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /**
   * The largest JSON response body, and the largest single SSE event, in bytes; a larger one ends
   * the request with a `TransportError` (the rest is not read). Default
   * {@link DEFAULT_MAX_RESPONSE_BYTES} (32 MiB). An SSE stream as a whole has no limit
   * (`subscriptions/listen` streams live long); each event does.
   */
  maxResponseBytes?: number;
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
 * answered) when no response can be had: a non-2xx status without a JSON-RPC error body, a
 * redirect (never followed: it would resend the request, answers and headers included, to another
 * URL), a body or SSE event over `maxResponseBytes`, a body that is not the response to this
 * request, an SSE stream that ends without it, a network failure, or a closed transport; with the
 * signal's reason when `options.signal` aborts.
 */
export class HttpClientTransport implements Transport {
  /** Streamable HTTP sends the per-request headers (`Mcp-Param-*`). */
  readonly sendsHttpHeaders = true;
  /** Receives the notifications of requests sent without their own `onNotification`. */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** The MCP endpoint. */
  readonly url: URL;
  readonly #headers: Headers;
  readonly #fetch: typeof fetch;
  readonly #maxResponseBytes: number;
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  /**
   * @throws TypeError when `url` is not an absolute http(s) URL, a header is not a valid HTTP header, or
   *   `fetch` is not a function; RangeError when `maxResponseBytes` is not a positive integer.
   */
  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    this.url = parseHttpUrl('HttpClientTransport option "url"', url);
    const {
      headers,
      fetch: fetchOption,
      maxResponseBytes,
    } = checkOptionsObject("HttpClientTransport", options);
    checkObject("HttpClientTransport", "headers", headers);
    this.#headers = new Headers(headers);
    checkFunction("HttpClientTransport", "fetch", fetchOption);
    const fetchImpl = fetchOption ?? globalThis.fetch;
    if (typeof fetchImpl !== "function") {
      throw new TypeError('HttpClientTransport: no global fetch; pass the "fetch" option');
    }
    this.#fetch = fetchImpl;
    checkInteger("HttpClientTransport", "maxResponseBytes", maxResponseBytes, { min: 1, unit: "bytes" });
    this.#maxResponseBytes = maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
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
    const unlink = linkSignal(callerSignal, controller);
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
      unlink();
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
    return this.#fetch(this.url, {
      method: "POST",
      headers,
      body: JSON.stringify(message),
      signal,
      redirect: "manual",
    });
  }

  async #readResponse(
    request: JSONRPCRequest,
    response: Response,
    onNotification: ((notification: JSONRPCNotification) => void) | undefined,
  ): Promise<JSONRPCResponse> {
    const contentType = response.headers.get("content-type");
    if (isRedirect(response)) {
      await discard(response);
      const location = response.headers.get("location");
      throw new TransportError(
        `HTTP ${response.status} from ${this.url.href} redirects${location === null ? "" : ` to ${location}`}; ` +
          "redirects are not followed (the request would be resent elsewhere): connect to the final URL",
        { httpStatus: response.status },
      );
    }
    if (!response.ok) {
      if (isJsonContentType(contentType)) {
        const parsed = parseMessage(await readText(response, this.#maxResponseBytes));
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
      const parsed = parseMessage(await readText(response, this.#maxResponseBytes));
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
      return readEventStream(request, response.body, deliver, this.#maxResponseBytes);
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
 * the response arrives. Parsing uses `eventsource-parser` (comment lines, keep-alives, CRLF); an
 * event (or an unfinished line) longer than `maxEventBytes` fails the stream: the parser stops
 * buffering at that many characters, and a dispatched event is checked in UTF-8 bytes.
 */
async function readEventStream(
  request: JSONRPCRequest,
  body: ReadableStream<Uint8Array>,
  deliver: (notification: JSONRPCNotification) => void,
  maxEventBytes: number,
): Promise<JSONRPCResponse> {
  let result: JSONRPCResponse | undefined;
  let failure: TransportError | undefined;
  const tooLarge = () => new TransportError(`an SSE event exceeds maxResponseBytes (${maxEventBytes} bytes)`);
  const parser = createParser({
    maxBufferSize: maxEventBytes,
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") failure ??= tooLarge();
    },
    onEvent(event) {
      if (result !== undefined || failure !== undefined) return;
      if (exceedsBytes(event.data, maxEventBytes)) {
        failure = tooLarge();
        return;
      }
      if (event.event !== undefined && event.event !== "message") return;
      const parsed = parseMessage(event.data);
      if (parsed.kind === "notification") deliver(parsed.message);
      else if (parsed.kind === "response" && parsed.message.id === request.id) result = parsed.message;
      else if (parsed.kind === "invalid") {
        failure = new TransportError(`the SSE stream carried an invalid message: ${parsed.error.message}`);
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    while (result === undefined && failure === undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
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

/**
 * Reads a response body as UTF-8 text, at most `maxBytes` bytes.
 *
 * @throws TransportError when `Content-Length` or the bytes read exceed `maxBytes` (the rest of
 *   the body is not read).
 */
async function readText(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new TransportError(`the response body exceeds maxResponseBytes (${maxBytes} bytes)`, {
      httpStatus: response.status,
    });
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    await discard(response);
    throw tooLarge();
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

const encoder = new TextEncoder();

/** True when `text` takes more than `maxBytes` bytes in UTF-8 (encoded only when its length cannot tell). */
function exceedsBytes(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  if (text.length * 3 <= maxBytes) return false;
  return encoder.encode(text).byteLength > maxBytes;
}

function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}

/** Releases a response body we do not read. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
