import { describe, expect, it } from "vitest";
import { analyzeParamHeaders, paramValueAt } from "./x-mcp-header.js";

const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

describe("analyzeParamHeaders accepts annotations that follow the rules", () => {
  it("lists string, integer and boolean parameters with their header names", () => {
    const analysis = analyzeParamHeaders(
      object({
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", "x-mcp-header": "Verbose" },
        query: { type: "string" },
      }),
    );
    expect(analysis).toEqual({
      kind: "valid",
      params: [
        { path: ["region"], name: "Region", type: "string" },
        { path: ["priority"], name: "Priority", type: "integer" },
        { path: ["verbose"], name: "Verbose", type: "boolean" },
      ],
    });
  });

  it("follows nested objects through properties alone", () => {
    const analysis = analyzeParamHeaders(
      object({ options: object({ limit: { type: "integer", "x-mcp-header": "Limit" } }) }),
    );
    expect(analysis).toEqual({
      kind: "valid",
      params: [{ path: ["options", "limit"], name: "Limit", type: "integer" }],
    });
  });

  it("accepts a nullable primitive and every tchar in the name", () => {
    const analysis = analyzeParamHeaders(
      object({ id: { type: ["string", "null"], "x-mcp-header": "A1!#$%&'*+-.^_`|~" } }),
    );
    expect(analysis.kind).toBe("valid");
  });

  it("finds nothing to mirror in a schema without annotations, or in annotation-looking data", () => {
    expect(analyzeParamHeaders({ type: "object" })).toEqual({ kind: "valid", params: [] });
    expect(
      analyzeParamHeaders(
        object({ a: { type: "object", default: { "x-mcp-header": "" }, const: { "x-mcp-header": 1 } } }),
      ),
    ).toEqual({ kind: "valid", params: [] });
  });
});

describe("analyzeParamHeaders refuses annotations that break the rules", () => {
  it.each([
    ["an empty name", object({ v: { type: "string", "x-mcp-header": "" } }), /is empty/],
    [
      "a name with a space",
      object({ v: { type: "string", "x-mcp-header": "My Region" } }),
      /not a valid header name/,
    ],
    [
      "a name with a colon",
      object({ v: { type: "string", "x-mcp-header": "Region:Primary" } }),
      /not a valid header name/,
    ],
    [
      "a non-ASCII name",
      object({ v: { type: "string", "x-mcp-header": "Région" } }),
      /not a valid header name/,
    ],
    [
      "a control character",
      object({ v: { type: "string", "x-mcp-header": "Region\t1" } }),
      /not a valid header name/,
    ],
    ["a name that is not a string", object({ v: { type: "string", "x-mcp-header": 7 } }), /not a string/],
    ["a number property", object({ v: { type: "number", "x-mcp-header": "Score" } }), /type "number"/],
    ["an object property", object({ v: { type: "object", "x-mcp-header": "Data" } }), /type "object"/],
    [
      "an array property",
      object({ v: { type: "array", items: {}, "x-mcp-header": "Items" } }),
      /type "array"/,
    ],
    ["a null property", object({ v: { type: "null", "x-mcp-header": "Nil" } }), /type "null"/],
    ["an untyped property", object({ v: { "x-mcp-header": "Any" } }), /type "\(none\)"/],
    [
      "two primitive types",
      object({ v: { type: ["string", "integer"], "x-mcp-header": "Two" } }),
      /only string/,
    ],
    [
      "a duplicate name",
      object({
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "Region" },
      }),
      /duplicates "Region"/,
    ],
    [
      "a duplicate name in another case",
      object({
        a: { type: "string", "x-mcp-header": "MyField" },
        b: { type: "string", "x-mcp-header": "myfield" },
      }),
      /duplicates "MyField"/,
    ],
    [
      "a property under items",
      object({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      /\/properties\/list\/items is not on a property reachable/,
    ],
    [
      "a property under anyOf",
      { type: "object", anyOf: [object({ v: { type: "string", "x-mcp-header": "V" } })] },
      /\/anyOf\/0\/properties\/v is not on a property reachable/,
    ],
    [
      "a property under if/then",
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, never awaited
      { type: "object", if: {}, then: object({ v: { type: "string", "x-mcp-header": "V" } }) },
      /\/then\/properties\/v/,
    ],
    [
      "a definition only reachable through $ref",
      {
        type: "object",
        properties: { v: { $ref: "#/$defs/v" } },
        $defs: { v: { type: "string", "x-mcp-header": "V" } },
      },
      /\/\$defs\/v is not on a property reachable/,
    ],
    ["the root schema itself", { type: "object", "x-mcp-header": "Root" }, /the schema root/],
  ])("drops %s", (_what, schema, reason) => {
    const analysis = analyzeParamHeaders(schema);
    expect(analysis.kind).toBe("invalid");
    expect(analysis.kind === "invalid" ? analysis.reason : "").toMatch(reason);
  });

  it("refuses a schema nested too deeply to walk", () => {
    let schema: Record<string, unknown> = { type: "string", "x-mcp-header": "Deep" };
    for (let i = 0; i < 100; i++) schema = object({ next: schema });
    expect(analyzeParamHeaders(schema)).toMatchObject({ kind: "invalid", reason: /deeper than/ });
  });
});

describe("paramValueAt reads the value at a parameter's exact path", () => {
  it("follows nested objects and keeps null as null", () => {
    const args = { region: "eu", options: { limit: 5, flag: null } };
    expect(paramValueAt(args, ["region"])).toBe("eu");
    expect(paramValueAt(args, ["options", "limit"])).toBe(5);
    expect(paramValueAt(args, ["options", "flag"])).toBeNull();
  });

  it("is undefined for a missing step, a non-object on the way, or inherited keys", () => {
    expect(paramValueAt(undefined, ["region"])).toBeUndefined();
    expect(paramValueAt({ options: "not an object" }, ["options", "limit"])).toBeUndefined();
    expect(paramValueAt({ options: [5] }, ["options", "0"])).toBeUndefined();
    expect(paramValueAt({}, ["toString"])).toBeUndefined();
  });
});
