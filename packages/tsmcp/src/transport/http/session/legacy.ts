/**
 * The handshake-era (2025) entry of the Streamable HTTP server: `initialize` mints a session, a
 * POST with `Mcp-Session-Id` is served on its session (requests with the back-channel on their SSE
 * stream, notifications and the client's responses answered 202), GET opens or resumes a stream,
 * DELETE ends the session. In the stateless mode every message is served on a one-request
 * session. JSON-RPC error responses go with HTTP 200 here, as 2025-era clients expect; refusals at
 * the HTTP layer keep their status. Spec (2025-11-25): basic/transports (Streamable HTTP, §Session
 * Management, §Protocol Version Header, §Resumability and Redelivery), basic/lifecycle.
 */
import { McpError, unsupportedProtocolVersion } from "../../../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCRequest,
  type ParsedMessage,
  type RequestId,
} from "../../../protocol/jsonrpc.js";
import { type HeaderReader, principalOf } from "../../dispatcher.js";
import { acceptsEventStream } from "../media-type.js";
import type { HttpServerAnswer } from "../server/answer.js";
import type { SessionRegistry } from "./registry.js";
import {
  baseEnv,
  dispatch,
  dispatchNotification,
  type LegacyEntryOptions,
  type LegacyExchange,
  serveRequest,
  sseAnswer,
} from "./serve-request.js";
import { HttpSession } from "./session.js";
import { StateFailure, stateUnavailableAnswer } from "./state-guard.js";

export { backChannelUnavailable, type LegacyEntryOptions, type LegacyExchange } from "./serve-request.js";

/** The session header, as the spec spells it. */
export const SESSION_ID_HEADER = "Mcp-Session-Id";

/** {@link SESSION_ID_HEADER} as a `HeaderReader` reads it fastest (header names are case-insensitive). */
const SESSION_ID_HEADER_LOWER = "mcp-session-id";

/** The revision a server assumes when a 2025-era request carries no `MCP-Protocol-Version`. */
const ASSUMED_VERSION = "2025-03-26";

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
        () => post(options, exchange, parsed),
        parsed.kind === "request" ? parsed.message.id : undefined,
      ),
    get: (exchange) => guarded(options, () => getStream(options, exchange)),
    delete: (exchange) => guarded(options, () => deleteSession(options, exchange)),
  };
}

/**
 * The answer `run` gives, or, when the session state failed while serving it, 503 with
 * `Retry-After` (the cause reported); other failures pass on (500).
 */
function guarded(
  entry: LegacyEntryOptions,
  run: () => Promise<HttpServerAnswer>,
  id?: RequestId,
): Promise<HttpServerAnswer> {
  let answer: Promise<HttpServerAnswer>;
  try {
    answer = run();
  } catch (error) {
    answer = Promise.reject(error);
  }
  return answer.catch((error: unknown) => {
    if (!(error instanceof StateFailure)) throw error;
    entry.report(error.cause);
    return stateUnavailableAnswer(error, id);
  });
}

/** A message the legacy entry serves (framing errors already answered). */
type ServableMessage = Exclude<ParsedMessage, { kind: "invalid" }>;

/** A POST: `initialize` without a session id mints one; anything else is served by mode. */
function post(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: ServableMessage,
): Promise<HttpServerAnswer> {
  const hasSessionId = exchange.headers.get(SESSION_ID_HEADER_LOWER) !== null;
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
function postOnSession(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: ServableMessage,
): Promise<HttpServerAnswer> {
  const found = sessionOf(
    entry.registry,
    exchange,
    parsed.kind === "request" ? parsed.message.id : undefined,
    parsed.kind === "response",
  );
  if (found instanceof Promise) return found.then((session) => postOn(entry, exchange, parsed, session));
  return postOn(entry, exchange, parsed, found);
}

/** A POST on the session `found`, or its refusal. */
function postOn(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: ServableMessage,
  found: HttpSession | HttpServerAnswer,
): Promise<HttpServerAnswer> {
  if (!(found instanceof HttpSession)) return Promise.resolve(found);
  if (parsed.kind === "request") return serveRequest(entry, exchange, found, parsed.message, true);
  return postMessageOn(entry, exchange, parsed, found);
}

/** A client's response or notification on `session`: answered 202 once taken. */
async function postMessageOn(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  parsed: Exclude<ServableMessage, { kind: "request" }>,
  session: HttpSession,
): Promise<HttpServerAnswer> {
  switch (parsed.kind) {
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

/**
 * The session a request names, or the refusal: 400 without the header, 404 for an unknown id and
 * for a session opened by another principal (an identity counts as another principal than none,
 * both ways): the same answer as an unknown id, so a stolen or guessed id tells its holder
 * nothing, not even that the session exists.
 * With `answer` (the POST carries a client's answer to a server -> client request), a local view
 * serves while the session store cannot be reached (see `SessionRegistry.findForAnswer`).
 * Spec (2025-11-25): basic/security_best_practices §Session Hijacking (bind the session to the
 * user).
 */
function sessionOf(
  registry: SessionRegistry,
  exchange: LegacyExchange,
  id?: RequestId,
  answer = false,
): HttpSession | HttpServerAnswer | Promise<HttpSession | HttpServerAnswer> {
  const sessionId = exchange.headers.get(SESSION_ID_HEADER_LOWER)?.trim();
  if (sessionId === undefined || sessionId === "") {
    return refusal(400, `Bad Request: the ${SESSION_ID_HEADER} header is required`, id);
  }
  const principal = exchange.auth === undefined ? undefined : principalOf(exchange.auth);
  if (!registry.shared) return agreedSession(registry.findLocal(sessionId, principal), exchange, id);
  return (async () => {
    await registry.routing?.ready();
    const session = answer
      ? await registry.findForAnswer(sessionId, principal)
      : await registry.find(sessionId, principal);
    return agreedSession(session, exchange, id);
  })();
}

/**
 * `session`, or the refusal: 404 when there is none, 400 when the request's
 * `MCP-Protocol-Version` differs from the revision the session negotiated.
 */
function agreedSession(
  session: HttpSession | undefined,
  exchange: LegacyExchange,
  id: RequestId | undefined,
): HttpSession | HttpServerAnswer {
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
