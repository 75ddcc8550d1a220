import { describe, expect, it } from "vitest";
import { formatBytes, renderBlock, renderToolResult, uiMark } from "./render.js";

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

describe("the mark of a tool with an MCP Apps UI", () => {
  const inputSchema = { type: "object" as const, properties: { by: { type: "number" } }, required: ["by"] };

  it("names the ui:// resource, says when the model may not see the tool, and flags a bad link", () => {
    expect(uiMark({ name: "a", inputSchema, _meta: { ui: { resourceUri: "ui://c/view" } } })).toBe(
      "[ui ui://c/view]",
    );
    expect(uiMark({ name: "b", inputSchema, _meta: { "ui/resourceUri": "ui://c/old" } })).toBe(
      "[ui ui://c/old]",
    );
    expect(
      uiMark({ name: "c", inputSchema, _meta: { ui: { resourceUri: "ui://c/v", visibility: ["app"] } } }),
    ).toBe("[ui ui://c/v, app only]");
    expect(uiMark({ name: "d", inputSchema, _meta: { ui: { resourceUri: "https://x" } } })).toBe(
      '[ui: invalid link "https://x"]',
    );
    expect(uiMark({ name: "e", inputSchema })).toBeUndefined();
  });
});
