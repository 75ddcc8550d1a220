import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { forwardLines, MAX_HELD_LINE_CHARS } from "./server-stderr.js";

/** Feeds `chunks` to {@link forwardLines} (`origins[i]` naming chunk i's writer) and resolves the lines. */
async function linesOf(
  chunks: readonly (string | Buffer)[],
  origins: readonly number[] = [],
): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  let at = 0;
  const done = forwardLines(
    stream,
    (line) => lines.push(line),
    () => origins[at],
  );
  for (const chunk of chunks) {
    stream.write(chunk);
    // Each chunk is read before the next is written, so the origin is the chunk's own.
    await new Promise((resolve) => setImmediate(resolve));
    at++;
  }
  stream.end();
  await done;
  return lines;
}

describe("forwardLines", () => {
  it("passes on whole lines, however the text is cut into chunks", async () => {
    expect(await linesOf(["a", "b\nc\n", "\nd"])).toEqual(["ab", "c", "", "d"]);
  });

  it("passes on a last line without a line feed when the stream ends", async () => {
    expect(await linesOf(["last words"])).toEqual(["last words"]);
  });

  it("reads a CRLF as a line end and keeps a carriage return elsewhere", async () => {
    expect(await linesOf(["one\r", "\ntwo\rthree\r\n"])).toEqual(["one", "two\rthree"]);
  });

  it("decodes a UTF-8 character cut across two chunks", async () => {
    const bytes = Buffer.from("x \u202e y\n");
    expect(await linesOf([bytes.subarray(0, 3), bytes.subarray(3)])).toEqual(["x \u202e y"]);
  });

  it("never joins a line of one writer to the next writer's text", async () => {
    expect(await linesOf(["first a", "nd more\nheld", "second\n"], [1, 1, 2])).toEqual([
      "first and more",
      "held",
      "second",
    ]);
  });

  it("passes on a line longer than it holds in parts, so memory stays bounded", async () => {
    const long = "x".repeat(MAX_HELD_LINE_CHARS + 1);
    const lines = await linesOf([long, "y\n"]);
    expect(lines).toEqual([long, "y"]);
  });
});
