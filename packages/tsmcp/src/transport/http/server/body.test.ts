import { describe, expect, it } from "vitest";
import { BoundedBody, readBodyText } from "./body.js";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("BoundedBody", () => {
  it("refuses a declared Content-Length over the limit and ignores an absent or malformed one", () => {
    const body = new BoundedBody(10);
    expect(body.declaresTooMuch("11")).toBe(true);
    expect(body.declaresTooMuch(" 10 ")).toBe(false);
    expect(body.declaresTooMuch(null)).toBe(false);
    expect(body.declaresTooMuch(undefined)).toBe(false);
    expect(body.declaresTooMuch("1e9")).toBe(false);
  });

  it("keeps chunks up to the limit and refuses the one that crosses it", () => {
    const body = new BoundedBody(5);
    expect(body.push(bytes("abc"))).toBe(true);
    expect(body.push(bytes("de"))).toBe(true);
    expect(body.push(bytes("f"))).toBe(false);
  });

  it("decodes a character split across chunks, and reports undecodable bytes", () => {
    const euro = bytes("€");
    const body = new BoundedBody(100);
    body.push(euro.subarray(0, 1));
    body.push(euro.subarray(1));
    expect(body.text()).toEqual({ kind: "text", text: "€" });
    const broken = new BoundedBody(100);
    broken.push(new Uint8Array([0xff, 0xfe]));
    expect(broken.text()).toEqual({ kind: "invalid-utf8" });
    expect(new BoundedBody(1).text()).toEqual({ kind: "text", text: "" });
  });
});

describe("readBodyText", () => {
  it("reads a streamed body under the limit and refuses one that passes it", async () => {
    const post = (body: string) => new Request("http://127.0.0.1/mcp", { method: "POST", body });
    expect(await readBodyText(post("hello"), 5)).toEqual({ kind: "text", text: "hello" });
    expect(await readBodyText(post("hello!"), 5)).toEqual({ kind: "too-large" });
    expect(await readBodyText(new Request("http://127.0.0.1/mcp"), 5)).toEqual({ kind: "text", text: "" });
  });
});
