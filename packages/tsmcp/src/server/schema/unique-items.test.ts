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
/** Large enough that a pairwise check reads its items hundreds of times more than a linear one. */
const ITEMS = 2_000;

/**
 * Validates `items` behind a proxy that counts the reads of its items: a near-linear check reads
 * each item a few times, a pairwise one about once per pair.
 */
function counted(
  validate: (value: unknown) => unknown,
  items: readonly unknown[],
): { issues: unknown; reads: number } {
  let reads = 0;
  const proxy = new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  const issues = validate(proxy);
  return { issues, reads };
}

describe.each(ENGINES)("uniqueItems with the %s engine", (engine) => {
  const untyped = compileJsonSchema({ type: "array", uniqueItems: true }, "probe", engine);

  it("reads each of 2,000 distinct integers or small objects a few times, not once per pair", () => {
    const typed = compileJsonSchema(
      { type: "array", items: { type: "integer" }, uniqueItems: true },
      "probe",
      engine,
    );
    const integers = Array.from({ length: ITEMS }, (_, i) => i);
    const objects = Array.from({ length: ITEMS }, (_, i) => ({ id: i, tag: "t" }));
    for (const [validate, value] of [
      [typed, integers],
      [untyped, integers],
      [untyped, objects],
    ] as const) {
      const { issues, reads } = counted(validate, value);
      expect(issues).toBeUndefined();
      expect(reads).toBeGreaterThanOrEqual(ITEMS);
      expect(reads).toBeLessThanOrEqual(4 * ITEMS);
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
  it("answers an array too large to compare pairwise with an issue, after reading each item once", () => {
    const validate = compileJsonSchema({ type: "array", uniqueItems: true }, "probe", "interpreted");
    // 4,000 items, then a duplicate of the first at the end: 16 million pairs, over the bound.
    const items = [...INTEGERS.slice(0, 4000), 0];
    const { issues, reads } = counted(validate, items);
    expect(INTERPRETED_UNIQUE_ITEMS_PAIRS).toBe(10_000_000);
    expect(issues).toEqual([
      {
        path: "",
        message:
          "holds arrays too large to check uniqueItems without code generation " +
          "(16008001 item pairs, at most 10000000)",
      },
    ]);
    expect(reads).toBe(items.length);
    // Within the bound, the pairwise walk answers with the duplicate's place.
    expect(validate([...INTEGERS.slice(0, 3000), 0])).toEqual([
      { path: "", message: "must NOT have duplicate items (items ## 0 and 3000 are identical)" },
    ]);
  });

  it("accepts 40k distinct integers in a tool argument over HTTP", async () => {
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
    // Near-linear work, counted above; a pairwise walk (about 11 s here) answered the same.
    const result = await client.callTool("t", { xs: INTEGERS });
    expect(result.isError).not.toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "ok" }]);
  }, 60_000);
});
