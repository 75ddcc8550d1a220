/**
 * The interpreted validator (no code generation) answers as the compiled one (ajv) does: the same
 * valid/invalid on the conformance suite's schemas and on this package's schema tests, the same
 * field and wording for the first problem, the same refusals at registration, the same wire answers.
 */
import { RE2JS } from "re2js";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ASK_CONFIRM,
  ASK_WITH_DEFAULTS,
  ASK_WITH_ENUMS,
  askUserInfo,
  JSON_SCHEMA_2020_12_INPUT,
} from "../../../../../test/conformance/fixtures.js";
import { overHttp, recordingLogger } from "../mcp/mcp-test-fixtures.js";
import { MCPServer } from "../mcp/server.js";
import type { JsonValidator } from "./issues.js";
import { compileJsonSchema as compileOnceLoaded } from "./json-schema.js";
import { preloadJsonSchemaEngines } from "./json-schema-loader.js";

// With the engines loaded, a raw schema compiles (and is refused) synchronously, as these tests expect.
await preloadJsonSchemaEngines();
const compileJsonSchema = (...args: Parameters<typeof compileOnceLoaded>): JsonValidator =>
  compileOnceLoaded(...args) as JsonValidator;

import { DEFAULT_JSON_SCHEMA_VALIDATOR } from "./validator-choice.js";

afterEach(() => {
  vi.restoreAllMocks();
});

type Case = readonly [name: string, schema: Record<string, unknown>, values: readonly unknown[]];

function formSchema(request: { params?: unknown }): Record<string, unknown> {
  return (request.params as { requestedSchema: Record<string, unknown> }).requestedSchema;
}

const CASES: readonly Case[] = [
  [
    "conformance json-schema-2020-12 input",
    JSON_SCHEMA_2020_12_INPUT as Record<string, unknown>,
    [
      { name: "a", contactMethod: "phone", phone: "1" },
      { name: "a", contactMethod: "email", email: "e" },
      { contactMethod: "phone", email: "e" },
      { email: "e", address: { street: "s", city: "c" } },
      { email: "e", address: { street: 1 } },
      { email: "e", extra: true },
      { contactMethod: "fax", email: "e" },
      {},
      [],
      "text",
    ],
  ],
  ["conformance confirm form", formSchema(ASK_CONFIRM), [{ ok: true }, { ok: "yes" }, {}]],
  [
    "conformance defaults form",
    formSchema(ASK_WITH_DEFAULTS),
    [
      {},
      { name: "n", age: 3, score: 1.5, status: "pending", verified: false },
      { age: 1.5 },
      { status: "x" },
    ],
  ],
  [
    "conformance enums form",
    formSchema(ASK_WITH_ENUMS),
    [
      {
        untitledSingle: "option1",
        titledSingle: "value2",
        untitledMulti: ["option3"],
        titledMulti: ["value1"],
      },
      { titledSingle: "value9" },
      { untitledMulti: ["nope"] },
      { titledMulti: ["value1", "nope"] },
      { legacyEnum: "opt4" },
    ],
  ],
  [
    "conformance user-info form",
    formSchema(askUserInfo("who?")),
    [{ username: "u", email: "e" }, { username: "u" }, { username: 1, email: "e" }],
  ],
  [
    "nested object, closed",
    {
      type: "object",
      properties: {
        name: { type: "string" },
        size: { type: "object", properties: { gb: { type: "integer" } } },
      },
      required: ["name"],
      additionalProperties: false,
    },
    [
      { name: "db" },
      {},
      { name: "db", size: { gb: "x" } },
      { name: "db", extra: 1 },
      { name: "db", size: { gb: 2 } },
    ],
  ],
  [
    "bounds and counts",
    {
      type: "object",
      properties: {
        n: { type: "number", minimum: 1, maximum: 10, multipleOf: 0.5 },
        x: { type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 5 },
        s: { type: "string", minLength: 2, maxLength: 3 },
        a: { type: "array", minItems: 1, maxItems: 2, uniqueItems: true },
        o: { type: "object", minProperties: 1, maxProperties: 1 },
        c: { const: "fixed" },
        t: { type: ["string", "null"] },
        no: { not: { type: "string" } },
      },
    },
    [
      { n: 2.5, x: 4, s: "ab", a: [1], o: { k: 1 }, c: "fixed", t: null, no: 1 },
      { n: 0 },
      { n: 11 },
      { n: 1.25 },
      { x: 0 },
      { x: 5 },
      { s: "a" },
      { s: "abcd" },
      { a: [] },
      { a: [1, 2, 3] },
      { a: [1, 1] },
      { o: {} },
      { o: { a: 1, b: 2 } },
      { c: "other" },
      { t: 1 },
      { no: "s" },
    ],
  ],
  [
    "patterns everywhere",
    {
      type: "object",
      properties: {
        word: { type: "string", pattern: "^(a+)+$" },
        date: { pattern: "(?<year>\\d{4})-\\d{2}" },
      },
      patternProperties: { "^x-": { type: "string", pattern: "^[0-9]+$" } },
      propertyNames: { pattern: "^(x-)?[a-z]+$" },
    },
    [
      { word: "aaa", date: "on 2026-07", "x-id": "42" },
      { word: "aab" },
      { date: "2026/07" },
      { "x-id": "forty-two" },
      { Name: 1 },
      { word: 5 },
    ],
  ],
  [
    "ECMA-262 pattern meaning",
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
    [
      ["été", "on 2026-07", "Ωmega", "a/b", "😀", "anything"],
      ["ete"],
      ["été", "2026/07"],
      ["été", "2026-07", "x1"],
      ["été", "2026-07", "x", "a/b", "ab"],
    ],
  ],
  [
    "format is an annotation only",
    {
      type: "object",
      properties: { email: { type: "string", format: "email" }, at: { format: "date-time" } },
    },
    [{ email: "not an email", at: "yesterday" }, { email: 1 }],
  ],
  [
    "refs, anchors, combinators",
    {
      $defs: { positive: { type: "integer", minimum: 1 }, named: { $anchor: "nm", type: "string" } },
      type: "object",
      properties: {
        count: { $ref: "#/$defs/positive" },
        label: { $ref: "#nm" },
        either: { oneOf: [{ type: "string" }, { type: "integer" }] },
        some: { anyOf: [{ type: "string" }, { type: "boolean" }] },
        list: { type: "array", prefixItems: [{ type: "string" }], items: { type: "integer" } },
        tail: { type: "array", items: false, prefixItems: [{}] },
        has: { type: "array", contains: { const: 1 } },
      },
      dependentRequired: { a: ["b"] },
      unevaluatedProperties: false,
      patternProperties: { "^[ab]$": {} },
    },
    [
      { count: 1, label: "x", either: 3, some: true, list: ["a", 1, 2], tail: [1], has: [0, 1] },
      { count: 0 },
      { count: "1" },
      { label: 1 },
      { either: 1.5 },
      { some: 1 },
      { list: [1] },
      { list: ["a", "b"] },
      { tail: [1, 2] },
      { has: [0] },
      { a: 1 },
      { a: 1, b: 2 },
      { zzz: 1 },
    ],
  ],
  [
    "own properties only",
    { type: "object", required: ["constructor", "__proto__", "toString"] },
    [{}, { constructor: 1, toString: 2 }, JSON.parse('{"constructor": 1, "__proto__": 2, "toString": 3}')],
  ],
  [
    "a __proto__ key in the schema",
    JSON.parse('{"type": "object", "__proto__": {"type": "string", "required": ["x"]}}'),
    [{}, "text"],
  ],
  [
    "uniqueItems",
    {
      type: "object",
      properties: {
        any: { type: "array", uniqueItems: true },
        ints: { type: "array", items: { type: "integer" }, uniqueItems: true },
        off: { uniqueItems: false },
        not: { not: { uniqueItems: true } },
      },
    },
    [
      { any: [1, 2, 1, 2], ints: [1, 2, 3], off: [1, 1], not: [[1], [1]] },
      {
        any: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      },
      { any: JSON.parse("[1, 1.0]") },
      { any: [[1, { x: null }], [1, { x: null }], "x"] },
      { any: [1, "1", [1], { 1: 1 }, null, true] },
      { ints: [3, 1, 2, 1, 3] },
      { not: [1, 2] },
    ],
  ],
];

describe("the interpreted validator against the compiled one", () => {
  for (const [name, schema, values] of CASES) {
    it(`answers the same for ${name}`, () => {
      const compiled = compileJsonSchema(schema, "probe", "compiled");
      const interpreted = compileJsonSchema(schema, "probe", "interpreted");
      const differences = values.flatMap((value) => {
        const expected = compiled(value)?.[0];
        const actual = interpreted(value)?.[0];
        return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [{ value, expected, actual }];
      });
      expect(differences).toEqual([]);
    });
  }

  it.each([
    [
      "a network $ref",
      { $ref: "https://example.com/schema.json" },
      /can't resolve reference https:\/\/example.com\/schema.json/,
    ],
    ["a missing local $ref", { $ref: "#/$defs/none" }, /can't resolve reference #\/\$defs\/none/],
    ["an unknown type", { type: "strin" }, /^probe is not a usable JSON Schema/],
    [
      "an invalid pattern",
      { type: "string", pattern: "(" },
      /^probe is not a usable JSON Schema: Invalid regular expression/,
    ],
    ["a lookahead", { pattern: "^(?=a)" }, /the pattern "\^\(\?=a\)" cannot be evaluated in linear time/],
    ["a backreference key", { patternProperties: { "(x)\\1": {} } }, /cannot be evaluated in linear time/],
    ["another dialect", { $schema: "http://json-schema.org/draft-07/schema#" }, /only 2020-12/],
    [
      "draft-4 exclusiveMinimum: true",
      { type: "number", minimum: 5, exclusiveMinimum: true },
      /data\/exclusiveMinimum must be number/,
    ],
    [
      "draft-4 exclusiveMaximum: true",
      { maximum: 5, exclusiveMaximum: true },
      /exclusiveMaximum must be number/,
    ],
    ["a pattern given as an array", { pattern: ["^(a+)+$"] }, /data\/pattern must be string/],
    ["examples given as an object", { examples: { pattern: "^(a+)+$" } }, /data\/examples must be array/],
    ["a $ref to the schema itself", { $ref: "#" }, /^probe is not a usable JSON Schema/],
    [
      "a $ref loop",
      { $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" },
      /^probe is not a usable JSON Schema/,
    ],
  ])("refuses %s as the compiled one does", (_, schema, message) => {
    expect(() => compileJsonSchema(schema, "probe", "compiled")).toThrow(message);
    expect(() => compileJsonSchema(schema, "probe", "interpreted")).toThrow(TypeError);
    expect(() => compileJsonSchema(schema, "probe", "interpreted")).toThrow(message);
  });

  it("runs every pattern on the linear-time engine: ^(a+)+$ refuses 5,000 characters at once", () => {
    const engine = vi.spyOn(RE2JS.prototype, "test");
    const native = globalThis.RegExp;
    const validate = compileJsonSchema(
      { type: "object", properties: { word: { type: "string", pattern: "^(a+)+$" } } },
      "probe",
      "interpreted",
    );
    expect(validate({ word: `${"a".repeat(5000)}!` })).toEqual([
      { path: "word", message: 'must match pattern "^(a+)+$"' },
    ]);
    expect(validate({ word: "a".repeat(5000) })).toBeUndefined();
    // Both runs went to the linear-time engine, whose cost is linear in the input by construction.
    expect(engine).toHaveBeenCalledTimes(2);
    expect(globalThis.RegExp).toBe(native);
  });

  it("finds patterns under property names that are also keywords (const, enum, format)", () => {
    const schema = {
      type: "object",
      properties: { const: { pattern: "^a+$" }, enum: { pattern: "^b+$" }, format: { pattern: "^c+$" } },
      dependentSchemas: { const: { properties: { default: { pattern: "^d+$" } } } },
    };
    const compiled = compileJsonSchema(schema, "probe", "compiled");
    const interpreted = compileJsonSchema(schema, "probe", "interpreted");
    for (const value of [
      { const: "aa", enum: "b", format: "c" },
      { const: "x" },
      { enum: "x" },
      { format: "x" },
      { const: "a", default: "x" },
    ]) {
      expect(interpreted(value)).toEqual(compiled(value));
    }
    expect(interpreted({ format: "x" })).toEqual([{ path: "format", message: 'must match pattern "^c+$"' }]);
  });

  it("answers a value that is not JSON data with an issue, not a throw", () => {
    const validate = compileJsonSchema(
      { type: "object", properties: { s: { type: "string", pattern: "^a" } } },
      "probe",
      "interpreted",
    );
    const native = globalThis.RegExp;
    expect(validate({ s: undefined })?.[0]?.message).toMatch(/^must be JSON data/);
    expect(validate(() => 1)?.[0]?.path).toBe("");
    expect(globalThis.RegExp).toBe(native);
  });

  it("never modifies the caller's schema", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/a" } },
      $defs: { a: { type: "string" } },
    };
    const copy = structuredClone(schema);
    const validate = compileJsonSchema(schema, "probe", "interpreted");
    expect(validate({ a: 1 })).toEqual([{ path: "a", message: "must be string" }]);
    expect(schema).toEqual(copy);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(["$ref"]);
  });
});

describe("where code generation from strings is forbidden", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("auto validates with the interpreter, as a raw schema registered on workerd needs", async () => {
    vi.resetModules();
    vi.stubGlobal("Function", function forbidden() {
      throw new EvalError("Code generation from strings disallowed for this context");
    });
    const fresh = await import("./json-schema.js");
    await (await import("./json-schema-loader.js")).preloadJsonSchemaEngines();
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    expect(() => fresh.compileJsonSchema(schema, "probe", "compiled")).toThrow(
      /probe is not a usable JSON Schema: Code generation from strings disallowed/,
    );
    const validate = fresh.compileJsonSchema(schema, "probe");
    expect(validate({ n: 1 })).toBeUndefined();
    expect(validate({})).toEqual([{ path: "n", message: "must have required property 'n'" }]);
  });
});

describe("MCPServer jsonSchemaValidator", () => {
  it("defaults to auto and refuses an unknown engine at construction", () => {
    expect(DEFAULT_JSON_SCHEMA_VALIDATOR).toBe("auto");
    expect(() => new MCPServer("x", { jsonSchemaValidator: "fast" as never })).toThrow(
      'MCPServer option "jsonSchemaValidator" must be "auto", "compiled" or "interpreted", got "fast"',
    );
    expect(() => new MCPServer("x", { jsonSchemaValidator: "interpreted" })).not.toThrow();
  });

  it("answers invalid tool and prompt arguments on the wire the same with either engine", async () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    const answers = [];
    for (const jsonSchemaValidator of ["compiled", "interpreted"] as const) {
      const mcp = new MCPServer("parity", { jsonSchemaValidator, logger: recordingLogger() });
      mcp.tool("t", { inputSchema: schema }, () => "ok");
      mcp.prompt(
        "p",
        { argsSchema: { type: "object", properties: { s: { type: "string", minLength: 2 } } } },
        () => "ok",
      );
      const { client } = await overHttp(mcp);
      const prompt = await client.getPrompt("p", { s: "x" }).then(
        () => undefined,
        (error: { code: number; message: string }) => ({ code: error.code, message: error.message }),
      );
      answers.push({
        tool: await client.callTool("t", { n: "1" }),
        missing: await client.callTool("t", {}),
        prompt,
      });
    }
    expect(answers[0]?.prompt?.code).toBe(-32602);
    expect(answers[0]?.tool.isError).toBe(true);
    expect(answers[1]).toEqual(answers[0]);
  });
});
