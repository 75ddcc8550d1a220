import { describe, expect, it } from "vitest";
import { exceedsBytes, truncate } from "./text.js";

describe("truncate", () => {
  it("keeps text that fits and cuts longer text with an ellipsis", () => {
    expect(truncate("abc", 3)).toBe("abc");
    expect(truncate("abcd", 3)).toBe("abc…");
    expect(truncate("", 0)).toBe("");
  });

  it("never splits a surrogate pair", () => {
    expect(truncate("ab😀cd", 3)).toBe("ab…");
    expect(truncate("ab😀cd", 4)).toBe("ab😀…");
  });
});

describe("exceedsBytes", () => {
  it("counts UTF-8 bytes, not UTF-16 code units", () => {
    expect(exceedsBytes("abcd", 4)).toBe(false);
    expect(exceedsBytes("abcde", 4)).toBe(true);
    expect(exceedsBytes("éé", 4)).toBe(false);
    expect(exceedsBytes("ééé", 5)).toBe(true);
    expect(exceedsBytes("😀", 3)).toBe(true);
    expect(exceedsBytes("😀", 4)).toBe(false);
  });
});
