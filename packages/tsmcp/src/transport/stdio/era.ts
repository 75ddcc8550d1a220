/**
 * Which revision family a request on a stdio connection belongs to. A request other than
 * `initialize` whose `_meta` names a protocol version is a request of the stateless 2026-07-28
 * core; `initialize`, or a request without that `_meta`, belongs to the handshake era that a
 * 2025-11-25 client speaks. Spec: basic/versioning, basic/transports/stdio; (2025-11-25)
 * basic/lifecycle.
 */
import { McpError } from "../../protocol/errors.js";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { isHandshakeProtocolVersion, META } from "../../protocol/versions.js";

/** The protocol version `request` names in its `_meta`; undefined when it names none. */
function metaProtocolVersion(request: JSONRPCRequest): unknown {
  const meta = request.params?._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  return (meta as Record<string, unknown>)[META.protocolVersion];
}

/** True when `request` is a request of the stateless core: not `initialize`, with a `_meta` version. */
export function isStatelessRequest(request: JSONRPCRequest): boolean {
  return request.method !== "initialize" && metaProtocolVersion(request) !== undefined;
}

/**
 * True when `request` asks for a revision other than a handshake one in its `_meta`: a 2026-07-28
 * request, which a connection that opened a handshake-era session does not serve.
 */
export function asksForStatelessRevision(request: JSONRPCRequest): boolean {
  if (!isStatelessRequest(request)) return false;
  const version = metaProtocolVersion(request);
  return !(typeof version === "string" && isHandshakeProtocolVersion(version));
}

/**
 * The answer to a 2026-07-28 request on a connection that opened a handshake-era session: -32600,
 * as the two eras do not mix once a session exists.
 */
export function statelessRequestOnSessionError(): McpError {
  return McpError.of(
    "INVALID_REQUEST",
    "Invalid Request: this connection speaks the 2025-era handshake since its initialize (or its first request without a _meta protocol version), so it does not serve 2026-07-28 requests; start a new server process to speak 2026-07-28",
  );
}
