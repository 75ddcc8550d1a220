/**
 * Which revision family a stdio connection speaks, decided once by its first request: a request
 * other than `initialize` whose `_meta` names a protocol version opens a connection at the
 * stateless 2026-07-28 core; anything else (`initialize`, or a request without that `_meta`) opens
 * a handshake-era session, as a 2025-11-25 client expects. Spec: basic/versioning,
 * basic/transports/stdio; (2025-11-25) basic/lifecycle.
 */
import { type McpError, unsupportedProtocolVersion } from "../../protocol/errors.js";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { isModernProtocolVersion, META, MODERN_PROTOCOL_VERSIONS } from "../../protocol/versions.js";

/** The era of one connection: the stateless core (`"modern"`) or a handshake session (`"legacy"`). */
export type ConnectionEra = "modern" | "legacy";

/** The era the connection whose first request is `request` speaks. */
export function eraOfFirstRequest(request: JSONRPCRequest): ConnectionEra {
  if (request.method === "initialize") return "legacy";
  const meta = request.params?._meta;
  if (typeof meta !== "object" || meta === null) return "legacy";
  return (meta as Record<string, unknown>)[META.protocolVersion] === undefined ? "legacy" : "modern";
}

/**
 * The answer to an `initialize` on a connection that speaks 2026-07-28: -32022 naming the
 * 2026-era revisions the dispatcher serves (`supportedVersions`, default 2026-07-28) and the one
 * requested.
 */
export function lateHandshakeError(
  request: JSONRPCRequest,
  supportedVersions: readonly string[] | undefined,
): McpError {
  const served = (supportedVersions ?? MODERN_PROTOCOL_VERSIONS).filter(isModernProtocolVersion);
  const requested = request.params?.protocolVersion;
  return unsupportedProtocolVersion(
    typeof requested === "string" ? requested : "",
    served.length > 0 ? served : MODERN_PROTOCOL_VERSIONS,
  );
}
