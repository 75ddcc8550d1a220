import { describe, expect, it } from "vitest";
import { truncate } from "./text.js";

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
