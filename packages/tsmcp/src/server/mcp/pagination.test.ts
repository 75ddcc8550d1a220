import { describe, expect, it } from "vitest";
import { McpError } from "../../protocol/errors.js";
import { decodeCursor, encodeCursor, FIRST_PAGE, pageOf } from "./pagination.js";

const entries = [1, 2, 4, 7, 9].map((seq) => ({ seq, name: `e${seq}` }));

describe("cursors", () => {
  it("decode to the position they encode, and an absent cursor to the first page", () => {
    const cursor = encodeCursor("tools", { seq: 42, offset: 3 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor("tools", cursor)).toEqual({ seq: 42, offset: 3 });
    expect(decodeCursor("tools", undefined)).toBe(FIRST_PAGE);
  });

  it.each([
    ["", "an empty string"],
    ["not a cursor", "junk"],
    [Buffer.from("tools:1").toString("base64url"), "a truncated position"],
    [`${encodeCursor("tools", { seq: 1, offset: 0 })}=`, "a padded spelling"],
    [encodeCursor("prompts", { seq: 1, offset: 0 }), "another list's cursor"],
  ])("are -32602 Invalid cursor for %j (%s)", (cursor) => {
    let caught: unknown;
    try {
      decodeCursor("tools", cursor);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(McpError);
    expect((caught as McpError).toObject()).toEqual({ code: -32602, message: "Invalid cursor" });
  });
});

describe("pageOf", () => {
  it("walks the entries in order, page by page, until no cursor is left", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { page, nextCursor } = pageOf("tools", entries, cursor, 2);
      seen.push(...page.map((entry) => entry.name));
      cursor = nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(seen).toEqual(["e1", "e2", "e4", "e7", "e9"]);
    expect(pages).toBe(3);
  });

  it("resumes after entries removed between pages, without skipping or repeating", () => {
    const first = pageOf("tools", entries, undefined, 2);
    const afterRemoval = entries.filter((entry) => entry.seq !== 4);
    const second = pageOf("tools", afterRemoval, first.nextCursor, 2);
    expect(second.page.map((entry) => entry.name)).toEqual(["e7", "e9"]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("gives no next cursor when the last page is exactly full", () => {
    expect(pageOf("tools", entries, undefined, 5).nextCursor).toBeUndefined();
  });
});
