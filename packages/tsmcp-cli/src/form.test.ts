import { describe, expect, it } from "vitest";
import { checkText } from "./form.js";

describe("checkText: typed values are checked before they are sent", () => {
  it("checks numbers and integers against minimum and maximum", () => {
    const seats = { type: "integer", minimum: 1, maximum: 10 } as const;
    expect(checkText(seats, "abc", true)).toBe("enter a number");
    expect(checkText(seats, "2.5", true)).toBe("enter a whole number");
    expect(checkText(seats, "0", true)).toBe("at least 1");
    expect(checkText(seats, "11", true)).toBe("at most 10");
    expect(checkText(seats, "3", true)).toBeUndefined();
  });

  it("checks string lengths and formats, and requires what is required", () => {
    expect(checkText({ type: "string", minLength: 2 }, "a", true)).toBe("at least 2 characters");
    expect(checkText({ type: "string", maxLength: 2 }, "abc", true)).toBe("at most 2 characters");
    expect(checkText({ type: "string", format: "email" }, "ada", true)).toBe("enter an email address");
    expect(checkText({ type: "string", format: "uri" }, "no uri", true)).toMatch(/URI/);
    expect(checkText({ type: "string", format: "date" }, "2026-13-45", true)).toMatch(/date/);
    expect(checkText({ type: "string", format: "date-time" }, "2026-07-28T10:00:00Z", true)).toBeUndefined();
    expect(checkText({ type: "string" }, "", true)).toBe("a value is required");
    expect(checkText({ type: "string" }, "", false)).toBeUndefined();
  });
});
