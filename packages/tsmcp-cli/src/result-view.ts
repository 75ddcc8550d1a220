/**
 * Results as the interactive mode shows them: text as it is, structured content as a table when
 * it is a flat object or a list of flat objects (else pretty JSON), and images, audio and blobs
 * saved to files in a directory of the session, each named with its type and size.
 * Spec: server/tools §Tool Result, server/resources §Resource Contents.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult, ContentBlock, ReadResourceResult } from "tsmcp/types";
import { decodedSize, formatBytes, renderBlock } from "./render.js";

/** A scalar a table cell shows. */
type Cell = string | number | boolean | null;

const isCell = (value: unknown): value is Cell =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

const isFlat = (value: unknown): value is Record<string, Cell> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length > 0 &&
  Object.values(value).every(isCell);

/** Columns padded to their widest cell, a rule under the header. */
function grid(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

const cellText = (value: Cell | undefined) =>
  value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

/**
 * Structured content as a table: a flat object as `field  value` rows, a list of flat objects
 * as one row each under the union of their keys; anything else as pretty JSON.
 */
export function renderStructured(value: unknown): string {
  if (isFlat(value)) {
    return grid(
      ["field", "value"],
      Object.entries(value).map(([key, cell]) => [key, cellText(cell)]),
    );
  }
  const list = Array.isArray(value)
    ? value
    : typeof value === "object" && value !== null && Object.keys(value).length === 1
      ? Object.values(value)[0]
      : undefined;
  if (Array.isArray(list) && list.length > 0 && list.every(isFlat)) {
    const columns = [...new Set(list.flatMap((row) => Object.keys(row)))];
    return grid(
      columns,
      list.map((row) => columns.map((column) => cellText(row[column]))),
    );
  }
  return JSON.stringify(value, null, 2);
}

/** The file extension for a media type (`image/png` -> `png`), `bin` when unknown. */
function extension(mimeType: string | undefined): string {
  const subtype = mimeType?.split("/")[1]?.split(/[;+]/)[0];
  return subtype !== undefined && /^[a-z0-9.-]{1,16}$/i.test(subtype)
    ? subtype.replace("jpeg", "jpg")
    : "bin";
}

/** Where a session saves what it cannot print: a new directory under the system's temporary one. */
export class SavedFiles {
  #directory: string | undefined;
  #count = 0;

  /** Saves base64 `data` of `mimeType`, named after `stem`; resolves the file's path. */
  async save(stem: string, mimeType: string | undefined, data: string): Promise<string> {
    this.#directory ??= await mkdtemp(join(tmpdir(), "tsmcp-session-"));
    this.#count += 1;
    const safeStem = stem.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40) || "result";
    const path = join(this.#directory, `${this.#count}-${safeStem}.${extension(mimeType)}`);
    await writeFile(path, Buffer.from(data, "base64"), { mode: 0o600 });
    return path;
  }
}

/** One content block; an image or audio saved to a file and named. */
async function viewBlock(block: ContentBlock, stem: string, files: SavedFiles): Promise<string> {
  if (block.type === "image" || block.type === "audio") {
    const path = await files.save(stem, block.mimeType, block.data);
    return `[${block.type} saved to ${path} (${block.mimeType}, ${formatBytes(decodedSize(block.data))})]`;
  }
  return renderBlock(block);
}

/** A tool result: each block (media saved), then structured content as a table or JSON. */
export async function viewToolResult(
  result: CallToolResult,
  stem: string,
  files: SavedFiles,
): Promise<string> {
  const parts: string[] = [];
  for (const block of result.content) parts.push(await viewBlock(block, stem, files));
  if (result.structuredContent !== undefined) parts.push(renderStructured(result.structuredContent));
  return parts.join("\n");
}

/** A read resource: each text as it is, each blob saved to a file and named. */
export async function viewResource(result: ReadResourceResult, files: SavedFiles): Promise<string> {
  const parts: string[] = [];
  for (const contents of result.contents) {
    if ("text" in contents && typeof contents.text === "string") parts.push(contents.text);
    else if ("blob" in contents && typeof contents.blob === "string") {
      const path = await files.save(
        contents.uri.split("/").at(-1) ?? "resource",
        contents.mimeType,
        contents.blob,
      );
      parts.push(
        `[${contents.uri} saved to ${path} (${contents.mimeType ?? "unknown type"}, ${formatBytes(decodedSize(contents.blob))})]`,
      );
    }
  }
  return parts.join("\n");
}
