/**
 * The revision rules of a POST at the dual-era endpoint, applied once its message is read and
 * before it is routed to an era: which era it belongs to, an `MCP-Protocol-Version` naming a
 * revision the endpoint does not serve (-32022), a header that disagrees with the body's `_meta`
 * revision (-32020), and the framing of a notification (-32600). Spec:
 * basic/transports/streamable-http §Request Metadata, §Server Validation, §Sending Messages to the
 * Server; basic/versioning; 2025-11-25 basic/transports §Protocol Version Header.
 */
import { type McpError, unsupportedProtocolVersion } from "../../../protocol/errors.js";
import type { ParsedMessage } from "../../../protocol/jsonrpc.js";
import { notificationFramingError } from "../../../protocol/notification-framing.js";
import { HANDSHAKE_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSIONS } from "../../../protocol/versions.js";
import type { HeaderReader } from "../../dispatcher.js";
import { MCP_HEADERS, protocolVersionOf } from "../headers.js";
import { mismatch, quote, truncate } from "../validate-headers.js";

/** A parsed message the handler can serve (framing errors already answered). */
export type ServableMessage = Exclude<ParsedMessage, { kind: "invalid" }>;

/** What the endpoint serves: its 2026 revisions, and whether it serves the handshake era. */
export interface ServedRevisions {
  /** The 2026 revisions of the dispatcher (`supportedVersions`). */
  readonly modern: readonly string[];
  /** True unless `legacy: "reject"`. */
  readonly handshake: boolean;
}

/** The trimmed `MCP-Protocol-Version` header, or undefined when absent or empty. */
export function versionHeaderOf(headers: HeaderReader): string | undefined {
  return trimmedVersion(headers.get(MCP_HEADERS.protocolVersion));
}

/** An `MCP-Protocol-Version` value as read (`null` when absent), trimmed; undefined when absent or empty. */
export function trimmedVersion(raw: string | null): string | undefined {
  return raw?.trim() || undefined;
}

/**
 * True when a parsed POST belongs to the handshake era: it carries `Mcp-Session-Id`; or its
 * `MCP-Protocol-Version` names a 2025 revision; or it has no such header and is `initialize`, or
 * has neither `Mcp-Method` (a 2026 header) nor a `_meta` revision. A header naming a 2026
 * revision, or a revision of neither era, keeps it on the 2026 path.
 */
export function isHandshakeEra(
  modern: readonly string[],
  headers: HeaderReader,
  parsed: ServableMessage,
  version: string | undefined,
): boolean {
  if (version !== undefined && modern.includes(version)) return false;
  if (headers.get("mcp-session-id") !== null) return true;
  if (version !== undefined) return LEGACY_PROTOCOL_VERSIONS.includes(version);
  if (parsed.kind === "request" && parsed.message.method === "initialize") return true;
  if (headers.get("mcp-method") !== null) return false;
  return parsed.kind === "response" || protocolVersionOf(parsed.message.params) === undefined;
}

/**
 * The -32022 (HTTP 400) of a POST whose `MCP-Protocol-Version` names a revision the endpoint does
 * not serve, whatever the body says, or undefined. `data.supported` lists the 2026 revisions then
 * the handshake ones served when the header names an older handshake revision (such as
 * `2024-11-05`) on an endpoint that serves that era; otherwise the 2026 revisions, as
 * `server/discover` lists them. A revision served in the handshake era is left to the session,
 * which checks it against the one its `initialize` negotiated.
 */
export function unsupportedRevision(
  served: ServedRevisions,
  header: string | undefined,
): McpError | undefined {
  if (header === undefined || served.modern.includes(header)) return undefined;
  if (served.handshake && HANDSHAKE_PROTOCOL_VERSIONS.includes(header)) return undefined;
  const olderHandshake = served.handshake && LEGACY_PROTOCOL_VERSIONS.includes(header);
  return unsupportedProtocolVersion(
    header,
    olderHandshake ? [...served.modern, ...HANDSHAKE_PROTOCOL_VERSIONS] : served.modern,
  );
}

/**
 * The -32020 (HTTP 400) of a message whose `MCP-Protocol-Version` header and body `_meta` revision
 * both name a revision and differ, or undefined. (A 2026 request gets the same check among its
 * other headers, in their documented order: see `validateRequestHeaders`.)
 */
export function revisionMismatch(header: string | undefined, parsed: ServableMessage): McpError | undefined {
  if (header === undefined || parsed.kind === "response") return undefined;
  const body = protocolVersionOf(parsed.message.params);
  if (body === undefined || body === header) return undefined;
  return mismatch(
    `${MCP_HEADERS.protocolVersion} header value ${quote(header)} does not match body value ${quote(body)}`,
    { header: MCP_HEADERS.protocolVersion, headerValue: truncate(header), bodyValue: truncate(body) },
  );
}

/**
 * The -32600 (HTTP 400) of a notification that breaks the framing rules of its era (see
 * `notificationFramingError`: a request method without an id, malformed params of a notification
 * the protocol defines), or undefined. A refused notification is not dispatched.
 */
export function notificationRefusal(parsed: ServableMessage, handshakeEra: boolean): McpError | undefined {
  if (parsed.kind !== "notification") return undefined;
  return notificationFramingError(parsed.message, handshakeEra ? "legacy" : "modern");
}
