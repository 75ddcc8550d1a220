import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "../../protocol/jsonrpc.js";
import { MessageWriter } from "./writer.js";

/** A Writable that records each chunk and holds each write's callback until released. */
class HeldWritable extends Writable {
  readonly chunks: string[] = [];
  readonly #held: (() => void)[] = [];

  constructor() {
    super({ highWaterMark: 1, decodeStrings: false });
  }

  override _write(
    chunk: string | Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ) {
    this.chunks.push(String(chunk));
    this.#held.push(() => callback());
  }

  releaseAll(): void {
    for (const release of this.#held.splice(0)) release();
  }
}

const note = (n: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "note", params: { n } });

describe("MessageWriter", () => {
  it("writes each message as one whole line, in order", () => {
    const chunks: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        callback();
      },
    });
    const writer = new MessageWriter(stream);
    for (let n = 0; n < 5; n++) expect(writer.write(note(n))).toBe(true);
    expect(chunks.map((chunk) => JSON.parse(chunk).params.n)).toEqual([0, 1, 2, 3, 4]);
    expect(chunks.every((chunk) => chunk.endsWith("\n") && chunk.indexOf("\n") === chunk.length - 1)).toBe(
      true,
    );
  });

  it("stops writing when the stream asks to wait and resumes, in order, on drain", async () => {
    const stream = new HeldWritable();
    let drains = 0;
    const writer = new MessageWriter(stream, { onDrain: () => drains++ });
    writer.write(note(1));
    expect(writer.congested).toBe(true);
    writer.write(note(2));
    writer.write(note(3));
    expect(stream.chunks).toHaveLength(1);
    const idle = writer.idle();
    let idled = false;
    void idle.then(() => {
      idled = true;
    });
    while (writer.congested) {
      expect(idled).toBe(false);
      stream.releaseAll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await idle;
    expect(stream.chunks.map((chunk) => JSON.parse(chunk).params.n)).toEqual([1, 2, 3]);
    expect(drains).toBeGreaterThanOrEqual(1);
  });

  it("reports a stream error once, stops writing, and keeps the process alive", () => {
    const stream = new Writable({ write: (_chunk, _encoding, callback) => callback() });
    const errors: Error[] = [];
    const writer = new MessageWriter(stream, { onError: (error) => errors.push(error) });
    const broken = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
    stream.emit("error", broken);
    stream.emit("error", broken);
    expect(errors).toEqual([broken]);
    expect(writer.writable).toBe(false);
    expect(writer.write(note(1))).toBe(false);
  });

  it("removes its listeners from the stream on detach", () => {
    const stream = new HeldWritable();
    const before = stream.listenerCount("error");
    const writer = new MessageWriter(stream);
    writer.write(note(1));
    expect(stream.listenerCount("error")).toBe(before + 1);
    expect(stream.listenerCount("drain")).toBe(1);
    writer.detach();
    expect(stream.listenerCount("error")).toBe(before);
    expect(stream.listenerCount("drain")).toBe(0);
    expect(writer.write(note(2))).toBe(false);
  });

  it("refuses something that is not a stream", () => {
    expect(() => new MessageWriter({} as never)).toThrow(TypeError);
  });
});
