import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "../../protocol/jsonrpc.js";
import { DEFAULT_MAX_LINE_BYTES, LineDecoder, LineTooLongError, serializeMessage } from "./framing.js";

function decodeAll(decoder: LineDecoder, chunks: (Buffer | string)[]): string[] {
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

const note = (text: string): JSONRPCMessage => ({ jsonrpc: "2.0", method: "note", params: { text } });

describe("LineDecoder", () => {
  it("pins the default line limit at 16 MiB", () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    expect(new LineDecoder().maxLineBytes).toBe(DEFAULT_MAX_LINE_BYTES);
  });

  it("returns every line of a chunk that holds many messages", () => {
    const decoder = new LineDecoder();
    expect(decoder.push('{"a":1}\n{"b":2}\n{"c":3}\n')).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("joins a line that arrives in several chunks", () => {
    const decoder = new LineDecoder();
    expect(decoder.push('{"a":')).toEqual([]);
    expect(decoder.push("1")).toEqual([]);
    expect(decoder.push('}\n{"b"')).toEqual(['{"a":1}']);
    expect(decoder.push(":2}\n")).toEqual(['{"b":2}']);
  });

  it("reassembles a multi-byte UTF-8 character split across chunks at every byte", () => {
    const line = '{"t":"é€😀"}';
    const bytes = Buffer.from(`${line}\n`, "utf8");
    for (let cut = 1; cut < bytes.length; cut++) {
      for (let cut2 = cut; cut2 < bytes.length; cut2++) {
        const decoder = new LineDecoder();
        const chunks = [bytes.subarray(0, cut), bytes.subarray(cut, cut2), bytes.subarray(cut2)];
        expect(decodeAll(decoder, chunks)).toEqual([line]);
      }
    }
  });

  it("tolerates \\r\\n line endings, even when the \\r and \\n arrive in different chunks", () => {
    const decoder = new LineDecoder();
    expect(decoder.push('{"a":1}\r\n{"b":2}\r')).toEqual(['{"a":1}']);
    expect(decoder.push('\n{"c":3}\r\n')).toEqual(['{"b":2}', '{"c":3}']);
  });

  it("skips empty and blank lines", () => {
    const decoder = new LineDecoder();
    expect(decoder.push('\n\r\n  \t\n{"a":1}\n\n')).toEqual(['{"a":1}']);
  });

  it("does not split on U+2028, U+2029, U+0085 or other Unicode line breaks", () => {
    const text = "before\u2028middle\u2029after\u0085end\u000bvt\u000cff";
    const line = serializeMessage(note(text));
    expect(line).toContain("\u2028");
    expect(line).toContain("\u2029");
    const decoder = new LineDecoder();
    const lines = decodeAll(decoder, [line]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string).params.text).toBe(text);
  });

  it("accepts Buffer, Uint8Array and string chunks alike", () => {
    const decoder = new LineDecoder();
    const bytes = new TextEncoder().encode('{"u":1}\n');
    expect(decoder.push(bytes)).toEqual(['{"u":1}']);
    expect(decoder.push(Buffer.from('{"b":1}\n'))).toEqual(['{"b":1}']);
  });

  it("returns an unterminated last line from end() and then starts afresh", () => {
    const decoder = new LineDecoder();
    expect(decoder.push('{"a":1}\n{"b":')).toEqual(['{"a":1}']);
    expect(decoder.end()).toEqual(['{"b":']);
    expect(decoder.end()).toEqual([]);
    expect(decoder.push('{"c":3}\n')).toEqual(['{"c":3}']);
  });

  it("accepts a line of exactly maxLineBytes", () => {
    const decoder = new LineDecoder({ maxLineBytes: 10 });
    expect(decoder.push("0123456789\n")).toEqual(["0123456789"]);
  });

  it("discards an over-long line, reports it once, and keeps decoding after it", () => {
    const errors: LineTooLongError[] = [];
    const decoder = new LineDecoder({ maxLineBytes: 10, onError: (error) => errors.push(error) });
    const lines = decodeAll(decoder, ['{"ok":1}\n012345', "6789AB", "CDEFGHIJ", 'KL\n{"ok":2}\n']);
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(LineTooLongError);
    expect(errors[0]?.maxLineBytes).toBe(10);
  });

  it("counts the limit in bytes, not characters", () => {
    const errors: Error[] = [];
    const decoder = new LineDecoder({ maxLineBytes: 8, onError: (error) => errors.push(error) });
    expect(decoder.push("€€€\n")).toEqual([]); // 9 bytes, 3 characters
    expect(errors).toHaveLength(1);
  });

  it("refuses a bad limit or callback at construction", () => {
    expect(() => new LineDecoder({ maxLineBytes: 0 })).toThrow(RangeError);
    expect(() => new LineDecoder({ maxLineBytes: 1.5 })).toThrow(RangeError);
    expect(() => new LineDecoder({ onError: "no" as never })).toThrow(TypeError);
  });

  it("decodes any sequence of messages chunked at arbitrary byte boundaries to the same messages", () => {
    const text = fc.string({ unit: "binary", maxLength: 40 });
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(
        text,
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
      ),
      node: fc.oneof(
        { depthSize: "small" },
        tie("leaf"),
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(text, tie("node"), { maxKeys: 4 }),
      ),
    })).node;
    const message = fc.record({
      jsonrpc: fc.constant("2.0" as const),
      method: fc.oneof(
        text.filter((s) => s.length > 0),
        fc.constant("a\u2028b\u2029c\nd\re"),
      ),
      params: fc.dictionary(text, value, { maxKeys: 4 }),
    });
    const run = fc.tuple(
      fc.array(message, { minLength: 0, maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 30 }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(run, ([messages, cuts, crlf]) => {
        const wire = Buffer.from(
          messages
            .map((m) => (crlf ? serializeMessage(m).replace(/\n$/, "\r\n") : serializeMessage(m)))
            .join(""),
          "utf8",
        );
        const offsets = [
          ...new Set(cuts.map((cut) => (wire.length === 0 ? 0 : cut % (wire.length + 1)))),
        ].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let start = 0;
        for (const offset of [...offsets, wire.length]) {
          chunks.push(wire.subarray(start, offset));
          start = offset;
        }
        const decoder = new LineDecoder();
        const decoded = decodeAll(decoder, chunks).map((line) => JSON.parse(line) as unknown);
        expect(decoded).toEqual(messages.map((m) => JSON.parse(JSON.stringify(m)) as unknown));
      }),
      { numRuns: 300 },
    );
  });
});

describe("serializeMessage", () => {
  it("writes one line: the JSON and exactly one trailing newline, even when strings hold newlines", () => {
    const line = serializeMessage(note("one\ntwo\r\nthree"));
    expect(line.endsWith("\n")).toBe(true);
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(line).not.toContain("\r");
    expect(JSON.parse(line)).toEqual(note("one\ntwo\r\nthree"));
  });

  it("leaves U+2028 and U+2029 raw in the line (they are valid JSON, not line breaks)", () => {
    const line = serializeMessage(note("\u2028\u2029"));
    expect(line).toBe('{"jsonrpc":"2.0","method":"note","params":{"text":"\u2028\u2029"}}\n');
  });

  it("throws TypeError for a value JSON cannot carry", () => {
    expect(() => serializeMessage({ jsonrpc: "2.0", method: "x", params: { n: 1n } })).toThrow(TypeError);
  });
});
