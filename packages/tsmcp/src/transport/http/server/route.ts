/**
 * Which entry of the HTTP server serves a request, by its HTTP method. On the 2026-07-28 wire every
 * exchange is one POST, and GET and DELETE are refused with 405. With handshake-era sessions
 * (`legacy: "session"`), GET opens or resumes a session's SSE stream and DELETE ends a session,
 * unless the request names a 2026 revision in `MCP-Protocol-Version`. Which era a POST belongs to
 * is decided once its body is read. Spec: basic/transports/streamable-http (§Earlier Streamable
 * HTTP Revisions: GET and DELETE get 405); 2025-11-25 basic/transports (§Listening for Messages
 * from the Server, §Session Management).
 */

import type { HeaderReader } from "../../dispatcher.js";

/** How to serve one HTTP request. */
export type Route =
  /** A POST carrying one JSON-RPC message, of either era. */
  | { kind: "post" }
  /** A GET on a handshake-era session: open or resume its SSE stream. */
  | { kind: "session-get" }
  /** A DELETE on a handshake-era session: end it. */
  | { kind: "session-delete" }
  /** Answer 405 with `Allow` set to `allow`. */
  | { kind: "method-not-allowed"; allow: string };

/**
 * Routes one request by its HTTP method. `sessions` is true when the handler keeps handshake-era
 * sessions; `modernVersions` are the 2026 revisions served (a GET or DELETE naming one gets 405).
 */
export function routeRequest(
  request: { readonly method: string; readonly headers: HeaderReader },
  sessions: boolean,
  modernVersions: readonly string[],
): Route {
  if (request.method === "POST") return { kind: "post" };
  const allow = sessions ? "GET, POST, DELETE" : "POST";
  if (!sessions || (request.method !== "GET" && request.method !== "DELETE")) {
    return { kind: "method-not-allowed", allow };
  }
  const version = request.headers.get("mcp-protocol-version")?.trim();
  if (version !== undefined && modernVersions.includes(version))
    return { kind: "method-not-allowed", allow: "POST" };
  return request.method === "GET" ? { kind: "session-get" } : { kind: "session-delete" };
}
