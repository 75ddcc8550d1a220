/**
 * The interpreted validator's registration checks: keyword shapes the meta-schema gives (so no
 * user pattern reaches V8's backtracking engine), own keys kept own, `$ref` loops refused.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { overHttp, recordingLogger } from "../mcp/mcp-test-fixtures.js";
import { MCPServer } from "../mcp/server.js";
import type { JsonValidator } from "./issues.js";
import { compileJsonSchema as compileOnceLoaded } from "./json-schema.js";
import { preloadJsonSchemaEngines } from "./json-schema-loader.js";

// With the engines loaded, a raw schema compiles (and is refused) synchronously, as these tests expect.
await preloadJsonSchemaEngines();
const compileJsonSchema = (...args: Parameters<typeof compileOnceLoaded>): JsonValidator =>
  compileOnceLoaded(...args) as JsonValidator;

const ENGINES = ["compiled", "interpreted"] as const;

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Counts the runs of `source` on V8's own engine, answering them "no match" at once, so a pattern
 * that reaches that engine shows in the count instead of backtracking for minutes.
 */
function nativeRunsOf(source: string): { readonly count: number } {
  const runs = { count: 0 };
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, "exec").mockImplementation(function (this: RegExp, text: string) {
    if (this.source !== source) return exec.call(this, text);
    runs.count++;
    return null;
  });
  return runs;
}

describe("patterns never reach V8's backtracking engine", () => {
  it.each([
    [
      "a pattern given as an array",
      { type: "object", properties: { s: { type: "string", pattern: ["^(a+)+$"] } } },
      /data\/properties\/s\/pattern must be string/,
    ],
    [
      "a pattern in an examples object reached by $ref",
      { type: "object", examples: { pattern: "^(a+)+$" }, properties: { s: { $ref: "#/examples" } } },
      /data\/examples must be array/,
    ],
    [
      "patternProperties given as an array",
      { type: "object", patternProperties: ["^(a+)+$"] },
      /patternProperties must be/,
    ],
  ])("refuses %s at registration with either engine", (_name, schema, message) => {
    for (const engine of ENGINES) {
      expect(() => compileJsonSchema(schema, "probe", engine)).toThrow(TypeError);
      expect(() => compileJsonSchema(schema, "probe", engine)).toThrow(/^probe is not a usable JSON Schema/);
    }
    expect(() => compileJsonSchema(schema, "probe", "interpreted")).toThrow(message);
  });

  it("refuses a $ref into data (default, const, examples items) with the interpreter", () => {
    // The compiled engine reads such a target as a schema, its patterns on the linear-time engine.
    for (const at of ["default", "const", "examples/0"]) {
      const schema = {
        default: { pattern: "^(a+)+$" },
        const: { pattern: "^(a+)+$" },
        examples: [{ pattern: "^(a+)+$" }],
        properties: { s: { $ref: `#/${at}` } },
      };
      expect(() => compileJsonSchema(schema, "probe", "interpreted")).toThrow(
        `probe is not a usable JSON Schema: can't resolve reference #/${at}`,
      );
    }
  });

  it("answers a crafted argument over HTTP without running a pattern that was never compiled", async () => {
    // A keyword unknown to the walker is not checked at registration, but a $ref may reach it: its
    // non-string pattern is refused while validating instead of being run on V8's engine.
    const mcp = new MCPServer("patterns", { jsonSchemaValidator: "interpreted", logger: recordingLogger() });
    mcp.tool(
      "t",
      {
        inputSchema: {
          type: "object",
          "x-ui": { pattern: ["^(a+)+$"] },
          properties: { s: { $ref: "#/x-ui" } },
        },
      },
      () => "ok",
    );
    const { client } = await overHttp(mcp);
    const native = globalThis.RegExp;
    const runs = nativeRunsOf("^(a+)+$");
    // 30 a's then "!": minutes on a backtracking engine.
    const result = await client.callTool("t", { s: `${"a".repeat(30)}!` });
    expect(runs.count).toBe(0);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/was not compiled with the schema/);
    expect(globalThis.RegExp).toBe(native);
  }, 30_000);
});

describe("registration", () => {
  it("refuses a $ref that leads back to itself without descending into the value, on both engines", () => {
    for (const schema of [
      { $ref: "#" },
      { $defs: { a: { $ref: "#/$defs/b" }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" },
      { $defs: { a: { not: { $ref: "#/$defs/a" } } }, properties: { x: { $ref: "#/$defs/a" } } },
    ]) {
      for (const engine of ENGINES) {
        expect(() => compileJsonSchema(schema, "probe", engine)).toThrow(
          /^probe is not a usable JSON Schema/,
        );
      }
    }
    expect(() =>
      compileJsonSchema({ $defs: { a: { not: { $ref: "#/$defs/a" } } } }, "probe", "interpreted"),
    ).toThrow("the $ref #/$defs/a leads back to itself without descending into the value");
  });

  it("accepts recursion that descends into the value", () => {
    const tree = {
      $defs: {
        node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } },
      },
      $ref: "#/$defs/node",
    };
    for (const engine of ENGINES) {
      const validate = compileJsonSchema(tree, "probe", engine);
      expect(validate({ kids: [{ kids: [] }] })).toBeUndefined();
      expect(validate({ kids: [{ kids: 1 }] })?.[0]?.path).toBe("kids.0.kids");
    }
  });

  it("keeps a __proto__ key in the schema an own key, not inherited keywords", () => {
    const schema = JSON.parse('{"type": "object", "__proto__": {"required": ["x"]}}') as Record<
      string,
      unknown
    >;
    for (const engine of ENGINES) {
      expect(compileJsonSchema(schema, "probe", engine)({})).toBeUndefined();
    }
  });
});
