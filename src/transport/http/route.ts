/**
 * Which entry of the HTTP server serves a request. A 2026-07-28 server is modern-only: every
 * exchange is one POST; GET and DELETE belonged to the session era and are refused with 405. The
 * 2025-11-25 session entry (`Mcp-Session-Id`, GET stream, DELETE) is to be added here as another
 * route. Spec: basic/transports/streamable-http (one POST per message; a GET or DELETE
 * from an earlier revision gets 405, §Earlier Streamable HTTP Revisions).
 */

/** How to serve one HTTP request. */
export type Route =
  /** A POST carrying one JSON-RPC message of the stateless (2026-07-28) wire. */
  | { kind: "modern" }
  /** Any other HTTP method: answer 405 with `Allow` set to `allow`. */
  | { kind: "method-not-allowed"; allow: string };

/** Routes one request by its HTTP method (the legacy session era will add a branch here). */
export function routeRequest(request: Pick<Request, "method">): Route {
  if (request.method === "POST") return { kind: "modern" };
  return { kind: "method-not-allowed", allow: "POST" };
}
