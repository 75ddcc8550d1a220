/**
 * Protocol revisions tsmcp speaks, and the reserved `_meta` keys of the 2026-07-28 revision.
 * Spec: basic/versioning, basic/index §_meta.
 */

/** The newest protocol revision, spoken first: stateless, per-request `_meta`, MRTR. */
export const LATEST_PROTOCOL_VERSION = "2026-07-28";

/** Revisions that use the stateless core (per-request `_meta`, `server/discover`, no handshake). */
export const MODERN_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([LATEST_PROTOCOL_VERSION]);

/** Revisions that use the `initialize` handshake, newest first. */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
]);

/**
 * The handshake revisions a tsmcp server serves, newest first: an `initialize` asking for one of
 * them gets it, any other request gets the first. Spec (2025-11-25): basic/lifecycle §Version
 * Negotiation.
 */
export const HANDSHAKE_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
]);

/** True when `version` is a handshake revision a tsmcp server serves. */
export function isHandshakeProtocolVersion(version: string): boolean {
  return HANDSHAKE_PROTOCOL_VERSIONS.includes(version);
}

/** The JSON-RPC version every message carries. */
export const JSONRPC_VERSION = "2.0";

/** Reserved `_meta` keys (spec: basic/index, "Request metadata"). */
export const META = Object.freeze({
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  progressToken: "progressToken",
} as const);

/** True when `version` is a revision of the stateless core. */
export function isModernProtocolVersion(version: string): boolean {
  return MODERN_PROTOCOL_VERSIONS.includes(version);
}
