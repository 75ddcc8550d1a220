/**
 * Server-side validation of the request-metadata headers against the JSON-RPC body: every
 * disagreement is a `HeaderMismatch` (-32020, HTTP 400) naming the header and both values. The
 * `Mcp-Param-*` headers are checked per tool (`param-headers.ts`, from the tool's schema) with the
 * helpers exported here. Spec: basic/transports/streamable-http §Request Metadata, §Server
 * Validation.
 */
import { McpError } from "../../protocol/errors.js";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { truncate as truncateText } from "../../protocol/text.js";
import type { HeaderReader } from "../dispatcher.js";
import { decodeHeaderValue, MCP_HEADERS, mcpNameFieldOf, mcpNameOf, protocolVersionOf } from "./headers.js";

/**
 * Longest header or body value echoed in an error, in its message or its `data`; longer ones are
 * cut with "…".
 */
const QUOTE_LIMIT = 200;

/**
 * The characters an echoed value never carries raw: control characters (C0, DEL, C1), the bidi
 * controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and paragraph
 * separators, any of which could reorder or hide text where the error is shown or logged.
 */
const UNSAFE_TO_ECHO = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/gu;

/** `value` with each {@link UNSAFE_TO_ECHO} character written as `\uXXXX` (lowercase hex, as JSON does). */
function escapeUnsafe(value: string): string {
  return value.replace(UNSAFE_TO_ECHO, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * `value` cut to {@link QUOTE_LIMIT} UTF-16 units plus "…" when longer (never splitting a
 * surrogate pair), then with every control, bidi-control, line- or paragraph-separator character
 * written as `\uXXXX` (so at most 6 characters each): how a header or body value appears in a
 * -32020 error's `data`. Other characters, non-ASCII ones included, are kept.
 */
export function truncate(value: string): string {
  return escapeUnsafe(truncateText(value, QUOTE_LIMIT));
}

/** `value` in single quotes for an error message, cut and escaped as `truncate` does. */
export function quote(value: string): string {
  return `'${truncate(value)}'`;
}

/**
 * True when a header value has a character outside visible ASCII, space and tab (RFC 9110
 * field-value without obs-text): a control character or anything beyond ASCII.
 */
export function hasInvalidCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 0x09 && (code < 0x20 || code > 0x7e)) return true;
  }
  return false;
}

/** `value` without optional whitespace around it (RFC 9110 §5.5); `Headers` usually already trimmed. */
export function trimOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, "");
}

/** A -32020 HeaderMismatch (HTTP 400) whose message is `Header mismatch: {message}`. */
export function mismatch(message: string, data: Record<string, unknown>): McpError {
  return McpError.of("HEADER_MISMATCH", `Header mismatch: ${message}`, data);
}

/**
 * Checks one standard header against the body value it mirrors. `decode` says whether the value
 * may be a base64 sentinel (`Mcp-Name`, `Mcp-Param-*`).
 */
function checkHeader(
  headers: HeaderReader,
  header: string,
  bodyValue: string,
  decode: boolean,
): McpError | undefined {
  return checkHeaderValue(header, headers.get(header), bodyValue, decode);
}

/** {@link checkHeader} of a value already read (`null` when absent). */
function checkHeaderValue(
  header: string,
  raw: string | null,
  bodyValue: string,
  decode: boolean,
): McpError | undefined {
  if (raw === null) {
    return mismatch(`required ${header} header is missing (body value ${quote(bodyValue)})`, {
      header,
      bodyValue: truncate(bodyValue),
    });
  }
  const value = trimOws(raw);
  if (hasInvalidCharacters(value)) {
    return mismatch(`${header} header value contains invalid characters`, {
      header,
      bodyValue: truncate(bodyValue),
    });
  }
  let headerValue = value;
  if (decode) {
    const decoded = decodeHeaderValue(value);
    if (decoded.kind === "invalid") {
      return mismatch(`${header} header value ${quote(value)} is not valid base64: ${decoded.reason}`, {
        header,
        headerValue: truncate(value),
        bodyValue: truncate(bodyValue),
      });
    }
    headerValue = decoded.value;
  }
  if (headerValue !== bodyValue) {
    return mismatch(
      `${header} header value ${quote(headerValue)} does not match body value ${quote(bodyValue)}`,
      { header, headerValue: truncate(headerValue), bodyValue: truncate(bodyValue) },
    );
  }
  return undefined;
}

/**
 * `Mcp-Name` on `tools/call`, `prompts/get` or `resources/read` (`field` is `name` or `uri`) whose
 * body lacks that field or holds a non-string: the header is still required, and a header present
 * has no body value to mirror. Either way a -32020, before the dispatcher would answer the body's
 * params (-32602).
 */
function checkNameWithoutBodyValue(headers: HeaderReader, field: "name" | "uri"): McpError {
  const header = MCP_HEADERS.name;
  const raw = headers.get(header);
  if (raw === null) {
    return mismatch(`required ${header} header is missing (the body has no string params.${field})`, {
      header,
    });
  }
  const value = trimOws(raw);
  const shown = hasInvalidCharacters(value) ? undefined : truncate(value);
  return mismatch(
    `${header} header ${shown === undefined ? "value" : `value ${quote(value)}`} has no body value to match (the body has no string params.${field})`,
    shown === undefined ? { header } : { header, headerValue: shown },
  );
}

/**
 * Validates the standard headers of one JSON-RPC request against its body.
 *
 * - `Mcp-Method` must be present and equal `method` exactly (values are case-sensitive).
 * - `MCP-Protocol-Version` must be present; when the body's `_meta` names a version (a string),
 *   the header must equal it. A body without that field is left to the dispatcher (-32602).
 * - `Mcp-Name` must be present on `tools/call`, `prompts/get`, `resources/read` and the tasks
 *   extension's `tasks/get`, `tasks/update` and `tasks/cancel`, and equal `params.name` (the first
 *   two), `params.uri` (the third) or `params.taskId` (the tasks methods) after base64-sentinel
 *   decoding. On the first three, a body without that field, or with a non-string one, does not
 *   excuse the header: its absence is a -32020, and so is a header with no body value to mirror.
 *   A tasks method whose body has no string `params.taskId` is left to the dispatcher instead,
 *   header or not: the tasks extension answers an invalid `taskId` with -32602 (Invalid params,
 *   which it makes a MUST for `tasks/get`; tasks.md §Error Handling), and `Mcp-Name` there only
 *   routes a request to the replica holding the task, which a request without a task id has none
 *   of.
 *
 * Header names are case-insensitive (`Headers.get`); surrounding whitespace is ignored. A value
 * with control or non-ASCII characters is refused.
 *
 * Order of checks. Only the first failure is answered, so a request wrong in several ways gets a
 * predictable error:
 *
 * 1. (the caller, before this function) an `MCP-Protocol-Version` header naming a revision the
 *    server does not serve: -32022 (HTTP 400), whatever the body or the other headers say, since
 *    the header rules belong to the revision;
 * 2. `Mcp-Method`;
 * 3. `MCP-Protocol-Version` against the body's `_meta` version: when both name a version and
 *    they differ, -32020 naming the header and both values, even if the body's version is one the
 *    server does not serve (the header decides the revision; the body must agree with it);
 * 4. `Mcp-Name`;
 * 5. (per tool, after this function) `Mcp-Param-*`;
 * 6. (the dispatcher) the body itself: a missing `_meta` version or malformed params, -32602.
 *
 * So every header disagreement is answered before the body's own validity: a `tools/call` without
 * `params.name` and without `Mcp-Name` is -32020, not -32602 (a `tasks/get` without a string
 * `params.taskId` is the exception above: -32602).
 *
 * @returns `undefined` when the headers agree with the body, else the -32020 `McpError` to answer
 *   with (HTTP 400; `data` has `header`, `headerValue` when readable, and `bodyValue`, both cut
 *   and escaped as `truncate` does; the message quotes them the same way). Never throws.
 * Spec: basic/transports/streamable-http §Server Validation; tasks extension §Streamable HTTP:
 * Routing Headers, §Error Handling (https://github.com/modelcontextprotocol/ext-tasks).
 */
export function validateRequestHeaders(request: JSONRPCRequest, headers: HeaderReader): McpError | undefined {
  return validateRequestHeadersWith(request, headers, headers.get(MCP_HEADERS.protocolVersion));
}

/**
 * {@link validateRequestHeaders} with the `MCP-Protocol-Version` header already read (`null` when
 * absent), for a caller that read it before.
 */
export function validateRequestHeadersWith(
  request: JSONRPCRequest,
  headers: HeaderReader,
  protocolVersion: string | null,
): McpError | undefined {
  const methodError = checkHeader(headers, MCP_HEADERS.method, request.method, false);
  if (methodError !== undefined) return methodError;

  const bodyVersion = protocolVersionOf(request.params);
  if (bodyVersion === undefined) {
    if (protocolVersion === null) {
      return mismatch(`required ${MCP_HEADERS.protocolVersion} header is missing`, {
        header: MCP_HEADERS.protocolVersion,
      });
    }
  } else {
    const versionError = checkHeaderValue(MCP_HEADERS.protocolVersion, protocolVersion, bodyVersion, false);
    if (versionError !== undefined) return versionError;
  }

  const nameField = mcpNameFieldOf(request.method);
  if (nameField === undefined) return undefined;
  const bodyName = mcpNameOf(request.method, request.params);
  if (bodyName === undefined) {
    return nameField === "taskId" ? undefined : checkNameWithoutBodyValue(headers, nameField);
  }
  return checkHeader(headers, MCP_HEADERS.name, bodyName, true);
}
