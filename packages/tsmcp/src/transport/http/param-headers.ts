/**
 * The `Mcp-Param-{Name}` headers of Streamable HTTP, both directions: the client encodes each
 * annotated argument of a `tools/call` into its header ({@link paramHeadersFor}); the server checks
 * the headers it received against the body ({@link validateParamHeaders}). Which parameters are
 * annotated, and the annotation rules, come from `protocol/x-mcp-header.ts`; the value codec (the
 * `=?base64?…?=` sentinel) from `headers.ts`. Spec: basic/transports/streamable-http §Custom
 * Headers, §Server Validation; the SEP-2243 conformance cases.
 */
import type { McpError } from "../../protocol/errors.js";
import { type ParamHeader, paramValueAt } from "../../protocol/x-mcp-header.js";
import type { HeaderReader } from "../dispatcher.js";
import { decodeHeaderValue, encodeHeaderValue, MCP_HEADERS } from "./headers.js";
import { hasInvalidCharacters, mismatch, quote, trimOws, truncate } from "./validate-headers.js";

/**
 * A decimal number as JSON writes it (`42`, `42.0`, `-7`, `4.2e1`): what an integer header may
 * look like on the server, which compares it numerically. No sign `+`, no leading zeros, no hex.
 */
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The header name of an annotated parameter, as the annotation spells it: `Mcp-Param-{name}`. */
export function paramHeaderName(param: ParamHeader): string {
  return `${MCP_HEADERS.paramPrefix}${param.name}`;
}

/**
 * Encodes one argument value for its `Mcp-Param-*` header: a string as-is or in the base64
 * sentinel when not header-safe, an integer in decimal, a boolean as `true`/`false`.
 * Returns `undefined` for `null` and `undefined` (no header is sent).
 *
 * @throws TypeError for any other value (an object, an array, a non-integer number, an integer
 *   beyond ±(2^53−1)): it cannot be mirrored faithfully, so the call is not sent. Spec:
 *   basic/transports/streamable-http §Custom Headers.
 */
export function encodeParamValue(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new TypeError(
    `${where}: ${JSON.stringify(value)} cannot be mirrored into a header (only strings, booleans and integers within ±(2^53−1))`,
  );
}

/**
 * The `Mcp-Param-{Name}` headers of one `tools/call`: for each parameter, the value at its exact
 * path in `args`; an absent or `null` value sends no header. Returns a new object.
 *
 * @throws TypeError as {@link encodeParamValue}.
 */
export function paramHeadersFor(
  toolName: string,
  params: readonly ParamHeader[],
  args: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const encoded = encodeParamValue(
      paramValueAt(args, param.path),
      `tool "${toolName}", argument ${param.path.join(".")}`,
    );
    if (encoded !== undefined) headers[paramHeaderName(param)] = encoded;
  }
  return headers;
}

/** A body value for a message: a string quoted, anything else as (cut) JSON. */
function describeBodyValue(value: unknown): string {
  if (typeof value === "string") return quote(value);
  return truncate(JSON.stringify(value) ?? String(value));
}

/**
 * A body value for an error's `data`: a string cut as `truncate` does; an object or array
 * whose JSON is longer than that limit as its cut JSON text; anything else as it is.
 */
function boundBodyValue(value: unknown): unknown {
  if (typeof value === "string") return truncate(value);
  if (typeof value !== "object" || value === null) return value;
  const json = JSON.stringify(value);
  const cut = truncate(json);
  return cut === json ? value : cut;
}

/**
 * True when the decoded header text stands for `bodyValue`: the same string; `true`/`false` for a
 * boolean; for a number, a JSON decimal of the same value (`42.0` and `4.2e1` match 42). An object
 * or array never matches (no client can mirror one).
 */
function matchesBody(text: string, bodyValue: unknown): boolean {
  switch (typeof bodyValue) {
    case "string":
      return text === bodyValue;
    case "boolean":
      return text === (bodyValue ? "true" : "false");
    case "number":
      return JSON_NUMBER.test(text) && Number(text) === bodyValue;
    default:
      return false;
  }
}

/** Checks one annotated parameter's header against its body value. */
function checkParamHeader(param: ParamHeader, args: unknown, headers: HeaderReader): McpError | undefined {
  const header = paramHeaderName(param);
  const bodyValue = paramValueAt(args, param.path);
  const present = bodyValue !== undefined && bodyValue !== null;
  const raw = headers.get(header);
  if (raw === null) {
    if (!present) return undefined;
    return mismatch(
      `required ${header} header is missing (body value ${describeBodyValue(bodyValue)} of argument ${param.path.join(".")})`,
      { header, bodyValue: boundBodyValue(bodyValue) },
    );
  }
  const value = trimOws(raw);
  if (hasInvalidCharacters(value)) {
    return mismatch(`${header} header value contains invalid characters`, {
      header,
      ...(present ? { bodyValue: boundBodyValue(bodyValue) } : {}),
    });
  }
  const decoded = decodeHeaderValue(value);
  if (decoded.kind === "invalid") {
    return mismatch(`${header} header value ${quote(value)} is not valid base64: ${decoded.reason}`, {
      header,
      headerValue: truncate(value),
      ...(present ? { bodyValue: boundBodyValue(bodyValue) } : {}),
    });
  }
  if (!present) {
    return mismatch(
      `${header} header value ${quote(decoded.value)} has no body value (argument ${param.path.join(".")} is ${bodyValue === null ? "null" : "absent"})`,
      { header, headerValue: truncate(decoded.value), ...(bodyValue === null ? { bodyValue } : {}) },
    );
  }
  if (!matchesBody(decoded.value, bodyValue)) {
    return mismatch(
      `${header} header value ${quote(decoded.value)} does not match body value ${describeBodyValue(bodyValue)}`,
      { header, headerValue: truncate(decoded.value), bodyValue: boundBodyValue(bodyValue) },
    );
  }
  return undefined;
}

/**
 * Checks the `Mcp-Param-{Name}` headers of one `tools/call` against its `arguments`, for the
 * tool's annotated parameters (from `analyzeParamHeaders` of its advertised schema).
 *
 * For each parameter, in order:
 * - a value present and not `null` in the body needs its header (header names compare
 *   case-insensitively); a missing one is refused;
 * - a header with a control or non-ASCII character is refused, and so is a `=?base64?…?=`
 *   sentinel whose payload is not canonical base64 of UTF-8 (a wrong-case prefix or a missing
 *   suffix is a literal);
 * - the decoded header must stand for the body value: the same string; `true`/`false` for a
 *   boolean; a JSON decimal of the same number for a number (`42.0` matches `42`);
 * - an absent or `null` argument expects no header; one sent anyway is refused too (no
 *   conforming client sends it, and an intermediary may have acted on a value the body lacks).
 *
 * `Mcp-Param-*` headers of names the tool does not annotate are ignored. The first failure wins.
 *
 * @returns `undefined` when every header agrees with the body, else the -32020 `McpError` to answer
 *   with (HTTP 400; `data` has `header`, `headerValue` when readable, and `bodyValue`; a long
 *   string is cut with "…" and an object or array with long JSON given as its cut JSON text, as in
 *   the message). Never throws. Spec: basic/transports/streamable-http §Server Validation, §Custom
 *   Headers.
 */
export function validateParamHeaders(
  params: readonly ParamHeader[],
  args: unknown,
  headers: HeaderReader,
): McpError | undefined {
  for (const param of params) {
    const error = checkParamHeader(param, args, headers);
    if (error !== undefined) return error;
  }
  return undefined;
}
