/**
 * The `Mcp-Session-Id` of a session served by a Durable Object: the object's id, a dot, then the
 * id the object's handler minted (a random UUID). The first part routes every later request of the
 * session to its object without a lookup; the second keeps the id unguessable, since the object's
 * handler answers 404 to any id it did not mint. Both parts are visible ASCII, as the spec requires.
 * Spec (2025-11-25): https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import { McpError } from "../../../protocol/errors.js";
import { errorResponse } from "../../../protocol/jsonrpc.js";

/** Separates the object's id from the handler's session id. */
const SEPARATOR = ".";

/** The longest `Mcp-Session-Id` the adapter reads; a longer one names no session. */
export const MAX_OBJECT_SESSION_ID_LENGTH = 256;

/** The two parts of a session id minted inside a Durable Object. */
export interface ObjectSessionId {
  /** The Durable Object's id, as `DurableObjectId.toString()` writes it. */
  readonly objectId: string;
  /** The session id the object's HTTP handler minted. */
  readonly sessionId: string;
}

/** The session id a client sees for `sessionId` minted inside the object `objectId`. */
export function joinObjectSessionId(objectId: string, sessionId: string): string {
  return `${objectId}${SEPARATOR}${sessionId}`;
}

/**
 * Splits a client's `Mcp-Session-Id` into its object's id and the handler's session id;
 * undefined when it has not that shape (no separator, an empty part, characters other than
 * letters, digits and `-` in the object's id, or longer than {@link MAX_OBJECT_SESSION_ID_LENGTH}).
 */
export function splitObjectSessionId(value: string): ObjectSessionId | undefined {
  if (value.length > MAX_OBJECT_SESSION_ID_LENGTH) return undefined;
  const at = value.indexOf(SEPARATOR);
  if (at <= 0 || at === value.length - 1) return undefined;
  const objectId = value.slice(0, at);
  if (!/^[0-9A-Za-z-]+$/.test(objectId)) return undefined;
  return { objectId, sessionId: value.slice(at + 1) };
}

/** A JSON response with `status`. */
export function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * The answer to an id that names no session (no such object, or not a session of the object it
 * names): 404 with the JSON-RPC error the HTTP handler gives an unknown session (-32600).
 */
export function sessionNotFound(): Response {
  return jsonAnswer(404, errorResponse(undefined, McpError.of("INVALID_REQUEST", "Session not found")));
}
