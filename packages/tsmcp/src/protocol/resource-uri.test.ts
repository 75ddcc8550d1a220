import { describe, expect, it } from "vitest";
import { resourceCovers } from "./resource-uri.js";

describe("resourceCovers", () => {
  it("covers the watched URI and the resources under it, not a sibling that shares its prefix", () => {
    expect(resourceCovers("notes://a", "notes://a")).toBe(true);
    expect(resourceCovers("notes://a", "notes://a/b")).toBe(true);
    expect(resourceCovers("notes://a/", "notes://a/b")).toBe(true);
    expect(resourceCovers("notes://a", "notes://ab")).toBe(false);
    expect(resourceCovers("notes://a/b", "notes://a")).toBe(false);
  });
});
