import { describe, expect, it } from "vitest";
import * as z from "zod";
import { compileSchema } from "./compile.js";
import { readElicitation } from "./elicitation-answer.js";
import { exceedsNodes, FULL_REPORT_MAX_NODES, validateStandard } from "./standard-validate.js";

const WRONG_ITEMS = 200_000;

describe("invalid input costs about what valid input does", () => {
  it("pins the size up to which every issue is named", () => {
    expect(FULL_REPORT_MAX_NODES).toBe(64);
  });

  it("stops a 200,000-item invalid array at its first element instead of visiting every one", async () => {
    let visited = 0;
    const counted = z.preprocess((item) => {
      visited += 1;
      return item;
    }, z.number());
    const compiled = compileSchema(z.object({ items: z.array(counted) }), "input", "tool t inputSchema");
    const result = await compiled.validate({ items: Array.from({ length: WRONG_ITEMS }, (_, i) => `x${i}`) });
    expect(result).toEqual({
      ok: false,
      issues: [{ path: "items.0", message: "Invalid input: expected number, received string" }],
    });
    expect(visited).toBe(1);
  });

  it("builds at most a handful of issues for a huge invalid body, not one per element", async () => {
    const compiled = compileSchema(z.object({ items: z.array(z.number()) }), "input", "tool t inputSchema");
    const result = await compiled.validate({ items: new Array(WRONG_ITEMS).fill("x") });
    if (result.ok) throw new Error("expected the value to be invalid");
    expect(result.issues.length).toBeLessThanOrEqual(5);
  });

  it("still validates a large valid value in full, transforms included", async () => {
    const compiled = compileSchema(
      z.object({ items: z.array(z.string().transform((s) => s.length)) }),
      "input",
      "tool t inputSchema",
    );
    const items = Array.from({ length: 1_000 }, (_, i) => "x".repeat(i % 7));
    expect(await compiled.validate({ items })).toEqual({
      ok: true,
      value: { items: items.map((s) => s.length) },
    });
  });

  it("names every issue of a small value, e.g. each missing field", async () => {
    const compiled = compileSchema(z.object({ a: z.string(), b: z.string() }), "input", "tool t inputSchema");
    expect(await compiled.validate({})).toMatchObject({
      ok: false,
      issues: [{ path: "a" }, { path: "b" }],
    });
  });

  it("awaits an asynchronous zod schema on the early-exit path too", async () => {
    const schema = z.object({ items: z.array(z.number().refine(async (n) => n >= 0)) });
    const good = await validateStandard(schema, { items: Array.from({ length: 100 }, (_, i) => i) });
    expect(good).toMatchObject({ ok: true });
    const bad = await validateStandard(schema, { items: new Array(100).fill("x") });
    expect(bad).toEqual({
      ok: false,
      issues: [{ path: "items.0", message: "Invalid input: expected number, received string" }],
    });
  });

  it("bounds an elicitation answer the same way", () => {
    const schema = z.object({ tags: z.array(z.string()) });
    const answer = readElicitation(
      { action: "accept", content: { tags: new Array(WRONG_ITEMS).fill(1) } },
      schema,
    );
    expect(answer).toEqual({
      status: "invalid",
      message: "the answer does not match the requested schema (fields: tags.0)",
    });
  });
});

describe("exceedsNodes", () => {
  it("counts objects, arrays and primitives, and stops once past the limit", () => {
    expect(exceedsNodes(1, 1)).toBe(false);
    expect(exceedsNodes({ a: [1, 2], b: "x" }, 5)).toBe(false);
    expect(exceedsNodes({ a: [1, 2], b: "x" }, 4)).toBe(true);
    expect(exceedsNodes(new Array(1_000_000).fill({ a: 1 }), 64)).toBe(true);
  });
});
