import { describe, expect, it } from "vitest";
import { expandTemplate } from "./interactive.js";
import { renderStructured } from "./result-view.js";

describe("structured content in the interactive mode", () => {
  it("is a field/value table for a flat object, one row per item for a list of flat objects", () => {
    expect(renderStructured({ sum: 5, ok: true })).toBe("field  value\n-----  -----\nsum    5\nok     true");
    expect(renderStructured({ rows: [{ city: "Paris", temp: 21 }, { city: "Oslo" }] })).toBe(
      "city   temp\n-----  ----\nParis  21\nOslo",
    );
  });

  it("is pretty JSON for anything nested", () => {
    expect(renderStructured({ a: { b: 1 } })).toBe('{\n  "a": {\n    "b": 1\n  }\n}');
  });
});

describe("expandTemplate", () => {
  it("expands simple, reserved, path and query expressions, encoding what each needs", () => {
    expect(expandTemplate("notes://{id}", { id: "a b/c" })).toBe("notes://a%20b%2Fc");
    expect(expandTemplate("file://{+path}", { path: "/tmp/a b" })).toBe("file:///tmp/a%20b");
    expect(expandTemplate("x://h{/a,b}{?q,r}", { a: "1", b: "2", q: "é" })).toBe("x://h/1/2?q=%C3%A9");
  });
});
