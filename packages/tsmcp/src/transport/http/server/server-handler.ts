/**
 * The Streamable HTTP server as a web-standard handler, `(Request) => Promise<Response>`, usable
 * from any framework or runtime: one POST -> one dispatch -> one JSON or SSE response. It guards
 * Host and Origin, enforces the body limit, frames JSON-RPC, checks the request-metadata headers,
 * and turns the client closing the stream into cancellation. Spec:
 * basic/transports/streamable-http, basic/index §Error Codes.
 */
import { ERRORS, type ErrorKind, internalError, McpError } from "../../../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  parseMessage,
  type RequestId,
} from "../../../protocol/jsonrpc.js";
import type { Logger } from "../../../protocol/logger.js";
import { MODERN_PROTOCOL_VERSIONS } from "../../../protocol/versions.js";
import type { MessageBus } from "../../../state/message-bus.js";
import { type Dispatcher, isDispatcher, type LegacySession } from "../../dispatcher.js";
import type { BodyText, HttpExchange, HttpServerAnswer } from "../exchange.js";
import { MCP_HEADERS } from "../headers.js";
import { acceptsEventStream, isJsonContentType } from "../media-type.js";
import { createLegacyEntry, type LegacyEntry } from "../session/legacy.js";
import type { SessionOptions } from "../session/options.js";
import { SessionRegistry } from "../session/registry.js";
import { validateRequestHeadersWith } from "../validate-headers.js";
import { answerRequest, toResponse } from "./answer.js";
import { authenticateRequest, noteAuthRefusal, withAuth } from "./authenticate.js";
import { readBodyText } from "./body.js";
import { checkOptions, type HttpHandlerOptions } from "./handler-options.js";
import { createOriginGuard } from "./origin-guard.js";
import { checkParsedBody } from "./parsed-body.js";
import { answerResourceMetadata, isProtectedResourceMetadataPath } from "./resource-metadata.js";
import { routeRequest } from "./route.js";
import {
  isHandshakeEra,
  notificationRefusal,
  revisionMismatch,
  type ServableMessage,
  type ServedRevisions,
  trimmedVersion,
  unsupportedRevision,
} from "./version-rules.js";

export { DEFAULT_KEEP_ALIVE_MS, type HttpHandlerOptions } from "./handler-options.js";
export type { HttpExchange };

/** A path under the metadata prefix that names no document served here. */
const NOT_FOUND: HttpServerAnswer = {
  kind: "json",
  status: 404,
  text: JSON.stringify({ error: "not_found" }),
};

/** A request whose URL (Host and target) does not parse: -32600, HTTP 400. */
const MALFORMED_URL: HttpServerAnswer = Object.freeze({
  kind: "json",
  status: 400,
  text: JSON.stringify(
    errorResponse(
      undefined,
      McpError.of("INVALID_REQUEST", "Invalid Request: malformed Host header or request target"),
    ),
  ),
});

/** Why a request whose body something read before the handler is refused. */
const BODY_ALREADY_READ =
  "the request body was read before the MCP handler ran (by a middleware?); pass the request unread";

/** A web-standard request handler. Never rejects. */
export interface HttpHandler {
  (request: Request): Promise<Response>;
  /**
   * Ends every handshake-era session (their requests abort, their streams close, their ids get 404
   * from then on) and, in a fleet, unsubscribes from the bus and undoes the dispatcher's
   * `attachBus`; sessions kept in shared stores live on for the other replicas. Idempotent; the
   * handler keeps answering.
   */
  close(): void;
}

/** The handler over exchanges: never rejects. */
export interface HttpExchangeHandler {
  (exchange: HttpExchange): Promise<HttpServerAnswer>;
  /** Ends every handshake-era session, as {@link HttpHandler.close} does. */
  close(): void;
}

/** The path of an absolute URL, or undefined when it does not parse. */
function pathnameOf(url: string): string | undefined {
  try {
    return new URL(url).pathname;
  } catch {
    return undefined;
  }
}

/** The exchange of a web `Request`. */
function exchangeOf(request: Request): HttpExchange {
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    get signal() {
      return request.signal;
    },
    readBody: (maxBodyBytes) => readBodyText(request, maxBodyBytes),
  };
}

function json(body: unknown, status: number, headers?: Record<string, string>): HttpServerAnswer {
  return { kind: "json", status, text: JSON.stringify(body), ...(headers === undefined ? {} : { headers }) };
}

/**
 * The 403 message for a `Host` outside `allowedHosts`: it names the option (a list replaces the
 * loopback defaults), never the header.
 */
export const HOST_REFUSED = "Forbidden: Host not allowed (see allowedHosts)";

/** The 403 message for an `Origin` outside `allowedOrigins`; it never echoes the header. */
export const ORIGIN_REFUSED = "Forbidden: Origin not allowed (see allowedOrigins)";

/** The longest header value a refusal's log line carries; a longer one is cut, marked with "…". */
const LOGGED_HEADER_CHARS = 200;

/**
 * Logs a refused `Host` or `Origin` with `warn`, when the logger has it (a logger given as the
 * option need only have `error`): the value cut to {@link LOGGED_HEADER_CHARS}, as a field, so a
 * JSON-writing logger escapes its control characters.
 */
function noteRefusal(
  logger: Pick<Logger, "error"> & Partial<Pick<Logger, "warn">>,
  message: string,
  fields: Record<string, string | null>,
): void {
  if (typeof logger.warn !== "function") return;
  const shown: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(fields)) {
    shown[name] =
      value !== null && value.length > LOGGED_HEADER_CHARS
        ? `${value.slice(0, LOGGED_HEADER_CHARS)}…`
        : value;
  }
  try {
    logger.warn(`Streamable HTTP refused a request: ${message}`, shown);
  } catch {
    // a failing logger must not break the answer
  }
}

/** An id-less JSON-RPC error for a refusal at the HTTP layer, before the body is read (403, 405, 413, 415). */
function refusal(kind: ErrorKind, message: string, headers?: Record<string, string>): HttpServerAnswer {
  return json(errorResponse(undefined, McpError.of(kind, message)), ERRORS[kind].httpStatus, headers);
}

function errorJson(error: McpError, id: RequestId | undefined): HttpServerAnswer {
  return json(errorResponse(id, error), error.httpStatus);
}

/**
 * Builds the Streamable HTTP handler of a dispatcher (a `Server` or `MCPServer`), serving both
 * eras on one endpoint.
 *
 * Per request, in order: `Host` allowed (else 403); the protected resource metadata document, when
 * configured and asked for; `Origin` allowed (else 403, whatever the method); with `cors`, an
 * `OPTIONS` preflight answered 204 (and CORS headers on every later answer to an allowed
 * `Origin`); the `authenticate` hook, when configured (its `Response`, if it returns one); POST, or GET
 * and DELETE on a handshake-era session (else 405 with `Allow`); `Content-Type: application/json`
 * (else 415); body within `maxBodyBytes` (else 413); one JSON-RPC message nested at most
 * `maxJsonDepth` deep (-32700 / -32600, HTTP 400; batches refused). Then the revision, in either
 * era: an `MCP-Protocol-Version` naming a revision the endpoint does not serve gets -32022 (400)
 * with `data.supported` and `data.requested`, and one that differs from the body's `_meta`
 * revision gets -32020 (400). Then the era: a POST naming a 2026 revision (`MCP-Protocol-Version`
 * header, or `Mcp-Method` and a `_meta` revision) takes the stateless 2026-07-28 path; one with
 * `Mcp-Session-Id`, a 2025 `MCP-Protocol-Version`, or `initialize` or no revision at all is
 * handshake-era and served as the `legacy` option says (sessions by default: see
 * {@link SessionOptions}; `"reject"` keeps it on the 2026 path, where `initialize` gets -32022).
 * In either era a notification that breaks the framing rules (a request method such as
 * `tools/call` without an `id`, or malformed params of a notification the protocol defines, such
 * as a `notifications/cancelled` whose `requestId` is not a string or an integer) gets -32600
 * (400, no id) and is not dispatched.
 *
 * On the 2026 path: a notification is dispatched and answered 202 with no body; a request has its
 * headers checked (-32020, 400) and is dispatched with `{ signal, notify, headers }`. The answer is JSON (status 200, or the error
 * table's status for an error response: 400, 404, 500) unless the dispatcher sends a notification
 * first: then an SSE stream of `event: message` events ending with the response. Without
 * `text/event-stream` in `Accept`, notifications are dropped (`subscriptions/listen` gets 406).
 * Closing the response (or the connection) aborts `signal`.
 *
 * On a session (2025-11-25 transport): `initialize` answers with a fresh `Mcp-Session-Id`; later
 * messages must carry it (400 without, 404 when unknown, ended, evicted or idle too long) and an
 * `MCP-Protocol-Version`, when present, equal to the negotiated revision (else 400); requests are
 * dispatched with `{ signal, notify, headers, session, request, closeSseStream }` and answered
 * JSON (JSON-RPC errors with status 200) or, once the dispatcher sends a message first, as a
 * resumable SSE stream (a priming event with `retry:`, event ids); the client's notifications and
 * responses get 202 (`notifications/cancelled` aborts the named request; a response settles the
 * server -> client request it answers); GET with `Accept: text/event-stream` opens the session's
 * standalone stream (409 when one is open) or, with `Last-Event-ID`, resumes the stream that id
 * belongs to; DELETE ends the session (204).
 *
 * With shared stores and a bus (the `state` option, see {@link SessionOptions}), any replica
 * serves any session: a request on a session another replica opened is served from the
 * `SessionStore`, a server -> client request's answer and a `notifications/cancelled` reach the
 * replica that awaits them over the bus, streams resume on any replica, and DELETE ends the
 * session everywhere. A store or the bus failing while serving a handshake-era request: 503 with
 * `Retry-After` and -32603 "Service Unavailable: session state is unreachable; retry later", the
 * cause to `logger.error`. The dispatcher's optional `attachBus(bus)` is given the bus when the
 * handler is built (its returned function is called on `close()`), and its optional
 * `adoptSession(session)` each session view materialized from the store.
 *
 * Anything unexpected: 500 with -32603 "Internal error", the cause to `logger.error`. `close()`
 * ends every session this handler serves and unsubscribes from the bus.
 *
 * A `Request` whose body was already read (`bodyUsed`, by a middleware) gets 500 with -32603
 * naming the cause: no request can succeed until the server is wired to pass it unread.
 *
 * @throws TypeError when `dispatcher` has no `handle` method or an option has the wrong type (or
 *   `cors.credentials` without an `allowedOrigins` array); RangeError for an out-of-range `maxBodyBytes`,
 *   `maxJsonDepth`, `keepAliveMs`, `maxStreamBufferBytes`, `cors.maxAgeMs` or session bound.
 */
export function createHttpHandler(dispatcher: Dispatcher, options: HttpHandlerOptions = {}): HttpHandler {
  const handle = createExchangeHandler(dispatcher, options, "createHttpHandler");
  const handler = async (request: Request) => toResponse(await handle(exchangeOf(request)));
  return Object.assign(handler, { close: () => handle.close() });
}

/**
 * The handler of {@link createHttpHandler} over {@link HttpExchange}s, answering plain data; for
 * front ends that can write an answer without a web `Response` (the Node adapter). Same checks,
 * same throws.
 */
export function createExchangeHandler(
  dispatcher: Dispatcher,
  options: HttpHandlerOptions = {},
  owner = "createHttpHandler",
): HttpExchangeHandler {
  const ctx = resolveHandler(dispatcher, options, owner);
  const handler = async (request: HttpExchange): Promise<HttpServerAnswer> => {
    try {
      return await serve(ctx, request);
    } catch (error) {
      ctx.report(error);
      return json(errorResponse(undefined, internalError()), ERRORS.INTERNAL_ERROR.httpStatus);
    }
  };
  return Object.assign(handler, { close: () => ctx.close() });
}

/**
 * The hooks a dispatcher may offer for a fleet (optional): `attachBus` takes the bus between
 * replicas (list-changed, resource-updated and listen events then reach every replica) and returns
 * the function that lets it go; `adoptSession` takes a session view this handler materialized from
 * the session store, so the server counts it among its handshake-era sessions.
 */
interface FleetHooks {
  attachBus?(bus: MessageBus): () => void;
  adoptSession?(session: LegacySession): void;
}

/** Hands the bus to the dispatcher's `attachBus`, when it has one; returns the undoing. */
function attachBus(dispatcher: Dispatcher, bus: MessageBus | undefined, report: (error: unknown) => void) {
  const hooks = dispatcher as Dispatcher & FleetHooks;
  if (bus === undefined || typeof hooks.attachBus !== "function") return () => {};
  try {
    const detach = hooks.attachBus(bus);
    return typeof detach === "function" ? detach : () => {};
  } catch (error) {
    report(error);
    return () => {};
  }
}

/** The options once checked, as {@link checkOptions} returns them. */
type ResolvedOptions = ReturnType<typeof checkOptions>;

/** What every request of one handler is served with: its options resolved, built once. */
interface HandlerContext {
  readonly dispatcher: Dispatcher;
  readonly options: ResolvedOptions;
  readonly guard: ReturnType<typeof createOriginGuard>;
  /** Hands a failure to `logger.error`; never throws. */
  readonly report: (error: unknown) => void;
  /** The 2026 revisions the dispatcher serves. */
  readonly supportedVersions: readonly string[];
  /** The revisions the endpoint serves, in both eras. */
  readonly served: ServedRevisions;
  /** How a request is answered when the client does not accept an SSE stream. */
  readonly answering: Parameters<typeof answerRequest>[3];
  /** How a request is answered when it does. */
  readonly streaming: Parameters<typeof answerRequest>[3];
  readonly registry: SessionRegistry;
  /** The handshake-era entry; undefined with `legacy: "reject"`. */
  readonly legacy: LegacyEntry | undefined;
  /** Ends every session and lets go of the bus. Idempotent. */
  readonly close: () => void;
}

/** A reporter that hands a failure to `logger.error`, swallowing the logger's own failure. */
function reporterOf(logger: ResolvedOptions["logger"]): (error: unknown) => void {
  return (error) => {
    try {
      logger.error("Streamable HTTP handler failed", { error });
    } catch {
      // a failing logger must not break the answer
    }
  };
}

/**
 * Checks the dispatcher and the options, tells the dispatcher it is served over HTTP, and builds
 * what every request shares: the origin guard, the answering options, the session registry and
 * the handshake-era entry. Throws as {@link createHttpHandler} documents.
 */
function resolveHandler(dispatcher: Dispatcher, options: HttpHandlerOptions, owner: string): HandlerContext {
  if (!isDispatcher(dispatcher)) {
    throw new TypeError(`${owner}: dispatcher must have a handle() method`);
  }
  const checked = checkOptions(owner, options, dispatcher.logger);
  const guard = createOriginGuard(options, owner);
  try {
    dispatcher.onServedOverHttp?.();
  } catch {
    // a failing hook must not stop the handler from being built
  }
  const { keepAliveMs, maxStreamBufferBytes, sessions } = checked;
  const report = reporterOf(checked.logger);
  const challenge = checked.authenticate?.challenge;
  const answering = { streamable: false, keepAliveMs, maxStreamBufferBytes, report, challenge };
  const registry = new SessionRegistry(sessions, { keepAliveMs, maxStreamBufferBytes }, report);
  const hooks = dispatcher as Dispatcher & FleetHooks;
  registry.onMaterialized = (view) => {
    try {
      hooks.adoptSession?.(view);
    } catch (error) {
      report(error);
    }
  };
  const detachBus = attachBus(dispatcher, sessions.state.bus, report);
  let closed = false;
  const close = () => {
    registry.close();
    if (closed) return;
    closed = true;
    detachBus();
  };
  const supportedVersions = dispatcher.supportedVersions ?? MODERN_PROTOCOL_VERSIONS;
  const legacy =
    sessions.legacy === "reject"
      ? undefined
      : createLegacyEntry({ dispatcher, registry, mode: sessions.legacy, report, challenge });
  return {
    dispatcher,
    options: checked,
    guard,
    report,
    supportedVersions,
    served: { modern: supportedVersions, handshake: legacy !== undefined },
    answering,
    streaming: { ...answering, streamable: true },
    registry,
    legacy,
    close,
  };
}

/**
 * The checks before auth, then {@link serveAllowed}: `Host`, the metadata document, `Origin`, and
 * the CORS preflight and headers. Not async, so CORS off costs no extra promise.
 */
function serve(ctx: HandlerContext, exchange: HttpExchange): HttpServerAnswer | Promise<HttpServerAnswer> {
  const refused = hostRefusal(ctx, exchange);
  if (refused !== undefined) return refused;
  const document = metadataAnswer(ctx.options.metadata, exchange);
  if (document !== undefined) return document;
  const origin = exchange.headers.get("origin");
  if (!ctx.guard.isOriginAllowed(origin)) {
    noteRefusal(ctx.options.logger, "Origin not allowed (see allowedOrigins)", { origin });
    return refusal("FORBIDDEN", ORIGIN_REFUSED);
  }
  const { cors } = ctx.options;
  if (cors === undefined) return serveAllowed(ctx, exchange);
  if (exchange.method === "OPTIONS") {
    return cors.preflight(origin, exchange.headers.get("access-control-request-headers"));
  }
  if (origin === null) return serveAllowed(ctx, exchange);
  return Promise.resolve(serveAllowed(ctx, exchange)).then((answer) => cors.answer(answer, origin));
}

/** The 403 for a `Host` outside `allowedHosts` (logged), or undefined when it is allowed. */
function hostRefusal(ctx: HandlerContext, exchange: HttpExchange): HttpServerAnswer | undefined {
  const host = exchange.headers.get("host") ?? new URL(exchange.url).host;
  if (ctx.guard.isHostAllowed(host)) return undefined;
  noteRefusal(ctx.options.logger, "Host not allowed (see allowedHosts)", { host });
  return refusal("FORBIDDEN", HOST_REFUSED);
}

/**
 * The answer to a request under the metadata prefix: the document (readable from any origin), or
 * 404 for another resource's path or when none is configured; undefined for any other path.
 */
function metadataAnswer(
  metadata: ResolvedOptions["metadata"],
  request: HttpExchange,
): HttpServerAnswer | undefined {
  if (!request.url.includes("/.well-known/")) return undefined;
  const pathname = pathnameOf(request.url);
  if (pathname === undefined) return MALFORMED_URL;
  if (!isProtectedResourceMetadataPath(pathname)) return undefined;
  const answer =
    metadata === undefined
      ? undefined
      : answerResourceMetadata(request.method, pathname, metadata.document, metadata.resourcePath);
  return answer ?? NOT_FOUND;
}

/**
 * Serves a request whose `Host` and `Origin` are allowed: auth, then by method. Without an
 * `authenticate` hook, nothing waits before the route.
 */
function serveAllowed(
  ctx: HandlerContext,
  exchange: HttpExchange,
): HttpServerAnswer | Promise<HttpServerAnswer> {
  if (ctx.options.authenticate === undefined) return serveAuthenticated(ctx, exchange);
  return authenticateExchange(ctx, exchange).then((authenticated) =>
    "exchange" in authenticated ? serveAuthenticated(ctx, authenticated.exchange) : authenticated.answer,
  );
}

/** Serves an authenticated request (or one no hook checks) by method. */
function serveAuthenticated(
  ctx: HandlerContext,
  request: HttpExchange,
): HttpServerAnswer | Promise<HttpServerAnswer> {
  const route = routeRequest(request, ctx.options.sessions.legacy === "session", ctx.supportedVersions);
  switch (route.kind) {
    case "method-not-allowed":
      return refusal("METHOD_NOT_ALLOWED", `Method Not Allowed: use ${route.allow}`, {
        Allow: route.allow,
      });
    case "session-get":
      return (ctx.legacy as LegacyEntry).get(request);
    case "session-delete":
      return (ctx.legacy as LegacyEntry).delete(request);
    case "post":
      return servePost(ctx, request);
  }
}

/**
 * The exchange with the identity the `authenticate` hook found, the exchange itself without a
 * hook, or the hook's answer (or 400 for a URL the hook could not be handed).
 */
async function authenticateExchange(
  ctx: HandlerContext,
  exchange: HttpExchange,
): Promise<{ readonly exchange: HttpExchange } | { readonly answer: HttpServerAnswer }> {
  const { authenticate } = ctx.options;
  if (authenticate === undefined) return { exchange };
  // The hook is handed the URL: one that does not parse (a Host only `allowedHosts: "*"` lets
  // through) is refused here rather than failing in the hook.
  if (pathnameOf(exchange.url) === undefined) return { answer: MALFORMED_URL };
  const outcome = await authenticateRequest(authenticate, exchange);
  if ("answer" in outcome) {
    noteAuthRefusal(ctx.options.logger, outcome, exchange.headers.get("authorization") !== null);
    return { answer: outcome.answer };
  }
  return { exchange: withAuth(exchange, outcome.auth) };
}

/**
 * A POST: its message read, its revision checked ({@link unsupportedRevision}), its era decided,
 * the header checked against the body's revision ({@link revisionMismatch}; a 2026 request's
 * headers are checked together later), a notification's framing checked
 * ({@link notificationRefusal}: 400, not dispatched), then served by era.
 */
async function servePost(ctx: HandlerContext, request: HttpExchange): Promise<HttpServerAnswer> {
  if (!isJsonContentType(request.headers.get("content-type"))) return UNSUPPORTED_MEDIA_TYPE;
  const read = frameMessage(ctx, await request.readBody(ctx.options.maxBodyBytes));
  if ("answer" in read) return read.answer;
  const { parsed } = read;
  const id = parsed.kind === "request" ? parsed.message.id : undefined;
  // Read once: the revision rules, the era and the 2026 header checks all need it.
  const rawVersion = request.headers.get(MCP_HEADERS.protocolVersion);
  const version = trimmedVersion(rawVersion);
  const unsupported = unsupportedRevision(ctx.served, version);
  if (unsupported !== undefined) return errorJson(unsupported, id);
  const handshakeEra =
    ctx.legacy !== undefined && isHandshakeEra(ctx.supportedVersions, request.headers, parsed, version);
  if (handshakeEra || parsed.kind === "notification") {
    const disagreement = revisionMismatch(version, parsed);
    if (disagreement !== undefined) return errorJson(disagreement, id);
  }
  const malformed = notificationRefusal(parsed, handshakeEra);
  if (malformed !== undefined) return errorJson(malformed, undefined);
  if (handshakeEra) return (ctx.legacy as LegacyEntry).post(request, parsed);
  return await serveModern(ctx, request, parsed, rawVersion);
}

/** The refusal of a POST without `Content-Type: application/json` (415). */
const UNSUPPORTED_MEDIA_TYPE: HttpServerAnswer = Object.freeze(
  refusal("UNSUPPORTED_MEDIA_TYPE", "Unsupported Media Type: Content-Type must be application/json"),
);

/**
 * Frames the body of a POST (read after its `Content-Type` was checked, else 415): 413 past
 * `maxBodyBytes`, 400 for a body cut short, -32700 for invalid UTF-8, 500 for a body read before
 * the handler (reported), and the parser's JSON-RPC error for anything but one message.
 */
function frameMessage(
  ctx: HandlerContext,
  body: BodyText,
): { readonly parsed: ServableMessage } | { readonly answer: HttpServerAnswer } {
  const { maxBodyBytes, maxJsonDepth } = ctx.options;
  if (body.kind === "too-large") return { answer: tooLarge(maxBodyBytes) };
  if (body.kind === "aborted") {
    // The client went away mid-upload: nothing to dispatch, and nobody to read the answer.
    return { answer: refusal("INVALID_REQUEST", "Invalid Request: the body ended before it was complete") };
  }
  if (body.kind === "invalid-utf8") {
    return {
      answer: errorJson(McpError.of("PARSE_ERROR", "Parse error: the body is not valid UTF-8"), undefined),
    };
  }
  if (body.kind === "already-read") {
    // No request can succeed: the server is wired wrong, so a 5xx that says how.
    ctx.report(new Error(BODY_ALREADY_READ));
    return {
      answer: errorJson(McpError.of("INTERNAL_ERROR", `Internal error: ${BODY_ALREADY_READ}`), undefined),
    };
  }
  const parsed =
    body.kind === "parsed"
      ? checkParsedBody(body.value, maxBodyBytes, maxJsonDepth)
      : parseMessage(body.text, { maxDepth: maxJsonDepth });
  if (parsed.kind === "too-large") return { answer: tooLarge(maxBodyBytes) };
  if (parsed.kind === "invalid") return { answer: errorJson(parsed.error, parsed.id) };
  return { parsed };
}

/** 413 for a body past `maxBodyBytes`. */
function tooLarge(maxBodyBytes: number): HttpServerAnswer {
  return refusal("PAYLOAD_TOO_LARGE", `Payload Too Large: the body exceeds ${maxBodyBytes} bytes`);
}

/** A message on the stateless 2026-07-28 path: responses refused, the rest dispatched. */
function serveModern(
  ctx: HandlerContext,
  request: HttpExchange,
  parsed: ServableMessage,
  rawVersion: string | null,
): HttpServerAnswer | Promise<HttpServerAnswer> {
  switch (parsed.kind) {
    case "response":
      return errorJson(
        McpError.of(
          "INVALID_REQUEST",
          "Invalid Request: a client may POST requests and notifications, not responses",
        ),
        parsed.message.id,
      );
    case "notification":
      return serveNotification(ctx.dispatcher, request, parsed.message);
    case "request":
      return serveRequest(ctx, request, parsed.message, rawVersion);
  }
}

/** Dispatches a 2026 notification and answers 202 with no body. */
async function serveNotification(
  dispatcher: Dispatcher,
  request: HttpExchange,
  message: JSONRPCNotification,
): Promise<HttpServerAnswer> {
  await dispatcher.handle(message, {
    signal: request.signal,
    headers: request.headers,
    networkTransport: "tcp",
    ...(request.auth === undefined ? {} : { auth: request.auth }),
  });
  return { kind: "empty", status: 202 };
}

/**
 * Answers a 2026 request (its revision already checked): -32020 for headers that disagree with the
 * body, 406 for `subscriptions/listen` without SSE; else dispatched, as JSON or an SSE stream as
 * `Accept` allows.
 */
function serveRequest(
  ctx: HandlerContext,
  request: HttpExchange,
  message: JSONRPCRequest,
  rawVersion: string | null,
): HttpServerAnswer | Promise<HttpServerAnswer> {
  const { dispatcher } = ctx;
  // A 2025-era handshake carries no 2026 headers: the dispatcher answers it, naming its versions.
  if (message.method === "initialize" && trimmedVersion(rawVersion) === undefined) {
    return answerRequest(dispatcher, request, message, ctx.answering);
  }
  const headerError = validateRequestHeadersWith(message, request.headers, rawVersion);
  if (headerError !== undefined) return errorJson(headerError, message.id);
  const streamable = acceptsEventStream(request.headers.get("accept"));
  if (!streamable && message.method === "subscriptions/listen") {
    return errorJson(
      McpError.of("NOT_ACCEPTABLE", "Not Acceptable: subscriptions/listen answers with text/event-stream"),
      message.id,
    );
  }
  return answerRequest(dispatcher, request, message, streamable ? ctx.streaming : ctx.answering);
}
