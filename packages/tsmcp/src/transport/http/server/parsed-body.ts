/**
 * A request body that a framework's body parser already read (`req.body` after `express.json()`,
 * `express.text()` or `express.raw()`): text and bytes go through the usual limits and parsing; a
 * parsed JSON value keeps the same limits, measured on the value itself by one bounded walk (see
 * {@link checkParsedBody}), since its `Content-Length` (absent when chunked, the compressed size
 * when the parser inflated it) says nothing reliable about it.
 * Spec: basic/transports/streamable-http, basic/index §Error Codes.
 */
import { McpError } from "../../../protocol/errors.js";
import { classifyMessage, isRequestId, type ParsedMessage } from "../../../protocol/jsonrpc.js";
import { isObject } from "../../../protocol/options.js";
import { type BodyText, BoundedBody } from "./body.js";

/**
 * The body of a request whose stream a parser consumed, from the value it left: a string or bytes
 * as text under `maxBodyBytes`, anything else as a parsed value for {@link checkParsedBody}. A
 * declared `Content-Length` over `maxBodyBytes` is `too-large` either way.
 */
export function bodyOfParsed(
  value: unknown,
  contentLength: string | undefined,
  maxBodyBytes: number,
): BodyText {
  const body = new BoundedBody(maxBodyBytes);
  if (body.declaresTooMuch(contentLength)) return { kind: "too-large" };
  if (typeof value === "string") value = new TextEncoder().encode(value);
  if (value instanceof Uint8Array) return body.push(value) ? body.text() : { kind: "too-large" };
  return { kind: "parsed", value };
}

/** The length of a scalar as JSON text (0 for what JSON cannot hold). */
function scalarLength(value: unknown): number {
  switch (typeof value) {
    case "string":
      return value.length + 2;
    case "number":
    case "bigint":
      return String(value).length;
    case "boolean":
      return value ? 4 : 5;
    default:
      return value === null ? 4 : 0;
  }
}

/**
 * Walks `value` once, depth first, adding up its length as JSON text, and stops at the first
 * limit passed: `too-deep` when objects and arrays nest more than `maxDepth` deep (the value
 * itself counting as 1), `too-large` when the length passes `maxBodyBytes`. Every path is
 * visited (shared sub-objects once per path, as serializing would) and each visit adds at
 * least one character, so the walk stops within about `maxBodyBytes` visits whatever the value.
 */
function measure(value: unknown, maxBodyBytes: number, maxDepth: number): "ok" | "too-large" | "too-deep" {
  let length = 0;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const next = values.pop();
    const depth = depths.pop() as number;
    if (typeof next !== "object" || next === null) {
      length += scalarLength(next);
    } else {
      if (depth > maxDepth) return "too-deep";
      // Brackets, then a comma between entries, checked before the entries are queued.
      const keys = Array.isArray(next) ? undefined : Object.keys(next);
      const count = keys === undefined ? (next as unknown[]).length : keys.length;
      length += count === 0 ? 2 : count + 1;
      if (length > maxBodyBytes) return "too-large";
      if (keys === undefined) {
        for (const child of next as unknown[]) {
          values.push(child);
          depths.push(depth + 1);
        }
      } else {
        for (const key of keys) {
          length += key.length + 3; // "key":
          values.push((next as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
      }
    }
    if (length > maxBodyBytes) return "too-large";
  }
  return "ok";
}

/**
 * Classifies a parsed body as `parseMessage` does its text, after one bounded walk of the value:
 *
 * - `too-large` (answered 413, as a read body over the limit) when its length as JSON text passes
 *   `maxBodyBytes`. The length counted is that of `JSON.stringify(value)` with every string taken
 *   as one character per UTF-16 code unit and no escapes: never more than the UTF-8 bytes of its
 *   JSON text, so a body refused is over the limit, while one served may be up to 3 times the
 *   limit in UTF-8 bytes (non-ASCII text) or 6 times (every character escaped).
 * - -32600 ("Invalid Request: nested deeper than N levels", its id echoed when it can be read)
 *   when objects and arrays nest more than `maxDepth` deep.
 *
 * The walk stops at whichever limit it passes first, and within about `maxBodyBytes` steps
 * however the value is built (sub-objects shared by a custom parser are counted once per path).
 */
export function checkParsedBody(
  value: unknown,
  maxBodyBytes: number,
  maxDepth: number,
): ParsedMessage | { kind: "too-large" } {
  const measured = measure(value, maxBodyBytes, maxDepth);
  if (measured === "too-large") return { kind: "too-large" };
  if (measured === "too-deep") {
    const id = isObject(value) && isRequestId(value.id) ? value.id : undefined;
    return {
      kind: "invalid",
      error: McpError.of("INVALID_REQUEST", `Invalid Request: nested deeper than ${maxDepth} levels`),
      ...(id === undefined ? {} : { id }),
    };
  }
  return classifyMessage(value);
}
