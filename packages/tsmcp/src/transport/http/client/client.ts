/**
 * The client side of Streamable HTTP: each message is one POST carrying the request-metadata
 * headers; the answer is read as JSON or as an SSE stream (notifications first, the response last).
 * Aborting a request closes its stream, which is how HTTP cancels at 2026-07-28. On a 2025-era
 * connection (after `setProtocolEra({ kind: "legacy" })`) the transport also keeps the session:
 * the `Mcp-Session-Id` of the initialize response and `MCP-Protocol-Version` on every request, the
 * standalone GET stream, the server's requests answered through `onRequest` and POSTed back, a
 * request stream the server closed early resumed with GET and `Last-Event-ID`, 404 as the end of
 * the session, and DELETE on close. Spec: basic/transports/streamable-http (one POST per message,
 * a JSON or SSE answer, §Request Metadata); (2025-11-25) basic/transports §Session Management.
 */

import { abortFailure } from "../../../protocol/async.js";
import { McpError } from "../../../protocol/errors.js";
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
} from "../../../protocol/jsonrpc.js";
import { parseHttpUrl } from "../../../protocol/options.js";
import { type AbortSource, abortSourceOf } from "../../abort-source.js";
import { IncomingRequests } from "../../incoming.js";
import {
  type IncomingRequestOptions,
  type ProtocolEra,
  SessionExpiredError,
  type Transport,
  TransportError,
  type TransportRequestOptions,
} from "../../transport.js";
import { MCP_HEADERS, requestMetadataHeaders } from "../headers.js";
import { isEventStreamContentType, isJsonContentType } from "../media-type.js";
import { authorizingSender } from "./client-auth.js";
import { checkClientOptions, type HttpClientTransportOptions } from "./client-options.js";
import { fetchFailure } from "./failures.js";
import { type HttpClientAnswer, type HttpSender, isOk } from "./http-answer.js";
import { checkAccepted, readJsonAnswer, refuseRedirect, withoutError } from "./json-answer.js";
import type { ReconnectPolicy } from "./reconnect.js";
import { authorizationRefusal } from "./refusal.js";
import { readRequestStream } from "./request-stream.js";
import { senderFor } from "./sender.js";
import { StandaloneStream } from "./standalone-stream.js";
import { retryingSender } from "./unavailable.js";

export { DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS } from "../../incoming.js";
export {
  type HttpAuthChallenge,
  type HttpAuthRequest,
  type HttpClientAuth,
  MAX_AUTH_RETRIES,
} from "./client-auth.js";
export {
  DEFAULT_MAX_RESPONSE_BYTES,
  type HttpClientTransportOptions,
} from "./client-options.js";
export {
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_RECONNECT_DELAY_MS,
  MAX_SERVER_RETRY_MS,
  MIN_SERVER_RETRY_MS,
} from "./reconnect.js";
export { DEFAULT_MAX_RETRY_AFTER_MS, DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES } from "./unavailable.js";

const ACCEPT = "application/json, text/event-stream";
/** The session header, in lower case as the senders take header names. */
const SESSION_ID_HEADER = "mcp-session-id";
const PROTOCOL_VERSION_HEADER = MCP_HEADERS.protocolVersion.toLowerCase();
/** Milliseconds `close()` waits for the answer to its DELETE. */
const DELETE_TIMEOUT_MS = 5000;

type NotificationSink = (notification: JSONRPCNotification) => void;

/**
 * A {@link Transport} over Streamable HTTP: one POST per message to `url`.
 *
 * ```ts
 * const transport = new HttpClientTransport("http://127.0.0.1:3000/mcp", {
 *   headers: { Authorization: `Bearer ${token}` },
 * });
 * ```
 *
 * Requests go through the `fetch` option when given; otherwise on Node.js (20.16 and later) through
 * `node:http` / `node:https` with a keep-alive Agent of the transport's own (no web streams; its
 * idle connections are released by `close`), and elsewhere through the global `fetch`. Every path
 * keeps the same rules: no redirect followed, `maxResponseBytes`, SSE parsed by
 * `eventsource-parser`, cancellation by the signal.
 *
 * A message answered 503 with a `Retry-After` of at most `maxRetryAfterMs` is sent again, with
 * the same body, after that delay (at most `maxServiceUnavailableRetries` times); the 503 that is
 * not retried fails the message as described below.
 *
 * `request` resolves with the server's response, including a JSON-RPC error response for the
 * request that came with a 4xx/5xx status. It rejects with an `McpError` (its `httpStatus` the
 * answer's status) when the server answered with a JSON-RPC error that has no id (a refusal of the
 * HTTP request itself, such as a 400 naming the supported versions); with a
 * `SessionExpiredError` on a 404 to a request that carried `Mcp-Session-Id`; with an
 * `AuthorizationRefusedError` (a `TransportError` whose `challenge` names the `error` and
 * `errorDescription`) on a 401 or 403 with a `WWW-Authenticate` challenge the `auth` hook did not
 * answer by sending again; with a
 * `TransportError` (with `httpStatus` when the server answered) when no response can be had: a
 * non-2xx status without a JSON-RPC error body, a redirect (never followed: it would resend the
 * request, answers and headers included, to another URL), a body or SSE event over
 * `maxResponseBytes`, a body that is not the response to this request, an SSE stream that ends
 * without it (and, on a 2025-era session, cannot be resumed), a network failure (the message says
 * which: "connection refused to <url>"), or a closed transport; with the signal's reason when
 * `options.signal` aborts, except when the abort interrupted the `auth` hook and the hook's error
 * names the step with the reason on its `cause` chain (a timeout during sign-in): that
 * `TransportError` "authorization failed: ..." then stands.
 */
export class HttpClientTransport implements Transport {
  /** Streamable HTTP sends the per-request headers (`Mcp-Param-*`). */
  readonly sendsHttpHeaders = true;
  /** Streamable HTTP runs over TCP. */
  readonly networkTransport = "tcp";
  /** Receives the notifications of requests sent without their own `onNotification`, and those of the GET stream. */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** {@inheritDoc Transport.onRequest} */
  onRequest?: (request: JSONRPCRequest, options: IncomingRequestOptions) => Promise<Record<string, unknown>>;
  /**
   * Problems that belong to no request: the GET stream failing or giving up, the session ending
   * while only the GET stream used it, an answer to a server request that could not be delivered,
   * a notification handler that threw; nothing once {@link close} was called. Default: dropped
   * (`Client.connect` sets it to its logger's `warn`).
   */
  onError?: (error: Error) => void;
  /** The MCP endpoint. */
  readonly url: URL;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #sender: HttpSender;
  readonly #maxResponseBytes: number;
  readonly #reconnect: ReconnectPolicy;
  readonly #inFlight = new Set<AbortController>();
  readonly #incoming: IncomingRequests;
  #era: ProtocolEra = { kind: "modern" };
  #sessionId: string | undefined;
  #standalone: StandaloneStream | undefined;
  #closed = false;

  /**
   * @throws TypeError when `url` is not an absolute http(s) URL, a header is not a valid HTTP header,
   *   `fetch` is not a function, or `auth` is no `HttpClientAuth`; RangeError when `maxResponseBytes` is not a positive integer, or
   *   `maxReconnectAttempts` / `reconnectDelayMs` is not a non-negative integer, or
   *   `maxConcurrentServerRequests` is not a positive integer, or `maxServiceUnavailableRetries` is
   *   not a non-negative integer, or `maxRetryAfterMs` is not an integer from 0 to 2147483647.
   */
  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    this.url = parseHttpUrl('HttpClientTransport option "url"', url);
    const checked = checkClientOptions(options);
    this.#headers = checked.headers;
    const sender = senderFor(this.url, checked.fetch);
    const authorized =
      checked.auth === undefined ? sender : authorizingSender(sender, this.url, checked.auth);
    // Outermost, so that each re-send after a 503 gets fresh authorization headers (a DPoP proof
    // is good for one request only).
    this.#sender = retryingSender(authorized, checked.serviceUnavailable);
    this.#maxResponseBytes = checked.maxResponseBytes;
    this.#reconnect = checked.reconnect;
    this.#incoming = new IncomingRequests(checked.maxConcurrentServerRequests);
  }

  /** The `Mcp-Session-Id` the server gave with its initialize response, while the session lasts. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /**
   * Switches to the 2025-era wire after a successful `initialize`, or back to modern (see
   * {@link Transport.setProtocolEra}). At `legacy`, the GET stream opens when the server gave a session id (a server without
   * sessions has no stream for messages outside a request). Back at `modern`, the GET stream
   * closes and the session id is forgotten.
   */
  setProtocolEra(era: ProtocolEra): void {
    this.#era = era.kind === "legacy" ? { kind: "legacy", protocolVersion: era.protocolVersion } : era;
    if (era.kind === "modern") {
      this.#endSession();
      return;
    }
    if (this.#sessionId !== undefined && !this.#closed && this.#standalone === undefined) {
      this.#standalone = this.#newStandaloneStream();
      this.#standalone.start();
    }
  }

  /**
   * Resolves once the standalone GET stream of a 2025-era session has its first answer (open,
   * refused, or failed); at once when there is none (2026-07-28, or a server without sessions).
   * Never rejects. See {@link Transport.notificationsReady}.
   */
  notificationsReady(): Promise<void> {
    return this.#standalone?.opened ?? Promise.resolve();
  }

  /** {@inheritDoc Transport.request} */
  async request(request: JSONRPCRequest, options: TransportRequestOptions = {}): Promise<JSONRPCResponse> {
    // A new initialize starts a new session: sent without the old id, it mints the next one.
    if (request.method === "initialize") this.#endSession();
    let posted = false;
    const caller = abortSourceOf(options);
    try {
      return await this.#withController(caller, async (signal) => {
        const session = this.#sessionId;
        posted = true;
        const response = await this.#post(request, options.headers, signal);
        const minted = response.header(SESSION_ID_HEADER)?.trim();
        if (request.method === "initialize" && isOk(response) && minted) this.#sessionId = minted;
        const deliver = (notification: JSONRPCNotification) =>
          this.#deliver(notification, options.onNotification ?? this.onNotification);
        return this.#readResponse(request, response, session, deliver, signal);
      });
    } catch (error) {
      if (posted && caller?.aborted === true && error === caller.reason) this.#cancel(request, error);
      throw error;
    }
  }

  /**
   * On a 2025-era session a closed stream is no cancellation (the server may keep the request
   * running for a resumption): tells the server with `notifications/cancelled`. An initialize is
   * never cancelled. Spec (2025-11-25): basic/utilities/cancellation, basic/transports.
   */
  #cancel(request: JSONRPCRequest, reason: unknown): void {
    if (this.#era.kind !== "legacy" || this.#closed || request.method === "initialize") return;
    const why = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "";
    this.notify({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: request.id, ...(why === "" ? {} : { reason: why }) },
    }).catch((error: unknown) =>
      this.#report(error instanceof Error ? error : new TransportError(String(error))),
    );
  }

  /** Sends a notification; the server must answer 202 Accepted (see {@link Transport.notify}). */
  async notify(notification: JSONRPCNotification): Promise<void> {
    await this.#withController(undefined, async (signal) => {
      const session = this.#sessionId;
      const response = await this.#post(notification, undefined, signal);
      await this.#checkAccepted(response, session, "a notification");
    });
  }

  /**
   * Aborts every request in flight (they reject with a `TransportError`) and the server's requests
   * being answered, closes the GET stream, sends DELETE for a 2025-era session (a 405 or a failure
   * is ignored; waits at most 5 seconds), and refuses new requests. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new TransportError("transport closed");
    for (const controller of this.#inFlight) controller.abort(closed);
    this.#inFlight.clear();
    this.#incoming.abortAll(closed);
    const session = this.#sessionId;
    this.#endSession();
    if (session === undefined) {
      this.#sender.close();
      return;
    }
    const headers = this.#baseHeaders(undefined);
    headers[SESSION_ID_HEADER] = session;
    try {
      const response = await this.#sender.send(
        "DELETE",
        headers,
        undefined,
        AbortSignal.timeout(DELETE_TIMEOUT_MS),
      );
      await response.discard();
    } catch {
      // The session ends on the server's side anyway, when it is idle long enough.
    }
    this.#sender.close();
  }

  /** Forgets the session: closes its GET stream; the next request carries no session id. */
  #endSession(): void {
    this.#sessionId = undefined;
    this.#standalone?.stop();
    this.#standalone = undefined;
  }

  async #withController<T>(
    caller: AbortSource | undefined,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.#closed) throw new TransportError("transport is closed");
    if (caller?.aborted) throw caller.reason;
    const controller = new AbortController();
    const unlink = caller === undefined ? undefined : caller.onAbort((reason) => controller.abort(reason));
    this.#inFlight.add(controller);
    try {
      return await run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) throw abortFailure(controller.signal, error);
      if (error instanceof TransportError || error instanceof McpError) throw error;
      throw fetchFailure(this.url, error);
    } finally {
      unlink?.();
      this.#inFlight.delete(controller);
    }
  }

  /**
   * The headers of every message: the user's, then the session's (`Mcp-Session-Id` and, at
   * `legacy`, `MCP-Protocol-Version`) except on an initialize, which opens a session.
   */
  #baseHeaders(message: JSONRPCMessage | undefined): Record<string, string> {
    // A fresh plain object per request (names in lower case, so a later one replaces an earlier):
    // the senders take it as it is, with no `Headers` built on the Node path.
    const headers = { ...this.#headers };
    if (message !== undefined && "method" in message && message.method === "initialize") return headers;
    if (this.#sessionId !== undefined) headers[SESSION_ID_HEADER] = this.#sessionId;
    if (this.#era.kind === "legacy") headers[PROTOCOL_VERSION_HEADER] = this.#era.protocolVersion;
    return headers;
  }

  #post(
    message: JSONRPCMessage,
    extraHeaders: Record<string, string> | undefined,
    signal: AbortSignal,
  ): Promise<HttpClientAnswer> {
    const headers = this.#baseHeaders(message);
    if (extraHeaders !== undefined) setHeaders(headers, extraHeaders);
    if ("method" in message) setHeaders(headers, requestMetadataHeaders(message));
    headers["content-type"] = "application/json";
    headers.accept = ACCEPT;
    return this.#sender.send("POST", headers, JSON.stringify(message), signal);
  }

  /** A GET for an SSE stream: the standalone one, or the one `lastEventId` belongs to. */
  async #get(lastEventId: string | undefined, signal: AbortSignal): Promise<HttpClientAnswer> {
    const headers = this.#baseHeaders(undefined);
    headers.accept = "text/event-stream";
    if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
    return this.#sender.send("GET", headers, undefined, signal);
  }

  /** Throws a `SessionExpiredError` for a 404 to a message that carried a session id. */
  async #checkSession(response: HttpClientAnswer, session: string | undefined): Promise<void> {
    if (response.status !== 404 || session === undefined) return;
    await response.discard();
    const expired = new SessionExpiredError(
      `the server ended session ${JSON.stringify(session)} (HTTP 404 from ${this.url.href}); initialize a new one`,
      { httpStatus: 404 },
    );
    if (this.#sessionId === session) {
      this.#endSession();
      // The server's requests of that session can no longer be answered.
      this.#incoming.abortAll(expired);
    }
    throw expired;
  }

  /** Checks the 202 a notification or an answer must get (after the session check). */
  async #checkAccepted(response: HttpClientAnswer, session: string | undefined, what: string): Promise<void> {
    await this.#checkSession(response, session);
    await checkAccepted(response, this.url, what, this.#maxResponseBytes);
  }

  async #readResponse(
    request: JSONRPCRequest,
    response: HttpClientAnswer,
    session: string | undefined,
    deliver: NotificationSink,
    signal: AbortSignal,
  ): Promise<JSONRPCResponse> {
    const contentType = response.header("content-type");
    await refuseRedirect(response, this.url);
    await this.#checkSession(response, session);
    if (isJsonContentType(contentType)) {
      return readJsonAnswer(request, response, this.url, this.#maxResponseBytes);
    }
    if (isOk(response) && isEventStreamContentType(contentType)) {
      // Reading the stream a request's answer came on: on a 2025-era session it is resumed with
      // GET and `Last-Event-ID` when it ends before the response.
      return readRequestStream(response, {
        request,
        maxEventBytes: this.#maxResponseBytes,
        reconnect: this.#reconnect,
        signal,
        resumable: () => this.#era.kind === "legacy",
        resume: (lastEventId, resumeSignal) => this.#openStream(lastEventId, resumeSignal),
        route: (message) => this.#route(message, deliver),
      });
    }
    await response.discard();
    if (!isOk(response)) throw await withoutError(response, this.url);
    throw new TransportError(
      `HTTP ${response.status} with content type ${JSON.stringify(contentType)}: expected application/json or text/event-stream`,
      { httpStatus: response.status },
    );
  }

  /**
   * Opens an SSE stream with GET: the body, or undefined for a 405 (no GET stream here).
   *
   * @throws SessionExpiredError for a 404; TransportError for any other answer that is no SSE stream.
   */
  async #openStream(
    lastEventId: string | undefined,
    signal: AbortSignal,
  ): Promise<HttpClientAnswer | undefined> {
    const session = this.#sessionId;
    let response: HttpClientAnswer;
    try {
      response = await this.#get(lastEventId, signal);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw fetchFailure(this.url, error);
    }
    await this.#checkSession(response, session);
    if (response.status === 405 && lastEventId === undefined) {
      await response.discard();
      return undefined;
    }
    if (!isOk(response) || !isEventStreamContentType(response.header("content-type"))) {
      await response.discard();
      const refused = await authorizationRefusal(response, this.url);
      if (refused !== undefined) throw refused;
      throw new TransportError(
        `the GET for an SSE stream got HTTP ${response.status} from ${this.url.href}`,
        {
          httpStatus: response.status,
        },
      );
    }
    return response;
  }

  #newStandaloneStream(): StandaloneStream {
    return new StandaloneStream({
      connect: (lastEventId, signal) => this.#openStream(lastEventId, signal),
      maxEventBytes: this.#maxResponseBytes,
      reconnect: this.#reconnect,
      onMessage: (message) => this.#route(message, (n) => this.#deliver(n, this.onNotification)),
      onError: (error) => this.#report(error),
    });
  }

  /**
   * A message of an SSE stream that is not the awaited response: a notification is delivered
   * (unless it cancels a server request being answered here), a server request is answered at
   * `legacy` (ignored at 2026-07-28, where servers send none), a response is ignored.
   */
  #route(message: JSONRPCMessage, deliver: NotificationSink): void {
    if (!("method" in message)) return;
    if (!("id" in message)) {
      if (!this.#incoming.cancel(message)) deliver(message);
      return;
    }
    if (this.#era.kind === "legacy") void this.#answer(message);
  }

  /** Answers a server request through `onRequest` and POSTs the answer back. */
  async #answer(request: JSONRPCRequest): Promise<void> {
    const response = await this.#incoming.answer(request, this.onRequest);
    if (response === undefined || this.#closed) return;
    try {
      await this.#withController(undefined, async (signal) => {
        const session = this.#sessionId;
        const answered = await this.#post(response, undefined, signal);
        await this.#checkAccepted(answered, session, `the answer to its ${request.method} request`);
      });
    } catch (error) {
      this.#report(error instanceof Error ? error : new TransportError(String(error)));
    }
  }

  #deliver(notification: JSONRPCNotification, sink: NotificationSink | undefined): void {
    try {
      sink?.(notification);
    } catch (error) {
      this.#report(new TransportError("a notification handler threw", { cause: error }));
    }
  }

  #report(error: Error): void {
    // After close() the failures are the teardown's own (requests aborted with "transport closed").
    if (this.#closed) return;
    try {
      this.onError?.(error);
    } catch {
      // A throwing onError has nowhere left to go.
    }
  }
}

/** Sets each of `source`'s headers on `headers`, its name in lower case (replacing one set before). */
function setHeaders(headers: Record<string, string>, source: Record<string, string>): void {
  for (const name in source) headers[name.toLowerCase()] = source[name] as string;
}
