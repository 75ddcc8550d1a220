import { describe, expect, it } from "vitest";
import { formatBytes, renderBlock, renderToolResult } from "./render.js";

describe("human output", () => {
  it("notes images and audio by type and decoded size, resources and links by URI", () => {
    const png = Buffer.alloc(1500).toString("base64");
    expect(renderBlock({ type: "image", mimeType: "image/png", data: png })).toBe(
      "[image: image/png, 1.5 kB]",
    );
    expect(renderBlock({ type: "audio", mimeType: "audio/wav", data: "AAE=" })).toBe(
      "[audio: audio/wav, 2 B]",
    );
    expect(renderBlock({ type: "resource_link", uri: "notes://1", name: "one" })).toBe(
      "[resource link: notes://1 (one)]",
    );
    expect(renderBlock({ type: "resource", resource: { uri: "notes://1", text: "hello" } })).toBe(
      "[resource notes://1]\nhello",
    );
    expect(
      renderBlock({ type: "resource", resource: { uri: "notes://2", mimeType: "image/gif", blob: "AAAA" } }),
    ).toBe("[resource notes://2]\n[blob notes://2: image/gif, 3 B]");
    expect(formatBytes(4_000_000)).toBe("4.0 MB");
  });

  it("prints structuredContent as pretty JSON after the blocks", () => {
    const text = renderToolResult({ content: [{ type: "text", text: "done" }], structuredContent: { n: 1 } });
    expect(text).toBe('done\n{\n  "n": 1\n}');
  });
});
