/**
 * Raw JSON Schema compilation: ajv is loaded and built on the first raw schema compiled (never at
 * import of `tsmcp/server`), once per process, and reused for every schema after.
 */
import { describe, expect, it, vi } from "vitest";

const built = vi.hoisted(() => ({ count: 0 }));

vi.mock("ajv/dist/2020.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("ajv/dist/2020.js")>();
  class CountedAjv extends actual.Ajv2020 {
    constructor(...args: ConstructorParameters<typeof actual.Ajv2020>) {
      super(...args);
      built.count += 1;
    }
  }
  return { ...actual, Ajv2020: CountedAjv, default: CountedAjv };
});

describe("ajv", () => {
  it("is not built by importing tsmcp/server, nor by a zod schema, but by the first raw JSON Schema, once", async () => {
    const server = await import("../index.js");
    const { compileSchema } = await import("./compile.js");
    const { compileJsonSchema } = await import("./json-schema.js");
    const z = await import("zod");
    expect(built.count).toBe(0);
    new server.MCPServer("lazy").tool("zod", { inputSchema: z.object({ n: z.number() }) }, () => "");
    expect(built.count).toBe(0);
    const validate = compileJsonSchema({ type: "object", required: ["n"] }, "probe");
    // The first raw schema starts loading the engines; its first answer waits for them, once.
    expect(built.count).toBe(0);
    await expect(validate({})).resolves.toEqual([{ path: "n", message: "must have required property 'n'" }]);
    expect(built.count).toBe(1);
    expect(validate({ n: 1 })).toBeUndefined();
    // Loaded: the next raw schema compiles (and would be refused) at once.
    expect(() => compileSchema({ type: "nope" }, "input", "again")).toThrow(TypeError);
    expect(built.count).toBe(1);
  });
});
