/**
 * The request-metadata headers of Streamable HTTP: their names, which body field each one mirrors,
 * and the value codec (a value that is not header-safe travels as `=?base64?{base64 of UTF-8}?=`).
 * Shared by the client (which sets them) and the server (which checks them). Spec:
 * basic/transports/streamable-http §Request Metadata, §Custom Headers.
 */
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { META } from "../../protocol/versions.js";

/**
 * The standard MCP header names, spelled as the spec writes them. HTTP header names compare
 * case-insensitively; `Headers.get` does that for you. Spec: basic/transports/streamable-http
 * §Request Metadata.
 */
export const MCP_HEADERS = Object.freeze({
  /** Mirrors `params._meta["io.modelcontextprotocol/protocolVersion"]`; on every POST. */
  protocolVersion: "MCP-Protocol-Version",
  /** Mirrors the JSON-RPC `method`; on every request. The value is case-sensitive. */
  method: "Mcp-Method",
  /**
   * Mirrors `params.name` (tools/call, prompts/get), `params.uri` (resources/read) or
   * `params.taskId` (the tasks extension's tasks/get, tasks/update, tasks/cancel).
   */
  name: "Mcp-Name",
  /** Prefix of the headers mirroring tool arguments marked `x-mcp-header` (`Mcp-Param-{Name}`). */
  paramPrefix: "Mcp-Param-",
} as const);

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";

/** Canonical base64 (RFC 4648 §4, standard alphabet, padded to a multiple of 4). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** True when `value` has the sentinel's exact (lowercase) shape; only such values are decoded. */
function isSentinelShaped(value: string): boolean {
  return (
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length &&
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX)
  );
}

/** Printable ASCII (0x20-0x7E) only: no control characters, no tab, nothing beyond ASCII. */
function isPrintableAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Encodes a value for an `Mcp-Name` or `Mcp-Param-*` header.
 *
 * The value goes as-is when it is header-safe; otherwise as `=?base64?{base64 of its UTF-8}?=`
 * (markers lowercase). Not header-safe: any non-ASCII or control character (tab included), a
 * leading or trailing space or tab, or a value that itself looks like the sentinel. The empty
 * string stays empty. Never throws: a lone surrogate is encoded as U+FFFD, as UTF-8 requires. Spec:
 * basic/transports/streamable-http §Custom Headers (SEP-2243 encoding table: `" us-west1"` ->
 * `=?base64?IHVzLXdlc3Qx?=`).
 */
export function encodeHeaderValue(value: string): string {
  const safe =
    isPrintableAscii(value) && !value.startsWith(" ") && !value.endsWith(" ") && !isSentinelShaped(value);
  if (safe) return value;
  return `${SENTINEL_PREFIX}${toBase64(utf8Encoder.encode(value))}${SENTINEL_SUFFIX}`;
}

/**
 * What an `Mcp-Name` / `Mcp-Param-*` header value means.
 *
 * - `literal`: no sentinel; `value` is the header value itself.
 * - `base64`: a sentinel whose payload decoded; `value` is the decoded UTF-8 text.
 * - `invalid`: a sentinel whose payload is not canonical base64 of UTF-8 text; `reason` says why.
 *   A server answers it as a header mismatch (-32020).
 */
export type DecodedHeaderValue =
  | { kind: "literal"; value: string }
  | { kind: "base64"; value: string }
  | { kind: "invalid"; reason: string };

/**
 * Decodes an `Mcp-Name` / `Mcp-Param-*` header value (the inverse of {@link encodeHeaderValue}).
 *
 * Only the exact lowercase `=?base64?...?=` shape is a sentinel: a wrong-case `=?BASE64?` prefix or
 * a missing `?=` suffix is a literal. The payload must be canonical base64 (standard alphabet,
 * padding to a multiple of 4, zero trailing bits) of valid UTF-8; otherwise the result is
 * `invalid`. The raw value is taken as given (HTTP already trimmed surrounding whitespace). Never
 * throws. Spec: basic/transports/streamable-http §Server Validation, §Custom Headers (SEP-2243
 * conformance cases).
 */
export function decodeHeaderValue(raw: string): DecodedHeaderValue {
  if (!isSentinelShaped(raw)) return { kind: "literal", value: raw };
  const payload = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  if (!BASE64.test(payload)) {
    return {
      kind: "invalid",
      reason: "the base64 payload has a character outside the alphabet or bad padding",
    };
  }
  const binary = atob(payload);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (toBase64(bytes) !== payload) {
    return { kind: "invalid", reason: "the base64 payload is not canonical (non-zero trailing bits)" };
  }
  try {
    return { kind: "base64", value: utf8Decoder.decode(bytes) };
  } catch {
    return { kind: "invalid", reason: "the base64 payload is not valid UTF-8" };
  }
}

/**
 * The body value the `Mcp-Name` header mirrors for `method`: `params.name` for `tools/call` and
 * `prompts/get`, `params.uri` for `resources/read`, `params.taskId` for the tasks extension's
 * `tasks/get`, `tasks/update` and `tasks/cancel`; `undefined` for other methods or when that field
 * is not a string. Spec: basic/transports/streamable-http §Request Metadata.
 */
export function mcpNameOf(method: string, params: Record<string, unknown> | undefined): string | undefined {
  const field = mcpNameFieldOf(method);
  const value = field === undefined ? undefined : params?.[field];
  return typeof value === "string" ? value : undefined;
}

/**
 * The body field the `Mcp-Name` header mirrors for `method` (`"name"` for `tools/call` and
 * `prompts/get`, `"uri"` for `resources/read`, `"taskId"` for the tasks extension's `tasks/get`,
 * `tasks/update` and `tasks/cancel`), or `undefined` for a method without one. For `name` and
 * `uri` the server requires the header whatever the body holds; for `taskId` only when the body has
 * a string `taskId` (see `validateRequestHeaders`). Spec: basic/transports/streamable-http §Request
 * Metadata; tasks extension §Streamable HTTP: Routing Headers
 * (https://github.com/modelcontextprotocol/ext-tasks).
 */
export function mcpNameFieldOf(method: string): "name" | "uri" | "taskId" | undefined {
  if (method === "tools/call" || method === "prompts/get") return "name";
  if (method === "resources/read") return "uri";
  if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") return "taskId";
  return undefined;
}

/** The body's `_meta["io.modelcontextprotocol/protocolVersion"]` when it is a string. */
export function protocolVersionOf(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?._meta;
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return undefined;
  const version = (meta as Record<string, unknown>)[META.protocolVersion];
  return typeof version === "string" ? version : undefined;
}

/**
 * The standard request-metadata headers a client sends with `message`: `MCP-Protocol-Version`
 * (when the body's `_meta` names a version), `Mcp-Method` (requests and notifications) and
 * `Mcp-Name` (encoded with {@link encodeHeaderValue}) for the three methods that carry one.
 * Returns a new object. Spec: basic/transports/streamable-http §Request Metadata.
 */
export function requestMetadataHeaders(
  message: Pick<JSONRPCRequest, "method" | "params">,
): Record<string, string> {
  const headers: Record<string, string> = { [MCP_HEADERS.method]: message.method };
  const version = protocolVersionOf(message.params);
  if (version !== undefined) headers[MCP_HEADERS.protocolVersion] = version;
  const name = mcpNameOf(message.method, message.params);
  if (name !== undefined) headers[MCP_HEADERS.name] = encodeHeaderValue(name);
  return headers;
}
