/**
 * The common shape of a `tools/call` result checked by hand: only text content blocks and the
 * optional `structuredContent`, `isError` and `resultType: "complete"`. A result of this shape
 * always passes the protocol's schema unchanged; anything else (other keys, other blocks, `_meta`)
 * goes through the schema, which gives the same answer and the errors. Spec: server/tools.
 */

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
      default:
        return false;
    }
  }
  return hasContent;
}
