/**
 * The common shape of a `tools/call` result checked by hand: only text content blocks and the
 * optional `structuredContent`, `isError`, `resultType: "complete"` and a `_meta` whose `serverInfo` has
 * only text fields. A result of this shape
 * always passes the protocol's schema unchanged; anything else (other keys, other blocks, icons)
 * goes through the schema, which gives the same answer and the errors. Spec: server/tools.
 */
import { META } from "../protocol/versions.js";

/** True when `block` is `{ type: "text", text: <string> }` and nothing more. */
function isPlainTextBlock(block: unknown): boolean {
  if (typeof block !== "object" || block === null || Array.isArray(block)) return false;
  let keys = 0;
  for (const key in block) {
    if (key !== "type" && key !== "text") return false;
    keys += 1;
  }
  const { type, text } = block as { type?: unknown; text?: unknown };
  return keys === 2 && type === "text" && typeof text === "string";
}

const IMPLEMENTATION_STRINGS = new Set(["name", "version", "title", "description", "websiteUrl"]);

/** True when `info` is an implementation of `name`, `version` and optional text fields only. */
function isPlainImplementation(info: unknown): boolean {
  if (typeof info !== "object" || info === null || Array.isArray(info)) return false;
  for (const key in info) {
    if (!IMPLEMENTATION_STRINGS.has(key) || typeof (info as Record<string, unknown>)[key] !== "string")
      return false;
  }
  const { name, version } = info as { name?: unknown; version?: unknown };
  return typeof name === "string" && typeof version === "string";
}

/** True when `meta` is a result's `_meta` whose `serverInfo`, if any, is a plain implementation. */
function isPlainResultMeta(meta: unknown): boolean {
  if (typeof meta !== "object" || meta === null || Array.isArray(meta)) return false;
  const info = (meta as Record<string, unknown>)[META.serverInfo];
  return info === undefined || isPlainImplementation(info);
}

/**
 * True when `result` is a `tools/call` complete result of the common shape (see the module's
 * comment): the schema would accept it and return an equal object.
 */
export function isPlainToolResult(result: Record<string, unknown>): boolean {
  if (Array.isArray(result)) return false;
  let hasContent = false;
  for (const key in result) {
    const value = result[key];
    switch (key) {
      case "content":
        if (!Array.isArray(value)) return false;
        for (const block of value) if (!isPlainTextBlock(block)) return false;
        hasContent = true;
        break;
      case "isError":
        if (value !== undefined && typeof value !== "boolean") return false;
        break;
      case "resultType":
        if (value !== undefined && value !== "complete") return false;
        break;
      case "structuredContent":
        break;
      case "_meta":
        if (value !== undefined && !isPlainResultMeta(value)) return false;
        break;
      default:
        return false;
    }
  }
  return hasContent;
}
