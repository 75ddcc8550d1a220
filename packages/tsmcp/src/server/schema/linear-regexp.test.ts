/**
 * Patterns in raw JSON Schemas run on a linear-time engine: a catastrophic-backtracking pattern
 * costs no more than its input's length, a pattern that engine cannot express is refused when the
 * schema is registered, and every other pattern behaves as an ECMA-262 regular expression.
 */
import { RE2JS } from "re2js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MCPServer } from "../index.js";
import { elicit } from "../resolve/elicit.js";
import { compileSchema, type ValidationResult } from "./compile.js";
import type { JsonValidator } from "./issues.js";
import { compileJsonSchema as compileOnceLoaded } from "./json-schema.js";
import { preloadJsonSchemaEngines } from "./json-schema-loader.js";

// With the engines loaded, a raw schema compiles (and is refused) synchronously, as these tests expect.
await preloadJsonSchemaEngines();
const compileJsonSchema = (...args: Parameters<typeof compileOnceLoaded>): JsonValidator =>
  compileOnceLoaded(...args) as JsonValidator;

const nested = { type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } } };

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a raw JSON Schema pattern", () => {
  it("is evaluated by the linear-time engine, so ^(a+)+$ refuses 5,000 characters at once", () => {
    const engine = vi.spyOn(RE2JS.prototype, "test");
    const tool = compileSchema(nested, "input", 'tool "redos" inputSchema');
    const check = (value: unknown) => tool.validate(value) as ValidationResult<unknown>;
    // 20 characters stay cheap even for a backtracking engine, so this fails rather than hangs there.
    const short = check({ word: `${"a".repeat(20)}!` });
    expect(engine).toHaveBeenCalledTimes(1);
    expect(short).toEqual({
      ok: false,
      issues: [{ path: "word", message: 'must match pattern "^(a+)+$"' }],
    });
    // Every check goes to the linear-time engine, whose cost is linear by construction.
    expect(check({ word: `${"a".repeat(40)}!` }).ok).toBe(false);
    expect(check({ word: `${"a".repeat(5000)}!` }).ok).toBe(false);
    expect(check({ word: "a".repeat(5000) }).ok).toBe(true);
    expect(engine).toHaveBeenCalledTimes(4);
  });

  it("in patternProperties and propertyNames goes through the same engine, each pattern its own", () => {
    const engine = vi.spyOn(RE2JS.prototype, "test");
    const validate = compileJsonSchema(
      {
        type: "object",
        patternProperties: { "^x-": { type: "string", pattern: "^[0-9]+$" } },
        propertyNames: { pattern: "^(x-)?[a-z]+$" },
      },
      "probe",
    );
    expect(validate({ "x-id": "42", name: 1 })).toBeUndefined();
    expect(validate({ "x-id": "forty-two" })).toEqual([
      { path: "x-id", message: 'must match pattern "^[0-9]+$"' },
    ]);
    expect(validate({ Name: 1 })?.[0]?.message).toBe('must match pattern "^(x-)?[a-z]+$"');
    expect(engine).toHaveBeenCalled();
  });

  it("keeps ECMA-262 meaning for anchors, classes, \\u escapes, named groups, Unicode and '/'", () => {
    const validate = compileJsonSchema(
      {
        type: "array",
        prefixItems: [
          { pattern: "^\\u00e9t\\u00e9$" },
          { pattern: "(?<year>\\d{4})-\\d{2}" },
          { pattern: "^\\p{L}+$" },
          { pattern: "^a/b$" },
          { pattern: "^.$" },
          { pattern: "" },
        ],
      },
      "probe",
    );
    expect(validate(["été", "on 2026-07", "Ωmega", "a/b", "😀", "anything"])).toBeUndefined();
    expect(validate(["ete"])).toHaveLength(1);
    expect(validate(["été", "2026/07"])).toHaveLength(1);
    expect(validate(["été", "2026-07", "x1"])).toHaveLength(1);
    expect(validate(["été", "2026-07", "x", "a/b", "ab"])).toHaveLength(1);
  });

  it("that is not a valid ECMA-262 regular expression is still refused, as before", () => {
    expect(() => compileJsonSchema({ type: "string", pattern: "(" }, "probe")).toThrow(
      /^probe is not a usable JSON Schema: Invalid regular expression/,
    );
    expect(() => compileJsonSchema({ type: "string", pattern: "(?i)abc" }, "probe")).toThrow(TypeError);
  });
});

describe("a pattern the linear-time engine cannot express", () => {
  it.each([
    ["a backreference", "^(a)\\1$"],
    ["a lookahead", "^(?=a)\\w+$"],
    ["a negative lookahead", "^(?!a)\\w+$"],
    ["a lookbehind", "(?<=a)b"],
  ])("is refused when the tool is registered: %s", (_, pattern) => {
    const server = new MCPServer("redos");
    const register = () =>
      server.tool(
        "match",
        { inputSchema: { type: "object", properties: { s: { type: "string", pattern } } } },
        () => "",
      );
    expect(register).toThrow(TypeError);
    expect(register).toThrow(
      `tool "match" inputSchema is not a usable JSON Schema: the pattern ${JSON.stringify(pattern)} ` +
        "cannot be evaluated in linear time (backreferences and lookaround are not supported)",
    );
  });

  it("is refused in patternProperties and propertyNames too", () => {
    expect(() => compileJsonSchema({ type: "object", patternProperties: { "(x)\\1": {} } }, "probe")).toThrow(
      'the pattern "(x)\\\\1" cannot be evaluated in linear time',
    );
    expect(() =>
      compileJsonSchema({ type: "object", propertyNames: { pattern: "^(?=x)" } }, "probe"),
    ).toThrow('the pattern "^(?=x)" cannot be evaluated in linear time');
  });

  it("is refused when an elicitation form schema is built, though a format keeps it off the wire", () => {
    const form = {
      type: "object",
      properties: { email: { type: "string", format: "email", pattern: "^(\\w)\\1@" } },
    };
    expect(() => elicit("Your email?", form)).toThrow(
      'elicit: schema is not a usable JSON Schema: the pattern "^(\\\\w)\\\\1@" cannot be evaluated',
    );
  });
});
