/**
 * The server side of stdio: a loop that reads JSON-RPC lines from stdin, hands each request to a
 * dispatcher concurrently (each with its own AbortSignal and notification sink), and writes
 * responses and notifications to stdout as they come. Requests naming a protocol version in
 * `_meta` are served statelessly at 2026-07-28 until `initialize` (or a 2025-era client's first
 * request) opens the connection's one handshake-era session, whose server -> client requests go
 * to stdout and whose answers come back on stdin; from then on the connection stays in that era.
 * stdout carries protocol messages only; diagnostics go to the logger (stderr by default).
 * Spec: basic/transports/stdio, basic/patterns/cancellation, basic/patterns/subscriptions;
 * (2025-11-25) basic/lifecycle.
 */
import type { Readable, Writable } from "node:stream";
import { deferred } from "../../protocol/async.js";
import { internalError, McpError } from "../../protocol/errors.js";
import {
  DEFAULT_MAX_JSON_DEPTH,
  errorResponse,
  isRequestId,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  parseMessage,
  type RequestId,
} from "../../protocol/jsonrpc.js";
import { checkLogger, type Logger, stderrLogger } from "../../protocol/logger.js";
import { notificationFramingError } from "../../protocol/notification-framing.js";
import { checkInteger, checkOptionsObject, optionTypeError } from "../../protocol/options.js";
import { withTraceFields } from "../../telemetry/log-fields.js";
import {
  type BackChannelRequest,
  type Dispatcher,
  isDispatcher,
  type RequestEnvironment,
} from "../dispatcher.js";
import { asksForStatelessRevision, isStatelessRequest, statelessRequestOnSessionError } from "./era.js";
import { LineDecoder, type LineTooLongError } from "./framing.js";
import { StdioLegacySession } from "./legacy-session.js";
import { MessageWriter } from "./writer.js";

/** The logger methods the stdio loop calls. */
const STDIO_LOG_LEVELS = ["debug", "warn", "error"] as const;

/**
 * Where the stdio loop reports what it does not put on the wire: the part of the one `Logger` it
 * uses (any `Logger` fits, a server's included). It must never write to stdout.
 */
export type StdioLogger = Pick<Logger, (typeof STDIO_LOG_LEVELS)[number]>;

/** Options of {@link serveStdio}. */
export interface ServeStdioOptions {
  /** Where messages come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where messages go; nothing else is ever written to it. Default `process.stdout`. */
  stdout?: Writable;
  /** Diagnostics. Default: the dispatcher's `logger` (a `Server`'s or `MCPServer`'s), else warnings and errors to stderr. */
  logger?: StdioLogger;
  /**
   * The longest line accepted from stdin, in bytes; a longer one is discarded and answered with
   * -32600 (no id). Default `DEFAULT_MAX_LINE_BYTES` (16 MiB).
   */
  maxLineBytes?: number;
  /**
   * Deepest nesting of objects and arrays a message may have, the message itself counting as 1;
   * a deeper one is answered -32600 (its id echoed when it can be read) and never dispatched.
   * Default `DEFAULT_MAX_JSON_DEPTH` (64).
   */
  maxJsonDepth?: number;
  /**
   * On a handshake-era connection, how long a server -> client request (`elicitation/create`,
   * `sampling/createMessage`, `roots/list`, `ping`) waits for the client's answer before it is
   * cancelled and rejects with -32001, in milliseconds, unless the request names its own.
   * Default `DEFAULT_BACK_CHANNEL_TIMEOUT_MS` of tsmcp/transport (60 s).
   */
  requestTimeoutMs?: number;
}

/** A running stdio loop. */
export interface StdioServerHandle {
  /**
   * Resolves once the loop has stopped: stdin ended or failed, stdout failed, or `close()` was
   * called. In-flight requests are aborted by then and queued output handed to stdout. Never
   * rejects. The library never exits the process; do it (or let it end) after this resolves.
   */
  readonly closed: Promise<void>;
  /**
   * Stops the loop: stops reading stdin, aborts in-flight requests (their responses are not
   * written), flushes queued output. Does not end stdout. Idempotent; resolves like `closed`.
   */
  close(): Promise<void>;
}

function checkOptions(dispatcher: unknown, options: ServeStdioOptions): void {
  if (!isDispatcher(dispatcher)) {
    throw new TypeError("serveStdio: dispatcher must implement handle(message, env)");
  }
  const { stdin, stdout, logger, maxLineBytes, maxJsonDepth, requestTimeoutMs } = checkOptionsObject(
    "serveStdio",
    options,
  );
  if (stdin !== undefined && (typeof stdin?.on !== "function" || typeof stdin.pause !== "function")) {
    throw optionTypeError("serveStdio", "stdin", "a Readable stream");
  }
  if (stdout !== undefined && (typeof stdout?.write !== "function" || typeof stdout.on !== "function")) {
    throw optionTypeError("serveStdio", "stdout", "a Writable stream");
  }
  if (logger !== undefined) checkLogger(logger, "serveStdio", "logger", STDIO_LOG_LEVELS);
  checkInteger("serveStdio", "maxLineBytes", maxLineBytes, { min: 1, unit: "bytes" });
  checkInteger("serveStdio", "maxJsonDepth", maxJsonDepth, { min: 1, unit: "levels" });
  checkInteger("serveStdio", "requestTimeoutMs", requestTimeoutMs, { min: 1, unit: "milliseconds" });
}

/** The abort reason a handler sees when its request is cancelled or the loop stops. */
function abortReason(message: string): DOMException {
  return new DOMException(message, "AbortError");
}

/**
 * One request in flight and the environment it is dispatched with. Its AbortController is made
 * only when something reads `signal` (most handlers never do): until then an abort is recorded and
 * handed to the controller when it is made, so the signal reads as aborted either way.
 */
class InFlight implements RequestEnvironment {
  readonly networkTransport = "pipe" as const;
  /** Writes a notification of this request while it is in flight and not aborted. */
  readonly notify: (notification: JSONRPCNotification) => void;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  /** True once the request is answered, aborted, or dropped: its notifications are no longer written. */
  #finished = false;

  constructor(send: (message: JSONRPCMessage) => void) {
    this.notify = (notification) => {
      if (!this.#finished) send(notification);
    };
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** Marks the request answered: later notifications are dropped. */
  finish(): void {
    this.#finished = true;
  }

  abort(reason: unknown): void {
    this.#finished = true;
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** The environment of a request on the connection's handshake-era session: the back-channel too. */
class SessionInFlight extends InFlight {
  readonly session: StdioLegacySession;
  readonly request: BackChannelRequest;

  constructor(send: (message: JSONRPCMessage) => void, session: StdioLegacySession) {
    super(send);
    this.session = session;
    this.request = session.requestWithin(this.signal);
  }
}

class StdioServerLoop implements StdioServerHandle {
  readonly closed: Promise<void>;
  readonly #dispatcher: Dispatcher;
  readonly #stdin: Readable;
  readonly #logger: StdioLogger;
  readonly #decoder: LineDecoder;
  readonly #writer: MessageWriter;
  readonly #inFlight = new Map<RequestId, InFlight>();
  /** Aborted when the loop stops; the signal notifications are dispatched with. */
  readonly #lifetime = new AbortController();
  readonly #done = deferred<void>();
  readonly #requestTimeoutMs: number | undefined;
  readonly #maxJsonDepth: number;
  /** The connection's one handshake-era session, once a handshake-era request opened it. */
  #session: StdioLegacySession | undefined;
  /** True once a request of the stateless core was served: then only `initialize` opens the session. */
  #servedStateless = false;
  #stopping = false;
  #inputPaused = false;

  constructor(dispatcher: Dispatcher, options: ServeStdioOptions) {
    this.#dispatcher = dispatcher;
    this.#requestTimeoutMs = options.requestTimeoutMs;
    this.#maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    this.#stdin = options.stdin ?? process.stdin;
    this.#logger = withTraceFields(options.logger ?? dispatcher.logger ?? stderrLogger);
    this.#decoder = new LineDecoder({
      ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
      onError: (error) => this.#onLineTooLong(error),
    });
    this.#writer = new MessageWriter(options.stdout ?? process.stdout, {
      onError: (error) => {
        this.#logger.warn("stdout failed; stopping the stdio loop", { error });
        void this.#stop("stdout failed");
      },
      onDrain: () => this.#resumeInput(),
    });
    this.closed = this.#done.promise;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("end", this.#onEnd);
    this.#stdin.on("close", this.#onEnd);
    this.#stdin.on("error", this.#onInputError);
  }

  close(): Promise<void> {
    return this.#stop("the server closed the stdio loop");
  }

  readonly #onData = (chunk: Buffer | string): void => {
    if (this.#stopping) return;
    for (const line of this.#decoder.push(chunk)) {
      if (this.#stopping) return;
      this.#onLine(line);
    }
  };

  readonly #onEnd = (): void => {
    void this.#stop("stdin closed");
  };

  readonly #onInputError = (error: Error): void => {
    this.#logger.warn("stdin failed; stopping the stdio loop", { error });
    void this.#stop("stdin failed");
  };

  #onLineTooLong(error: LineTooLongError): void {
    this.#logger.warn("discarded an over-long line from stdin", { maxLineBytes: error.maxLineBytes });
    this.#send(
      errorResponse(
        undefined,
        McpError.of("INVALID_REQUEST", `Invalid Request: message exceeds ${error.maxLineBytes} bytes`),
      ),
    );
  }

  #onLine(line: string): void {
    const parsed = parseMessage(line, { maxDepth: this.#maxJsonDepth });
    switch (parsed.kind) {
      case "invalid":
        this.#logger.debug("answering an invalid message", { code: parsed.error.code });
        this.#send(errorResponse(parsed.id, parsed.error));
        return;
      case "response":
        if (this.#session?.resolve(parsed.message) !== true) {
          this.#logger.warn(
            "ignoring a JSON-RPC response from the client that answers no request in flight",
            {
              id: parsed.message.id,
            },
          );
        }
        return;
      case "notification":
        this.#onNotification(parsed.message);
        return;
      case "request":
        this.#onRequest(parsed.message);
        return;
    }
  }

  /**
   * Acts on a notification, unless it breaks the framing rules of the connection's era (a request
   * method without an id, malformed params of a notification the protocol defines): that one is
   * logged with `warn` and dropped, as nothing may answer a notification. The 2026-07-28 rules
   * apply while only stateless requests were served; otherwise (no request yet, or a session) the
   * 2025 rules (`notifications/cancelled` may omit `requestId`).
   */
  #onNotification(notification: JSONRPCNotification): void {
    const era = this.#session === undefined && this.#servedStateless ? "modern" : "legacy";
    const malformed = notificationFramingError(notification, era);
    if (malformed !== undefined) {
      this.#logger.warn(`ignoring a notification: ${malformed.message}`);
      return;
    }
    if (notification.method === "notifications/cancelled") {
      this.#cancel(notification.params?.requestId, notification.params?.reason);
      return;
    }
    const session = this.#session;
    const env: RequestEnvironment =
      session === undefined
        ? { signal: this.#lifetime.signal, networkTransport: "pipe" }
        : { signal: this.#lifetime.signal, session, networkTransport: "pipe" };
    this.#dispatch(notification, env).then(
      () => {},
      () => {},
    );
  }

  /**
   * Aborts one in-flight request; unknown, finished or malformed ids are ignored. Spec:
   * basic/patterns/cancellation.
   */
  #cancel(requestId: unknown, reason: unknown): void {
    const entry = isRequestId(requestId) ? this.#inFlight.get(requestId) : undefined;
    if (entry === undefined) {
      this.#logger.debug("ignoring a cancellation for no in-flight request", { requestId });
      return;
    }
    this.#inFlight.delete(requestId as RequestId);
    const why = typeof reason === "string" && reason.length > 0 ? `: ${reason}` : "";
    entry.abort(abortReason(`request cancelled by the client${why}`));
  }

  /**
   * The session `request` belongs to, undefined for a request of the stateless core. Until the
   * session exists, a request naming a protocol version in `_meta` is stateless; `initialize`
   * opens the session at any point, and so does a request without that `_meta` when no stateless
   * request came before it (a 2025-era client's first `ping`).
   */
  #sessionFor(request: JSONRPCRequest): StdioLegacySession | undefined {
    if (this.#session !== undefined) return this.#session;
    if (isStatelessRequest(request)) {
      this.#servedStateless = true;
      return undefined;
    }
    if (this.#servedStateless && request.method !== "initialize") return undefined;
    this.#session = new StdioLegacySession(
      {
        send: (message) => this.#send(message),
        warn: (message, fields) => this.#logger.warn(message, fields),
      },
      this.#requestTimeoutMs,
    );
    return this.#session;
  }

  #onRequest(request: JSONRPCRequest): void {
    const { id } = request;
    const session = this.#sessionFor(request);
    if (session !== undefined && asksForStatelessRevision(request)) {
      this.#logger.debug("refusing a 2026-07-28 request on a handshake-era connection", { id });
      this.#send(errorResponse(id, statelessRequestOnSessionError()));
      return;
    }
    if (this.#inFlight.has(id)) {
      this.#logger.warn("refusing a request whose id is already in flight", { id });
      this.#send(
        errorResponse(
          id,
          McpError.of("INVALID_REQUEST", "Invalid Request: a request with this id is already in flight"),
        ),
      );
      return;
    }
    const entry =
      session === undefined ? new InFlight(this.#sendBound) : new SessionInFlight(this.#sendBound, session);
    this.#inFlight.set(id, entry);
    let pending: Promise<JSONRPCResponse | undefined>;
    try {
      pending = Promise.resolve(this.#dispatcher.handle(request, entry));
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (response) => this.#answer(request, entry, response),
      (error: unknown) => this.#answer(request, entry, this.#dispatchFailed(request, error)),
    );
  }

  /** Writes the response of a request, unless it was cancelled or the loop stopped. */
  #answer(request: JSONRPCRequest, entry: InFlight, response: JSONRPCResponse | undefined): void {
    const { id } = request;
    entry.finish();
    if (this.#inFlight.get(id) === entry) this.#inFlight.delete(id);
    if (entry.aborted) {
      this.#logger.debug("not answering a cancelled request", { id });
      return;
    }
    if (response === undefined) {
      this.#logger.error("the dispatcher gave no response to a request", { id, method: request.method });
      this.#send(errorResponse(id, internalError()));
      return;
    }
    this.#send(response);
  }

  /** Calls the dispatcher; a throw or rejection (a broken contract) becomes -32603 for requests. */
  #dispatch(
    message: JSONRPCRequest | JSONRPCNotification,
    env: RequestEnvironment,
  ): Promise<JSONRPCResponse | undefined> {
    let pending: Promise<JSONRPCResponse | undefined>;
    try {
      pending = Promise.resolve(this.#dispatcher.handle(message, env));
    } catch (error) {
      return Promise.resolve(this.#dispatchFailed(message, error));
    }
    return pending.then(undefined, (error: unknown) => this.#dispatchFailed(message, error));
  }

  /** Logs a dispatcher that threw or rejected (a broken contract); a request's answer is -32603. */
  #dispatchFailed(
    message: JSONRPCRequest | JSONRPCNotification,
    error: unknown,
  ): JSONRPCResponse | undefined {
    this.#logger.error("the dispatcher failed", { method: message.method, error });
    return "id" in message ? errorResponse(message.id, internalError()) : undefined;
  }

  readonly #sendBound = (message: JSONRPCMessage): void => {
    this.#send(message);
  };

  /** Writes one message; false when it was dropped (stdout closed, or it could not be serialised). */
  #send(message: JSONRPCMessage): boolean {
    try {
      if (!this.#writer.write(message)) {
        this.#logger.debug("stdout is closed; dropping a message");
        return false;
      }
    } catch (error) {
      this.#logger.error("a message could not be serialised", { error });
      if ("id" in message && message.id !== undefined && !("error" in message) && !("method" in message)) {
        this.#send(errorResponse(message.id, internalError()));
      }
      return false;
    }
    if (this.#writer.congested && !this.#inputPaused && !this.#stopping) {
      this.#inputPaused = true;
      this.#stdin.pause();
    }
    return true;
  }

  #resumeInput(): void {
    if (!this.#inputPaused || this.#stopping) return;
    this.#inputPaused = false;
    this.#stdin.resume();
  }

  #stop(why: string): Promise<void> {
    if (this.#stopping) return this.closed;
    this.#stopping = true;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("end", this.#onEnd);
    this.#stdin.off("close", this.#onEnd);
    this.#stdin.off("error", this.#onInputError);
    this.#stdin.pause();
    if (this.#decoder.end().length > 0) {
      this.#logger.debug("ignoring an unterminated last line on stdin");
    }
    const reason = abortReason(why);
    this.#session?.end(reason);
    for (const entry of this.#inFlight.values()) entry.abort(reason);
    this.#inFlight.clear();
    this.#lifetime.abort(reason);
    void this.#writer.idle().then(() => {
      this.#writer.detach();
      this.#done.resolve();
    });
    return this.closed;
  }
}

/**
 * Serves a dispatcher (a `Server` or `MCPServer`) over stdio: one line of JSON per message.
 *
 * - Each request is dispatched at once, concurrently with the others, with its own AbortSignal and
 *   a `notify` that writes its notifications to stdout; each response is written when it is ready.
 * - Eras: a request other than `initialize` whose `_meta` names a protocol version is a 2026-07-28
 *   request and stands alone. `initialize`, whenever it comes, opens the connection's one
 *   handshake-era session, and so does a first request without that `_meta`; 2026-07-28 requests
 *   before it (a dual-era client's `server/discover` probe, answered or not) are served, those still
 *   in flight finish and are answered. The session (`env.session`) then goes with every later
 *   message: the dispatcher answers `initialize` (a second one with -32600), and while serving a
 *   request may send the client requests (`env.request`, written to stdout, answered on stdin,
 *   cancelled with `notifications/cancelled` when that request is, timed out after
 *   `requestTimeoutMs`); a 2026-07-28 request is refused with -32600 (the eras do not mix on one
 *   session); the session's `signal` aborts when the loop stops.
 * - `notifications/cancelled {requestId}` aborts that request's signal and its response is never
 *   written; an unknown id is ignored. Other notifications go to the dispatcher. A notification
 *   that breaks the framing rules (a request method such as `tools/call` without an `id`, or
 *   malformed params of a notification the protocol defines, such as a `requestId` that is neither
 *   a string nor an integer) is never answered nor dispatched: it is logged with `warn`.
 * - An unparseable line is answered with -32700 (no id), an invalid message with -32600 (with its
 *   id when readable), as is one nested deeper than `maxJsonDepth`, an over-long line with -32600
 *   (no id); the loop continues. A response from
 *   the client that answers no server request in flight is ignored and logged. A request reusing an in-flight id is refused with -32600.
 * - While stdout is congested, stdin is paused (backpressure); lines are never split or interleaved.
 * - On stdin EOF (or `close()`), in-flight requests are aborted and `closed` resolves.
 *
 * Spec: basic/transports/stdio, basic/patterns/cancellation, basic/patterns/subscriptions.
 *
 * @param dispatcher answers each message.
 * @param options streams (default `process.stdin` / `process.stdout`), logger, line limit.
 * @throws TypeError when `dispatcher` or an option is not what it should be; RangeError for a bad
 *   `maxLineBytes`, `maxJsonDepth` or `requestTimeoutMs`.
 */
export function serveStdio(dispatcher: Dispatcher, options: ServeStdioOptions = {}): StdioServerHandle {
  checkOptions(dispatcher, options);
  const loop = new StdioServerLoop(dispatcher, options);
  return { closed: loop.closed, close: () => loop.close() };
}
