/**
 * A request body that a framework's body parser already read (`req.body` after `express.json()`,
 * `express.text()` or `express.raw()`): text and bytes go through the usual limits and parsing; a
 * parsed JSON value keeps the same rules, the `Content-Length` checked against `maxBodyBytes` (the
 * parser's own limit bounded what it read) and the value's nesting against `maxJsonDepth`.
 * Spec: basic/transports/streamable-http, basic/index §Error Codes.
 */
import { McpError } from "../../protocol/errors.js";
import { classifyMessage, isRequestId, type ParsedMessage } from "../../protocol/jsonrpc.js";
import { isObject } from "../../protocol/options.js";
import { type BodyText, BoundedBody } from "./body.js";

/**
 * The body of a request whose stream a parser consumed, from the value it left: a string or bytes
 * as text under `maxBodyBytes`, anything else as a parsed value (its declared `Content-Length`
 * still under `maxBodyBytes`).
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

/** True when `value` nests objects and arrays more than `maxDepth` deep (itself counting as 1). */
function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const next = values.pop();
    const depth = depths.pop() as number;
    if (typeof next !== "object" || next === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof child !== "object" || child === null) continue;
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

/**
 * Classifies a parsed body as `parseMessage` does its text: nested deeper than `maxDepth`, it is
 * -32600 ("Invalid Request: nested deeper than N levels", its id echoed when it can be read).
 */
export function parseParsedBody(value: unknown, maxDepth: number): ParsedMessage {
  if (nestsDeeperThan(value, maxDepth)) {
    const id = isObject(value) && isRequestId(value.id) ? value.id : undefined;
    return {
      kind: "invalid",
      error: McpError.of("INVALID_REQUEST", `Invalid Request: nested deeper than ${maxDepth} levels`),
      ...(id === undefined ? {} : { id }),
    };
  }
  return classifyMessage(value);
}
