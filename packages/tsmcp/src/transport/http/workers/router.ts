/**
 * The Worker side of the Durable Object session adapter: a web-standard handler that sends each
 * request of a handshake-era (2025-11-25) session to the Durable Object serving that session, and
 * every other request (the 2026-07-28 wire, stateless) to the Worker's own handler. A POST without
 * `Mcp-Session-Id` whose body is an `initialize` request starts a session in a new object; a
 * request naming a session goes to the object its id names, with no lookup; an id naming no object
 * gets 404, as an unknown session does (the client then initializes again). Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import { McpError } from "../../../protocol/errors.js";
import { errorResponse } from "../../../protocol/jsonrpc.js";
import { checkLogger, type Logger, stderrLogger } from "../../../protocol/logger.js";
import { checkInteger, checkOptionsObject, isObject, optionTypeError } from "../../../protocol/options.js";
import { MCP_HEADERS } from "../headers.js";
import { BoundedBody, DEFAULT_MAX_BODY_BYTES } from "../server/body.js";
import { SESSION_ID_HEADER } from "../session/legacy.js";
import { jsonAnswer, sessionNotFound, splitObjectSessionId } from "./session-id.js";
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from "./types.js";

/** Options of {@link createSessionRouter}. */
export interface SessionRouterOptions {
  /**
   * The Durable Object namespace binding whose objects serve the sessions (`env.MCP_SESSIONS`),
   * bound to a class made with `createSessionObject`.
   */
  sessions: DurableObjectNamespaceLike;
  /**
   * The Worker's own handler (`mcp.httpHandler(...)` or `createHttpHandler`): it serves every
   * request that names no session and is not an `initialize`: 2026-07-28 requests, CORS
   * preflights, the protected resource metadata, and refusals. Give it the same options (hosts,
   * origins, `authenticate`) as the object's handler.
   */
  handler: (request: Request) => Promise<Response>;
  /**
   * The most bytes read of a POST that carries neither `Mcp-Session-Id` nor `Mcp-Method` to find
   * out whether it is an `initialize`; a larger body goes to `handler`, which refuses it. Match
   * the handlers' `maxBodyBytes`. Default {@link DEFAULT_MAX_BODY_BYTES} (4 MiB).
   */
  maxBodyBytes?: number;
  /**
   * Receives, at `error`, a failure to reach a session's object (the request gets 503). Default:
   * stderr (`console.error` on Workers).
   */
  logger?: Pick<Logger, "error">;
}

/** The router's web-standard handler. Never rejects unless the Worker's own handler does. */
export type SessionRouter = (request: Request) => Promise<Response>;

/** The answer when a session's object cannot be reached: 503, JSON-RPC -32603. */
function objectUnreachable(): Response {
  return jsonAnswer(
    503,
    errorResponse(
      undefined,
      McpError.of("INTERNAL_ERROR", "Service Unavailable: the session could not be reached; retry later"),
    ),
  );
}

/**
 * True when `request`'s body is one JSON-RPC `initialize` request, read from a copy under
 * `maxBodyBytes` (a body declared or found larger is not one). The copy is cancelled without
 * waiting: a copy's cancellation settles only once the original's does too.
 */
async function isInitialize(request: Request, maxBodyBytes: number): Promise<boolean> {
  const body = new BoundedBody(maxBodyBytes);
  if (request.body === null || request.bodyUsed || request.body.locked) return false;
  if (body.declaresTooMuch(request.headers.get("content-length"))) return false;
  const copy = request.clone().body;
  if (copy === null) return false;
  const reader = copy.getReader();
  for (;;) {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch {
      return false;
    }
    if (next.done) break;
    if (!body.push(next.value)) {
      reader.cancel().catch(() => {});
      return false;
    }
  }
  const text = body.text();
  if (text.kind !== "text") return false;
  try {
    const message: unknown = JSON.parse(text.text);
    return isObject(message) && message.method === "initialize" && "id" in message;
  } catch {
    return false;
  }
}

/**
 * Builds the Worker's router: handshake-era sessions to their Durable Objects, everything else to
 * `options.handler`. Routing:
 * - a request with `Mcp-Session-Id` goes to the object named by the id's first part (see
 *   `createSessionObject`); an id of another shape, or naming no object of `sessions`, gets 404
 *   with a JSON-RPC error (-32600, "Session not found");
 * - a POST without it and without `Mcp-Method` whose body is an `initialize` request goes to a
 *   new object (`sessions.newUniqueId()`), which mints the session;
 * - anything else goes to `options.handler`.
 * An object that cannot be reached (its `fetch` rejects) gets 503 and the cause goes to the logger.
 *
 * @throws TypeError when `sessions` lacks `newUniqueId`, `idFromString` or `get`, `handler` is not
 *   a function or `logger` lacks `error`; RangeError when `maxBodyBytes` is not a positive integer.
 */
export function createSessionRouter(options: SessionRouterOptions): SessionRouter {
  const owner = "createSessionRouter";
  const { sessions, handler, maxBodyBytes, logger } = checkOptionsObject(owner, options);
  const namespace = sessions as Partial<Record<keyof DurableObjectNamespaceLike, unknown>> | undefined;
  if (
    !isObject(namespace) ||
    typeof namespace.newUniqueId !== "function" ||
    typeof namespace.idFromString !== "function" ||
    typeof namespace.get !== "function"
  ) {
    throw optionTypeError(
      owner,
      "sessions",
      "a Durable Object namespace binding (newUniqueId, idFromString, get)",
    );
  }
  if (typeof handler !== "function") throw optionTypeError(owner, "handler", "a function");
  checkInteger(owner, "maxBodyBytes", maxBodyBytes, { min: 1 });
  const limit = maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = logger === undefined ? stderrLogger : checkLogger(logger, owner, "logger", ["error"]);

  const toObject = async (id: DurableObjectIdLike, request: Request): Promise<Response> => {
    try {
      return await sessions.get(id).fetch(request);
    } catch (error) {
      log.error("A session's Durable Object could not be reached", { error });
      return objectUnreachable();
    }
  };

  return async (request) => {
    const sessionHeader = request.headers.get(SESSION_ID_HEADER);
    if (sessionHeader !== null) {
      const parts = splitObjectSessionId(sessionHeader.trim());
      if (parts === undefined) return sessionNotFound();
      let id: DurableObjectIdLike;
      try {
        id = sessions.idFromString(parts.objectId);
      } catch {
        return sessionNotFound();
      }
      return toObject(id, request);
    }
    if (
      request.method === "POST" &&
      request.headers.get(MCP_HEADERS.method) === null &&
      (await isInitialize(request, limit))
    ) {
      return toObject(sessions.newUniqueId(), request);
    }
    return handler(request);
  };
}
