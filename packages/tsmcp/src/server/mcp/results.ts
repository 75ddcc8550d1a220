/**
 * Turning what `MCPServer` handlers return into protocol results: strings and content blocks into
 * `CallToolResult`s, structured data into `structuredContent` (validated against the tool's output
 * schema), messages into `GetPromptResult`s, text and bytes into resource contents. A return that
 * fits no convention is a server bug: `InvalidHandlerResultError`, logged, -32603 to the client.
 * Spec: server/tools §Tool Result, server/prompts, server/resources.
 */
import { isInputRequired } from "../../protocol/methods.js";
import type { ContentBlock, PromptMessage, ResourceContents } from "../../protocol/schema/content.js";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "../../protocol/schema/methods.js";
import type { CompiledSchema } from "../schema/compile.js";
import { describeIssues } from "../schema/issues.js";
import { isPlainObject } from "../schema/json.js";
import { InvalidHandlerResultError } from "../shaping.js";

/** True when a handler returned an `InputRequiredResult` (`resultType: "input_required"`). */
export function isInputRequiredResult(value: unknown): value is InputRequiredResult {
  return isInputRequired(value);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** A tool error result: one text block and `isError: true`. Spec: server/tools §Error Handling. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

function isContentArray(value: unknown): value is ContentBlock[] {
  return (
    Array.isArray(value) && value.every((block) => isPlainObject(block) && typeof block.type === "string")
  );
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return isPlainObject(value) && isContentArray(value.content);
}

function jsonText(value: unknown, tool: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new InvalidHandlerResultError(`tool "${tool}" returned structured content that is not JSON`, {
      cause: error,
    });
  }
  if (text === undefined) {
    throw new InvalidHandlerResultError(`tool "${tool}" returned ${kindOf(value)}, which is not JSON`);
  }
  return text;
}

/**
 * The result of a tool without an output schema: a string is one text block, `undefined` no
 * content, an array of content blocks the content, a `CallToolResult` (an object with a `content`
 * array) itself (copied), an `InputRequiredResult` itself (copied).
 *
 * @throws InvalidHandlerResultError for anything else.
 */
export function toCallToolResult(value: unknown, tool: string): CallToolResult | InputRequiredResult {
  if (isInputRequiredResult(value)) return { ...value };
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined) return { content: [] };
  if (isContentArray(value)) return { content: [...value] };
  if (isCallToolResult(value)) return { ...value };
  throw new InvalidHandlerResultError(
    `tool "${tool}" returned ${kindOf(value)}; return a string, content blocks, a CallToolResult or an InputRequiredResult`,
  );
}

/**
 * The result of a tool with an output schema. An `InputRequiredResult` passes as is; an object with
 * a `content` array and `isError: true` is an error result (not validated); an object with a
 * `content` array and `structuredContent` is a full result whose `structuredContent` is validated;
 * anything else is the structured data itself: validated, sent as `structuredContent` and as its
 * JSON in one text block.
 *
 * @throws InvalidHandlerResultError when the structured content does not match the output schema
 *   or is not JSON.
 */
export async function toStructuredToolResult(
  value: unknown,
  tool: string,
  output: CompiledSchema,
): Promise<CallToolResult | InputRequiredResult> {
  if (isInputRequiredResult(value)) return { ...value };
  if (isCallToolResult(value) && value.isError === true) return { ...value };
  const full = isCallToolResult(value) && "structuredContent" in value;
  const data = full ? (value as CallToolResult).structuredContent : value;
  const checked = await output.validate(data);
  if (!checked.ok) {
    throw new InvalidHandlerResultError(
      `tool "${tool}" returned structured content that does not match its outputSchema: ${describeIssues(checked.issues)}`,
    );
  }
  if (full) return { ...(value as CallToolResult), structuredContent: checked.value };
  return {
    content: [{ type: "text", text: jsonText(checked.value, tool) }],
    structuredContent: checked.value,
  };
}

function isMessageArray(value: unknown): value is PromptMessage[] {
  return (
    Array.isArray(value) &&
    value.every(
      (message) =>
        isPlainObject(message) && typeof message.role === "string" && isPlainObject(message.content),
    )
  );
}

/**
 * The result of a prompt: a string is one user text message, an array of messages the messages, a
 * `GetPromptResult` (an object with a `messages` array) itself, an `InputRequiredResult` itself.
 * `description` is filled from the prompt's when the result has none.
 *
 * @throws InvalidHandlerResultError for anything else.
 */
export function toGetPromptResult(
  value: unknown,
  prompt: string,
  description: string | undefined,
): GetPromptResult | InputRequiredResult {
  if (isInputRequiredResult(value)) return { ...value };
  let result: GetPromptResult;
  if (typeof value === "string") {
    result = { messages: [{ role: "user", content: { type: "text", text: value } }] };
  } else if (isMessageArray(value)) {
    result = { messages: [...value] };
  } else if (isPlainObject(value) && isMessageArray(value.messages)) {
    result = { ...(value as GetPromptResult) };
  } else {
    throw new InvalidHandlerResultError(
      `prompt "${prompt}" returned ${kindOf(value)}; return a string, messages, a GetPromptResult or an InputRequiredResult`,
    );
  }
  if (result.description === undefined && description !== undefined) result.description = description;
  return result;
}

/** Resource contents as a handler may give them: `uri` defaults to the URI read. */
export type ResourceContentsInput =
  | (Omit<Extract<ResourceContents, { text: string }>, "uri"> & { uri?: string })
  | (Omit<Extract<ResourceContents, { blob: string }>, "uri"> & { uri?: string });

function contentsItem(
  item: unknown,
  uri: string,
  mimeType: string | undefined,
  resource: string,
): ResourceContents {
  if (!isPlainObject(item) || (typeof item.text !== "string" && typeof item.blob !== "string")) {
    throw new InvalidHandlerResultError(`resource "${resource}" returned contents without text or blob`);
  }
  const filled: Record<string, unknown> = { ...item };
  if (filled.uri === undefined) filled.uri = uri;
  if (filled.mimeType === undefined && mimeType !== undefined) filled.mimeType = mimeType;
  return filled as ResourceContents;
}

/**
 * The contents of a resource read, or `undefined` when the handler says the resource does not
 * exist (it returned `undefined` or no contents). A string is one text item, bytes one base64
 * `blob` item, an array of contents (or `{ contents }`) the items; an item's `uri` defaults to the
 * URI read and its `mimeType` to the resource's. An `InputRequiredResult` is returned as is; the
 * caller decides whether the resource may ask.
 *
 * @throws InvalidHandlerResultError for anything else.
 */
export function toReadResourceResult(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
  resource: string,
): ReadResourceResult | InputRequiredResult | undefined {
  if (isInputRequiredResult(value)) return { ...value };
  if (value === undefined) return undefined;
  const item = (fields: { text: string } | { blob: string }): ResourceContents =>
    (mimeType === undefined ? { uri, ...fields } : { uri, mimeType, ...fields }) as ResourceContents;
  if (typeof value === "string") return { contents: [item({ text: value })] };
  if (value instanceof Uint8Array)
    return { contents: [item({ blob: Buffer.from(value).toString("base64") })] };
  const items = Array.isArray(value) ? value : isPlainObject(value) ? value.contents : undefined;
  if (!Array.isArray(items)) {
    throw new InvalidHandlerResultError(
      `resource "${resource}" returned ${kindOf(value)}; return a string, bytes, contents, { contents } or undefined (not found)`,
    );
  }
  if (items.length === 0) return undefined;
  const contents = items.map((entry) => contentsItem(entry, uri, mimeType, resource));
  return Array.isArray(value) ? { contents } : { ...(value as ReadResourceResult), contents };
}
