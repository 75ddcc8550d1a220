/**
 * Opaque cursors for the four paginated lists. A cursor names a position in registration order
 * (the sequence number of the next entry, and an offset inside it for entries that list several
 * items), so it stays valid while entries are added or removed. Spec: server/utilities/pagination.
 */
import { invalidParams, type McpError } from "../../protocol/errors.js";

/** Items per page when the server does not choose otherwise: 100. */
export const DEFAULT_PAGE_SIZE = 100;

/** Where a page starts: the first entry with `seq >= seq`, and the item `offset` inside it. */
export interface PagePosition {
  readonly seq: number;
  readonly offset: number;
}

/** The start of every list. */
export const FIRST_PAGE: PagePosition = Object.freeze({ seq: 0, offset: 0 });

/** Which list a cursor belongs to; a cursor from one list is invalid for another. */
export type ListName = "tools" | "prompts" | "resources" | "templates";

const CURSOR = /^(tools|prompts|resources|templates):(\d{1,15}):(\d{1,15})$/;

/** -32602 "Invalid cursor". */
export function invalidCursor(): McpError {
  return invalidParams("Invalid cursor");
}

/** The opaque cursor for `position` in `list`. */
export function encodeCursor(list: ListName, position: PagePosition): string {
  return Buffer.from(`${list}:${position.seq}:${position.offset}`, "utf8").toString("base64url");
}

/**
 * The position a request's cursor names ({@link FIRST_PAGE} when absent).
 *
 * @throws McpError -32602 "Invalid cursor" for a cursor this server did not issue for `list`.
 */
export function decodeCursor(list: ListName, cursor: string | undefined): PagePosition {
  if (cursor === undefined) return FIRST_PAGE;
  const decoded = Buffer.from(cursor, "base64url");
  if (decoded.toString("base64url") !== cursor) throw invalidCursor();
  const found = CURSOR.exec(decoded.toString("utf8"));
  if (found === null || found[1] !== list) throw invalidCursor();
  return { seq: Number(found[2]), offset: Number(found[3]) };
}

/** The index of the first entry whose `seq` is at least `seq` (entries sorted by `seq`). */
export function firstIndexFrom(entries: readonly { readonly seq: number }[], seq: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((entries[middle] as { seq: number }).seq < seq) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * One page of a list whose entries each contribute one item: up to `pageSize` entries from the
 * cursor's position, and the cursor of the next page when more remain.
 *
 * @throws McpError -32602 "Invalid cursor" as {@link decodeCursor}.
 */
export function pageOf<E extends { readonly seq: number }>(
  list: ListName,
  entries: readonly E[],
  cursor: string | undefined,
  pageSize: number,
): { readonly page: readonly E[]; readonly nextCursor?: string } {
  const start = firstIndexFrom(entries, decodeCursor(list, cursor).seq);
  const page = entries.slice(start, start + pageSize);
  const next = entries[start + pageSize];
  return next === undefined
    ? { page }
    : { page, nextCursor: encodeCursor(list, { seq: next.seq, offset: 0 }) };
}
