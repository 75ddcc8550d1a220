/**
 * Human output of the command: content blocks (text as it is, images and audio as a note with type
 * and size, resources and links by URI), `structuredContent` as pretty JSON, prompt messages by
 * role, and the mark of a tool's UI (listings are in `listing.ts`). `--json` output bypasses it.
 * Spec: server/tools §Tool Result, server/prompts, server/resources.
 */

import { uiResourceOf } from "tsmcp/apps";
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, Tool } from "tsmcp/types";

/** The bytes a base64 string decodes to. */
export function decodedSize(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** A byte count for people: `812 B`, `12.3 kB`, `4.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The lines of one resource's contents: its text, or a note for a blob. */
function renderContents(contents: {
  uri: string;
  mimeType?: string | undefined;
  text?: string;
  blob?: string;
}): string {
  const type = contents.mimeType ?? "unknown type";
  if (typeof contents.text === "string") return contents.text;
  return `[blob ${contents.uri}: ${type}, ${formatBytes(decodedSize(contents.blob ?? ""))}]`;
}

/** The text of one content block. */
export function renderBlock(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${block.mimeType}, ${formatBytes(decodedSize(block.data))}]`;
    case "audio":
      return `[audio: ${block.mimeType}, ${formatBytes(decodedSize(block.data))}]`;
    case "resource_link":
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ""}]`;
    case "resource":
      return `[resource ${block.resource.uri}]\n${renderContents(block.resource as Parameters<typeof renderContents>[0])}`;
    default:
      return JSON.stringify(block, null, 2);
  }
}

/** A tool result: each block, then `structuredContent` as pretty JSON. */
export function renderToolResult(result: CallToolResult): string {
  const parts = result.content.map(renderBlock);
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join("\n");
}

/** A prompt: its description, then each message as `role: text`. */
export function renderPrompt(result: GetPromptResult): string {
  const lines = result.description === undefined ? [] : [result.description];
  for (const message of result.messages)
    lines.push(`${message.role}: ${renderBlock(message.content as ContentBlock)}`);
  return lines.join("\n");
}

/** A read resource: each contents' text, or a note for a blob. */
export function renderResource(result: ReadResourceResult): string {
  return result.contents
    .map((contents) => renderContents(contents as Parameters<typeof renderContents>[0]))
    .join("\n");
}

/**
 * The mark of a tool that carries an MCP Apps UI: `[ui ui://...]`, `[ui ui://..., app only]` when
 * the model may not see it (visibility `["app"]`), `[ui: invalid link ...]` for a link that is not
 * `ui://`; undefined for a tool without a UI.
 * Spec: https://modelcontextprotocol.io/extensions/apps/overview (Resource Discovery).
 */
export function uiMark(tool: Tool): string | undefined {
  let link: ReturnType<typeof uiResourceOf>;
  try {
    link = uiResourceOf(tool);
  } catch {
    const meta = tool._meta as { ui?: { resourceUri?: unknown } } | undefined;
    return `[ui: invalid link ${JSON.stringify(meta?.ui?.resourceUri ?? tool._meta?.["ui/resourceUri"] ?? null)}]`;
  }
  if (link === undefined) return undefined;
  return `[ui ${link.resourceUri}${link.visibility.includes("model") ? "" : ", app only"}]`;
}
