/**
 * The handshake-era (2025) entry of the Streamable HTTP server: `initialize` mints a session, a
 * POST with `Mcp-Session-Id` is served on its session (requests with the back-channel on their SSE
 * stream, notifications and the client's responses answered 202), GET opens or resumes a stream,
 * DELETE ends the session. In the stateless mode every message is served on a one-request
 * session. JSON-RPC error responses go with HTTP 200 here, as 2025-era clients expect; refusals at
 * the HTTP layer keep their status. Spec (2025-11-25): basic/transports (Streamable HTTP, §Session
 * Management, §Protocol Version Header, §Resumability and Redelivery), basic/lifecycle.
 */
import { internalError, McpError, unsupportedProtocolVersion } from "../../../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type ParsedMessage,
  type RequestId,
} from "../../../protocol/jsonrpc.js";
import {
  type AuthInfo,
  type Dispatcher,
  type HeaderReader,
  principalOf,
  type RequestEnvironment,
} from "../../dispatcher.js";
import { acceptsEventStream } from "../media-type.js";
import type { HttpServerAnswer } from "../server/answer.js";
import { type Authenticate, scopeChallengeAnswer } from "../server/authenticate.js";
import type { SseStream } from "../server/sse.js";
import type { CheckedSessionOptions } from "./options.js";
import type { SessionRegistry } from "./registry.js";
import { HttpSession } from "./session.js";
import { StateFailure, stateUnavailableAnswer } from "./state-guard.js";
import type { ResumableStream } from "./stream.js";

/** The session header, as the spec spells it. */
export const SESSION_ID_HEADER = "Mcp-Session-Id";

/** The revision a server assumes when a 2025-era request carries no `MCP-Protocol-Version`. */
const ASSUMED_VERSION = "2025-03-26";

/** The request side the legacy entry reads. */
export interface LegacyExchange {
  readonly headers: HeaderReader;
  readonly signal: AbortSignal;
  /** The identity the request was authenticated as. */
  readonly auth?: AuthInfo;
}

/** What the legacy entry needs from its handler. */
export interface LegacyEntryOptions {
  readonly dispatcher: Dispatcher;
  readonly registry: SessionRegistry;
  readonly mode: Exclude<CheckedSessionOptions["legacy"], "reject">;
  /** Receives a dispatcher failure. Must not throw. */
  readonly report: (error: unknown) => void;
  /** Builds the 403 challenge of an insufficient-scope refusal answered as JSON. */
  readonly challenge?: Authenticate["challenge"];
}

/** The legacy entry's three methods. */
export interface LegacyEntry {
  post(
    exchange: LegacyExchange,
    message: Exclude<ParsedMessage, { kind: "invalid" }>,
  ): Promise<HttpServerAnswer>;
  get(exchange: LegacyExchange): Promise<HttpServerAnswer>;
  delete(exchange: LegacyExchange): Promise<HttpServerAnswer>;
}

function json(body: unknown, status: number, headers?: Record<string, string>): HttpServerAnswer {
  return { kind: "json", status, text: JSON.stringify(body), ...(headers === undefined ? {} : { headers }) };
}

function refusal(status: number, message: string, id?: RequestId): HttpServerAnswer {
  return json(errorResponse(id, McpError.of("INVALID_REQUEST", message)), status);
}

function sseAnswer(stream: SseStream): HttpServerAnswer {
  return { kind: "sse", stream };
}

function versionHeader(headers: HeaderReader): string | undefined {
  const value = headers.get("mcp-protocol-version")?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/** Builds the legacy entry of one handler. */
export function createLegacyEntry(options: LegacyEntryOptions): LegacyEntry {
  return {
    post: (exchange, parsed) =>
      guarded(
        options,
        post(options, exchange, parsed),
        parsed.kind === "request" ? parsed.message.id : undefined,
      ),
    get: (exchange) => guarded(options, getStream(options, exchange)),
    delete: (exchange) => guarded(options, deleteSession(options, exchange)),
  };
}

/**
 * The answer, or, when the session state failed while serving it, 503 with `Retry-After` (the
 * cause reported); other failures pass on (500).
 */
async function guarded(
  entry: LegacyEntryOptions,
  answer: Promise<HttpServerAnswer>,
  id?: RequestId,
): Promise<HttpServerAnswer> {
  try {
    return await answer;
  } catch (error) {
    if (!(error instanceof StateFailure)) throw error;
    entry.report(error.cause);
    return stateUnavailableAnswer(error, id);
  }
}

/** A message the legacy entry serves (framing errors already answered). */
type ServableMessage = Exclude<ParsedMessage, { kind: "invalid" }>;

/** A POST: `initialize` without a session id mints one; anything else is served by mode. */
async function post(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: ServableMessage,
): Promise<HttpServerAnswer> {
  const hasSessionId = exchange.headers.get(SESSION_ID_HEADER) !== null;
  if (parsed.kind === "request" && parsed.message.method === "initialize" && !hasSessionId) {
    return initialize(entry, exchange, parsed.message);
  }
  if (entry.mode === "stateless") return postStateless(entry, exchange, parsed);
  return postOnSession(entry, exchange, parsed);
}

/**
 * A POST of the stateless mode (its `MCP-Protocol-Version`, when present, one the handler checked
 * is served): served on a one-request session that ends with it (a notification or response
 * answered 202).
 */
async function postStateless(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: ServableMessage,
): Promise<HttpServerAnswer> {
  const session = statelessSession(entry.registry, exchange);
  if (parsed.kind === "request") {
    return serveRequest(entry, exchange, session, parsed.message, false, () => session.end());
  }
  if (parsed.kind === "notification") {
    await dispatchNotification(entry, parsed.message, baseEnv(exchange, session.signal, session));
  }
  session.end();
  return { kind: "empty", status: 202 };
}

/**
 * A POST on the session it names (refused as {@link sessionOf} says): a request served with the
 * back-channel, a response settling the server -> client request it answers, a notification
 * dispatched (`notifications/cancelled` aborting the request it names first); the last two 202.
 */
async function postOnSession(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: ServableMessage,
): Promise<HttpServerAnswer> {
  const found = await sessionOf(
    entry.registry,
    exchange,
    parsed.kind === "request" ? parsed.message.id : undefined,
  );
  if (!(found instanceof HttpSession)) return found;
  const session = found;
  switch (parsed.kind) {
    case "request":
      return serveRequest(entry, exchange, session, parsed.message, true);
    case "response":
      await entry.registry.settle(session, parsed.message);
      return { kind: "empty", status: 202 };
    case "notification":
      if (parsed.message.method === "notifications/cancelled") {
        await entry.registry.cancel(session, parsed.message);
      }
      await dispatchNotification(entry, parsed.message, baseEnv(exchange, session.signal, session));
      await entry.registry.persist(session);
      return { kind: "empty", status: 202 };
  }
}

/**
 * GET: 405 in the stateless mode, 406 without `text/event-stream` in `Accept`; on the session it
 * names, the stream `Last-Event-ID` belongs to, else the standalone stream (409 when one is open).
 */
async function getStream(entry: LegacyEntryOptions, exchange: LegacyExchange): Promise<HttpServerAnswer> {
  if (entry.mode === "stateless") return methodNotAllowed();
  if (!acceptsEventStream(exchange.headers.get("accept"))) {
    return refusal(406, "Not Acceptable: the GET stream answers with text/event-stream");
  }
  const found = await sessionOf(entry.registry, exchange);
  if (!(found instanceof HttpSession)) return found;
  const lastEventId = exchange.headers.get("last-event-id")?.trim();
  if (lastEventId !== undefined && lastEventId !== "") {
    const resumed = await found.resume(lastEventId);
    if (resumed !== undefined) return sseAnswer(resumed);
  }
  if (found.standaloneOpen) {
    return refusal(409, "Conflict: this session's GET stream is already open");
  }
  return sseAnswer(await found.connectStandalone());
}

/** DELETE: 405 in the stateless mode; else ends the session it names (204), on every replica. */
async function deleteSession(entry: LegacyEntryOptions, exchange: LegacyExchange): Promise<HttpServerAnswer> {
  if (entry.mode === "stateless") return methodNotAllowed();
  const found = await sessionOf(entry.registry, exchange);
  if (!(found instanceof HttpSession)) return found;
  await entry.registry.end(found.id as string);
  return { kind: "empty", status: 204 };
}

/** The environment of a message on `session`: its signal, headers, session and identity. */
function baseEnv(exchange: LegacyExchange, signal: AbortSignal, session: HttpSession): RequestEnvironment {
  const env: RequestEnvironment = { signal, headers: exchange.headers, session };
  if (exchange.auth !== undefined) env.auth = exchange.auth;
  return env;
}

/** A JSON answer of a response on a session: HTTP 200, or 403 with the step-up challenge. */
function sessionAnswer(
  response: JSONRPCResponse,
  challenge: LegacyEntryOptions["challenge"],
): HttpServerAnswer {
  return scopeChallengeAnswer(response, challenge) ?? json(response, 200);
}

/** Dispatches, turning a rejection or a missing response into -32603 (the cause reported). */
async function dispatch(
  entry: LegacyEntryOptions,
  message: JSONRPCRequest,
  env: RequestEnvironment,
): Promise<JSONRPCResponse> {
  try {
    const response = await entry.dispatcher.handle(message, env);
    if (response !== undefined) return response;
    entry.report(new Error(`the dispatcher answered ${message.method} with nothing`));
  } catch (error) {
    entry.report(error);
  }
  return errorResponse(message.id, internalError());
}

/** Dispatches a notification, reporting a rejection. */
async function dispatchNotification(
  entry: LegacyEntryOptions,
  message: JSONRPCNotification,
  env: RequestEnvironment,
): Promise<void> {
  try {
    await entry.dispatcher.handle(message, env);
  } catch (error) {
    entry.report(error);
  }
}

/**
 * The session a request names, or the refusal: 400 without the header, 404 for an unknown id and
 * for a session opened by another principal (an identity counts as another principal than none,
 * both ways): the same answer as an unknown id, so a stolen or guessed id tells its holder
 * nothing, not even that the session exists.
 * Spec (2025-11-25): basic/security_best_practices §Session Hijacking (bind the session to the
 * user).
 */
async function sessionOf(
  registry: SessionRegistry,
  exchange: LegacyExchange,
  id?: RequestId,
): Promise<HttpSession | HttpServerAnswer> {
  const sessionId = exchange.headers.get(SESSION_ID_HEADER)?.trim();
  if (sessionId === undefined || sessionId === "") {
    return refusal(400, `Bad Request: the ${SESSION_ID_HEADER} header is required`, id);
  }
  await registry.routing?.ready();
  const principal = exchange.auth === undefined ? undefined : principalOf(exchange.auth);
  const session = await registry.find(sessionId, principal);
  if (session === undefined) return refusal(404, "Session not found", id);
  const version = versionHeader(exchange.headers);
  const negotiated = session.handshake?.protocolVersion ?? session.negotiatedVersion;
  if (version !== undefined && negotiated !== undefined && version !== negotiated) {
    return json(errorResponse(id, unsupportedProtocolVersion(version, [negotiated])), 400);
  }
  return session;
}

/**
 * `initialize`: dispatched on a fresh session, which is kept and named in `Mcp-Session-Id` when
 * the handshake succeeds in the session mode (503 when every session is busy), else ended.
 */
async function initialize(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  message: JSONRPCRequest,
): Promise<HttpServerAnswer> {
  const { registry, mode } = entry;
  if (mode === "session" && !registry.hasRoom) return everySessionBusy(message.id);
  if (mode === "session") await registry.routing?.ready();
  const session = mode === "session" ? registry.create() : registry.createStateless();
  if (exchange.auth !== undefined) session.principal = principalOf(exchange.auth);
  const response = await dispatch(entry, message, baseEnv(exchange, exchange.signal, session));
  const version = "result" in response ? response.result.protocolVersion : undefined;
  if (mode === "stateless" || typeof version !== "string") {
    session.end();
    return json(response, 200);
  }
  session.negotiatedVersion = version;
  if (!registry.add(session)) return everySessionBusy(message.id);
  try {
    await registry.store(session);
  } catch (error) {
    registry.delete(session.id as string, "the session store failed");
    throw error;
  }
  return json(response, 200, { [SESSION_ID_HEADER]: session.id as string });
}

/** A one-request session of the stateless mode, as if `initialize` had happened. */
function statelessSession(registry: SessionRegistry, exchange: LegacyExchange): HttpSession {
  const session = registry.createStateless();
  session.handshake = {
    protocolVersion: versionHeader(exchange.headers) ?? ASSUMED_VERSION,
    clientInfo: { name: "unknown", version: "0" },
    clientCapabilities: {},
  };
  session.initialized = true;
  return session;
}

/**
 * The SSE stream of one request on a session, opened at its first event: until then the request
 * may still be answered as JSON.
 */
interface LazyStream {
  /** The stream, opening it (and resolving {@link firstEvent}) on the first call. */
  open(): ResumableStream;
  /** True once {@link open} was called. */
  isOpen(): boolean;
  /** The stream and its readable side once opened, else undefined. */
  opened(): { readonly stream: ResumableStream; readonly readable: SseStream } | undefined;
  /** Resolves when the stream opens. */
  readonly firstEvent: Promise<void>;
}

/** A {@link LazyStream} on `session`. */
function lazyStream(session: HttpSession, requestId: RequestId): LazyStream {
  let stream: ResumableStream | undefined;
  let readable: SseStream | undefined;
  let resolveFirstEvent!: () => void;
  const firstEvent = new Promise<void>((resolve) => {
    resolveFirstEvent = resolve;
  });
  return {
    open() {
      if (stream === undefined) {
        stream = session.openStream(requestId);
        readable = stream.connect();
        resolveFirstEvent();
      }
      return stream;
    },
    isOpen: () => stream !== undefined,
    opened: () => (stream === undefined || readable === undefined ? undefined : { stream, readable }),
    firstEvent,
  };
}

/**
 * The environment of a request on `session`: with SSE, `notify`, `closeSseStream` and (with the
 * back-channel) `request` over its lazy stream; without, the back-channel over the session's GET
 * stream, when it has one. A request served without a session (the stateless mode) has no
 * `request` and refuses one with {@link backChannelUnavailable}.
 */
function requestEnv(
  exchange: LegacyExchange,
  session: HttpSession,
  signal: AbortSignal,
  lazy: LazyStream,
  flags: { readonly streamable: boolean; readonly backChannel: boolean; readonly settled: () => boolean },
): RequestEnvironment {
  const env = baseEnv(exchange, signal, session);
  const live = () => !flags.settled() && !session.ended;
  const send = (outgoing: JSONRPCMessage) => {
    if (live()) lazy.open().send(outgoing);
  };
  if (flags.streamable) {
    env.notify = send;
    if (flags.backChannel) env.request = session.backChannel(send);
    env.closeSseStream = () => {
      if (live()) lazy.open().closeConnection();
    };
  } else if (flags.backChannel && session.request !== undefined) {
    env.request = session.request;
  }
  if (!flags.backChannel) env.backChannelRefusal = backChannelUnavailable;
  return env;
}

/**
 * The -32600 of a server -> client request (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) made while serving a handshake-era request without a session (`legacy:
 * "stateless"`): it names the limitation and the two ways around it.
 */
export function backChannelUnavailable(method: string): McpError {
  return McpError.of(
    "INVALID_REQUEST",
    `Cannot send '${method}' to the client: this endpoint serves 2025 handshake-era clients without sessions (legacy: "stateless", the mode for runtimes such as Cloudflare Workers that cannot hold a session's stream across requests), so a server cannot ask such a client anything while serving a request. Connect with protocol revision 2026-07-28, where the server's questions travel in its response, or serve handshake-era clients from a stateful deployment (legacy: "session" on Node.js).`,
  );
}

/**
 * The answer to a request the client cancelled before anything was sent: an SSE stream that ends
 * at once, or 202 without a body for a client that does not accept SSE.
 */
function cancelledAnswer(session: HttpSession, streamable: boolean, requestId: RequestId): HttpServerAnswer {
  if (!streamable) return { kind: "empty", status: 202 };
  const empty = session.openStream(requestId);
  const emptyReadable = empty.connect();
  void session.finishStream(empty);
  return sseAnswer(emptyReadable);
}

/**
 * Serves one request on `session`: JSON when the dispatcher answers before sending anything, else
 * an SSE stream (priming event, the related notifications and requests, the response). The
 * stream may be closed early (`closeSseStream`) or lost; the client resumes it with GET and
 * `Last-Event-ID`. Only `notifications/cancelled` (or the session's end) aborts the request, as
 * a lost connection is no cancellation, except before any event id reached the client. A request
 * the client cancelled gets no response (basic/utilities/cancellation: the receiver should not
 * respond): its SSE stream ends without it, or, when it had sent nothing yet, the POST is answered
 * as {@link cancelledAnswer} says. A client that does not accept `text/event-stream` gets no
 * notifications, and its request's server -> client requests go on the session's GET stream
 * instead.
 */
async function serveRequest(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  session: HttpSession,
  message: JSONRPCRequest,
  backChannel: boolean,
  onDone: () => void = () => {},
): Promise<HttpServerAnswer> {
  const streamable = acceptsEventStream(exchange.headers.get("accept"));
  const controller = new AbortController();
  const release = session.hold();
  const untrack = session.trackIncoming(message.id, controller);
  const onSessionEnd = () => controller.abort(session.signal.reason);
  session.signal.addEventListener("abort", onSessionEnd, { once: true });
  const lazy = lazyStream(session, message.id);
  let settled = false;
  /** The client cancelled the request (`notifications/cancelled`): it gets no response. */
  const cancelled = () => controller.signal.aborted && !session.ended;
  const onClientGone = () => {
    if (!lazy.isOpen()) controller.abort(exchange.signal.reason);
  };
  exchange.signal.addEventListener("abort", onClientGone, { once: true });

  const env = requestEnv(exchange, session, controller.signal, lazy, {
    streamable,
    backChannel,
    settled: () => settled,
  });
  const outcome = dispatch(entry, message, env).then(async (response) => {
    await entry.registry.persist(session).catch(entry.report);
    settled = true;
    exchange.signal.removeEventListener("abort", onClientGone);
    session.signal.removeEventListener("abort", onSessionEnd);
    untrack();
    release();
    return response;
  });
  await Promise.race([outcome, lazy.firstEvent]);
  const opened = lazy.opened();
  if (opened === undefined) {
    const response = await outcome;
    onDone();
    return cancelled()
      ? cancelledAnswer(session, streamable, message.id)
      : sessionAnswer(response, entry.challenge);
  }
  void outcome
    .then((response) => session.finishStream(opened.stream, cancelled() ? undefined : response))
    .catch(entry.report)
    .finally(onDone);
  return sseAnswer(opened.readable);
}

/** Seconds a client refused a session for want of room is asked to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 5;

/**
 * 503 for an `initialize` when `maxSessions` sessions are live and every one is serving a request
 * or holding a stream open (none may be evicted).
 */
function everySessionBusy(id: RequestId): HttpServerAnswer {
  const error = McpError.of("INTERNAL_ERROR", "Service Unavailable: every session is busy; retry later");
  return json(errorResponse(id, error), 503, { "Retry-After": String(RETRY_AFTER_SECONDS) });
}

/** 405 for GET and DELETE where there are no sessions. */
export function methodNotAllowed(): HttpServerAnswer {
  return json(
    errorResponse(undefined, McpError.of("METHOD_NOT_ALLOWED", "Method Not Allowed: use POST")),
    405,
    { Allow: "POST" },
  );
}
