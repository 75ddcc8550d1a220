import { describe, expect, it } from "vitest";
import { GRACE_MS, Liveness } from "./liveness.js";

function screen(isTTY: boolean) {
  const written: string[] = [];
  let nowMs = 0;
  const spinner = new Liveness(
    {
      isTTY,
      write: (text) => {
        written.push(text);
        return true;
      },
    },
    () => nowMs,
  );
  return { spinner, written, advance: (ms: number) => (nowMs += ms) };
}

const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "deploy" } } as const;

describe("the spinner", () => {
  it("draws after the grace with the seconds waited, and clears its line when the answer comes", () => {
    const { spinner, written, advance } = screen(true);
    spinner.configure({ quiet: false });
    spinner.observe(call, "sent");
    spinner.tick();
    expect(written).toEqual([]);
    advance(GRACE_MS + 2_000);
    spinner.tick();
    expect(written.at(-1)?.startsWith("\r\x1b[2K")).toBe(true);
    expect(written.at(-1)?.endsWith(" tools/call deploy · 2s")).toBe(true);
    spinner.observe({ jsonrpc: "2.0", id: 1, result: { content: [] } }, "received");
    expect(written.at(-1)).toBe("\r\x1b[2K");
  });

  it("holds while something else is on screen, and never draws with --quiet or off a terminal", () => {
    const { spinner, written, advance } = screen(true);
    spinner.configure({ quiet: false });
    spinner.observe(call, "sent");
    advance(GRACE_MS);
    spinner.hold();
    spinner.tick();
    expect(written).toEqual([]);
    spinner.release();
    spinner.tick();
    expect(written).toHaveLength(1);
    for (const [isTTY, quiet] of [
      [true, true],
      [false, false],
    ] as const) {
      const other = screen(isTTY);
      other.spinner.configure({ quiet });
      other.spinner.observe(call, "sent");
      other.advance(GRACE_MS * 10);
      other.spinner.tick();
      expect(other.written).toEqual([]);
    }
  });

  it("counts the rounds of one call and the questions each answered", () => {
    const { spinner, written, advance } = screen(true);
    spinner.configure({ quiet: false });
    const leg = (id: number, inputResponses: object) =>
      ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "deploy", inputResponses } }) as const;
    spinner.observe(leg(2, { a: {}, b: {} }), "sent");
    advance(GRACE_MS);
    spinner.tick();
    expect(written.at(-1)).toContain("tools/call deploy · round 1 answered (2 questions) · 0s");
    spinner.observe({ jsonrpc: "2.0", id: 2, result: {} }, "received");
    spinner.observe(leg(3, { c: {} }), "sent");
    advance(GRACE_MS);
    spinner.tick();
    expect(written.at(-1)).toContain("round 2 answered (1 question)");
  });
});
