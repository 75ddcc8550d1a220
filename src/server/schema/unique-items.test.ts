/** `uniqueItems` in near-linear time on both engines, with the meaning the pairwise check has. */
import { describe, expect, it } from "vitest";
import { overHttp, recordingLogger } from "../mcp/mcp-test-fixtures.js";
import { MCPServer } from "../mcp/server.js";
import type { JsonValidator } from "./issues.js";
import { compileJsonSchema as compileOnceLoaded } from "./json-schema.js";
import { preloadJsonSchemaEngines } from "./json-schema-loader.js";

// With the engines loaded, a raw schema compiles (and is refused) synchronously, as these tests expect.
await preloadJsonSchemaEngines();
const compileJsonSchema = (...args: Parameters<typeof compileOnceLoaded>): JsonValidator =>
  compileOnceLoaded(...args) as JsonValidator;

import { INTERPRETED_UNIQUE_ITEMS_PAIRS } from "./json-schema-interpreted.js";

const ENGINES = ["compiled", "interpreted"] as const;
const INTEGERS = Array.from({ length: 40_000 }, (_, i) => i);
const OBJECTS = Array.from({ length: 40_000 }, (_, i) => ({ id: i, tag: "t" }));

function timed(validate: (value: unknown) => unknown, value: unknown): { issues: unknown; ms: number } {
  const started = performance.now();
  const issues = validate(value);
  return { issues, ms: performance.now() - started };
}

describe.each(ENGINES)("uniqueItems with the %s engine", (engine) => {
  const untyped = compileJsonSchema({ type: "array", uniqueItems: true }, "probe", engine);

  it("checks 40k distinct integers and 40k distinct small objects in well under a second", () => {
    const typed = compileJsonSchema(
      { type: "array", items: { type: "integer" }, uniqueItems: true },
      "probe",
      engine,
    );
    for (const [validate, value] of [
      [typed, INTEGERS],
      [untyped, INTEGERS],
      [untyped, OBJECTS],
    ] as const) {
      const { issues, ms } = timed(validate, value);
      expect(issues).toBeUndefined();
      expect(ms).toBeLessThan(500);
    }
  });

  it("finds duplicates by JSON equality: key order does not matter, 1 and 1.0 are equal", () => {
    expect(untyped([1, 2, 1])).toEqual([
      { path: "", message: "must NOT have duplicate items (items ## 0 and 2 are identical)" },
    ]);
    expect(untyped(JSON.parse("[1, 1.0]"))).toHaveLength(1);
    expect(
      untyped([
        { a: 1, b: [2, { c: 3 }] },
        { b: [2, { c: 3 }], a: 1 },
      ]),
    ).toHaveLength(1);
    expect(
      untyped([
        [1, 2],
        [1, 2],
      ]),
    ).toHaveLength(1);
    expect(untyped([0, -0])).toHaveLength(1);
    expect(untyped([1, "1", true, null, [1], { 1: 1 }, [[1]], { a: "1" }, { a: 1 }])).toBeUndefined();
    expect(untyped([[1, 2], [2, 1], { a: 1 }, { a: 1, b: 1 }])).toBeUndefined();
  });

  it("keeps its meaning inside combinators and nested values", () => {
    const notUnique = compileJsonSchema({ not: { uniqueItems: true } }, "probe", engine);
    expect(notUnique([1, 1])).toBeUndefined();
    expect(notUnique([1, 2])).toBeDefined();
    const either = compileJsonSchema({ anyOf: [{ uniqueItems: true }, { maxItems: 2 }] }, "probe", engine);
    expect(either([1, 1])).toBeUndefined();
    expect(either([1, 1, 2])).toBeDefined();
    const nested = compileJsonSchema(
      { type: "object", properties: { xs: { items: { uniqueItems: true } } } },
      "probe",
      engine,
    );
    expect(
      nested({
        xs: [
          [1, 2],
          [1, 2],
        ],
      }),
    ).toBeUndefined();
    expect(
      nested({
        xs: [
          [1, 2],
          [3, 3],
        ],
      })?.[0]?.path,
    ).toBe("xs.1");
    expect(compileJsonSchema({ uniqueItems: false }, "probe", engine)([1, 1])).toBeUndefined();
  });

  it("hashes deeply nested items without overflowing the stack", () => {
    let deep: unknown[] = [];
    for (let depth = 0; depth < 100_000; depth++) deep = [deep];
    expect(untyped([deep, 1, 2])).toBeUndefined();
    expect(untyped([deep, 1, 1])).toEqual([
      { path: "", message: "must NOT have duplicate items (items ## 1 and 2 are identical)" },
    ]);
  });
});

describe("uniqueItems on the interpreted engine", () => {
  it("answers an array too large to compare pairwise with an issue, quickly", () => {
    const validate = compileJsonSchema({ type: "array", uniqueItems: true }, "probe", "interpreted");
    // Every pair compared: 40,000 items, then a duplicate of the first at the end.
    const { issues, ms } = timed(validate, [...INTEGERS, 0]);
    expect(INTERPRETED_UNIQUE_ITEMS_PAIRS).toBe(10_000_000);
    expect(issues).toEqual([
      {
        path: "",
        message:
          "holds arrays too large to check uniqueItems without code generation " +
          "(1600080001 item pairs, at most 10000000)",
      },
    ]);
    expect(ms).toBeLessThan(500);
    // Within the bound, the pairwise walk answers with the duplicate's place.
    expect(validate([...INTEGERS.slice(0, 3000), 0])).toEqual([
      { path: "", message: "must NOT have duplicate items (items ## 0 and 3000 are identical)" },
    ]);
  });

  it("checks 40k distinct integers in a tool argument over HTTP without stalling", async () => {
    const mcp = new MCPServer("unique", { jsonSchemaValidator: "interpreted", logger: recordingLogger() });
    mcp.tool(
      "t",
      {
        inputSchema: {
          type: "object",
          properties: { xs: { type: "array", items: { type: "integer" }, uniqueItems: true } },
        },
      },
      () => "ok",
    );
    const { client } = await overHttp(mcp);
    const started = performance.now();
    const result = await client.callTool("t", { xs: INTEGERS });
    expect(result.isError).not.toBe(true);
    // The pairwise walk took about 11 s here; the HTTP round trip itself is most of what is left.
    expect(performance.now() - started).toBeLessThan(2000);
  }, 60_000);
});
