import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CallToolResultSchema } from "../protocol/schema/methods.js";
import { META } from "../protocol/versions.js";
import { isPlainToolResult } from "./result-shape.js";

const value = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom("text", "image", "complete", "input_required"),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom("type", "text", "x"), fc.string(), { maxKeys: 2 }),
);
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.string() }),
  fc.record(
    {
      type: fc.oneof(fc.constant("text"), value),
      text: value,
      annotations: value,
      _meta: value,
      data: value,
      mimeType: value,
    },
    { requiredKeys: [] },
  ),
  value,
);
const serverInfo = fc.oneof(
  fc.record(
    {
      name: fc.oneof({ weight: 4, arbitrary: fc.string() }, { weight: 1, arbitrary: value }),
      version: fc.oneof({ weight: 4, arbitrary: fc.string() }, { weight: 1, arbitrary: value }),
      title: fc.oneof(fc.string(), value),
      websiteUrl: fc.string(),
      icons: fc.oneof(fc.constant([]), fc.constant([{ src: 1 }]), value),
      other: value,
    },
    { requiredKeys: [] },
  ),
  value,
);
const plainBlock = fc.record({ type: fc.constant("text"), text: fc.string() });
const result = fc.oneof(
  // Mostly well-formed: each field valid or not, each optional key present or not.
  fc.record(
    {
      content: fc.oneof(
        { weight: 4, arbitrary: fc.array(plainBlock, { maxLength: 3 }) },
        { weight: 1, arbitrary: fc.array(block, { maxLength: 3 }) },
        { weight: 1, arbitrary: value },
      ),
      structuredContent: fc.oneof(value, fc.object()),
      isError: fc.oneof({ weight: 3, arbitrary: fc.boolean() }, { weight: 1, arbitrary: value }),
      resultType: fc.oneof(
        { weight: 3, arbitrary: fc.constant("complete") },
        { weight: 1, arbitrary: value },
      ),
      _meta: fc.oneof(
        { weight: 3, arbitrary: fc.record({ [META.serverInfo]: serverInfo }, { requiredKeys: [] }) },
        {
          weight: 1,
          arbitrary: fc.dictionary(fc.constantFrom(META.serverInfo, "other"), fc.oneof(serverInfo, value)),
        },
        { weight: 1, arbitrary: value },
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      content: fc.oneof(fc.array(block, { maxLength: 3 }), value),
      structuredContent: fc.oneof(value, fc.object()),
      isError: value,
      resultType: value,
      _meta: value,
      extra: value,
    },
    { requiredKeys: [] },
  ),
);

describe("the hand check of a tools/call result", () => {
  it("accepts only results the protocol schema accepts, and the schema returns an equal object", () => {
    let accepted = 0;
    fc.assert(
      fc.property(result, (candidate) => {
        if (!isPlainToolResult(candidate)) return;
        accepted += 1;
        const parsed = CallToolResultSchema.safeParse(candidate);
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(candidate);
      }),
      { numRuns: 10_000 },
    );
    // The generator reaches the accepted shape often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(100);
  });

  it("accepts the common shapes: text blocks with optional isError, structuredContent and resultType", () => {
    expect(isPlainToolResult({ content: [{ type: "text", text: "a" }] })).toBe(true);
    expect(
      isPlainToolResult({
        _meta: { [META.serverInfo]: { name: "s", version: "1" }, other: [1] },
        resultType: "complete",
        content: [{ type: "text", text: "a" }],
      }),
    ).toBe(true);
    expect(
      isPlainToolResult({ content: [], isError: true, structuredContent: { a: 1 }, resultType: "complete" }),
    ).toBe(true);
  });

  it("leaves to the schema a result without content, with other blocks, with an unusual _meta or with other keys", () => {
    expect(isPlainToolResult({})).toBe(false);
    expect(isPlainToolResult({ content: [{ type: "image", data: "", mimeType: "image/png" }] })).toBe(false);
    expect(isPlainToolResult({ content: [], _meta: [] })).toBe(false);
    expect(isPlainToolResult({ content: [], _meta: { [META.serverInfo]: { name: "s" } } })).toBe(false);
    expect(
      isPlainToolResult({
        content: [],
        _meta: { [META.serverInfo]: { name: "s", version: "1", icons: [] } },
      }),
    ).toBe(false);
    expect(isPlainToolResult({ content: [], ttlMs: 5 })).toBe(false);
    expect(isPlainToolResult({ content: [{ type: "text", text: 1 }] })).toBe(false);
    expect(isPlainToolResult({ content: [], isError: "yes" })).toBe(false);
  });
});
