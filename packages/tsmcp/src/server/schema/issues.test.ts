import { describe, expect, it } from "vitest";
import { describeIssueFields, describeIssues } from "./issues.js";

describe("describeIssues and describeIssueFields keep wire messages small", () => {
  const issues = Array.from({ length: 7 }, (_, i) => ({ path: `items.${i}`, message: "expected a string" }));

  it("name the first five issues or fields and count the rest", () => {
    expect(describeIssues(issues)).toBe(
      "items.0: expected a string; items.1: expected a string; items.2: expected a string; " +
        "items.3: expected a string; items.4: expected a string; and 2 more",
    );
    expect(describeIssueFields([...issues, { path: "", message: "bad" }, issues[0]!])).toBe(
      "items.0, items.1, items.2, items.3, items.4, and 3 more",
    );
    expect(describeIssues(issues.slice(0, 5))).not.toContain("more");
  });

  it("cut a path to 100 and a message to 200 characters, never splitting a surrogate pair", () => {
    const emoji = "\u{1F600}";
    const described = describeIssues([{ path: `${"p".repeat(99)}${emoji}`, message: "m".repeat(500) }]);
    expect(described).toBe(`${"p".repeat(99)}…: ${"m".repeat(200)}…`);
    expect(describeIssueFields([{ path: `${"p".repeat(98)}${emoji}x`, message: "" }])).toBe(
      `${"p".repeat(98)}${emoji}…`,
    );
  });
});
