import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { compileSchema, isStandardSchema, withJsonSchema, withoutProperties } from "./compile.js";
import type { StandardSchemaV1 } from "./standard-schema.js";

/** A Standard Schema that validates "a string field `name`" and has no JSON Schema support. */
function bareStandardSchema(): StandardSchemaV1<{ name: string }> {
  return {
    "~standard": {
      version: 1,
      vendor: "handmade",
      validate: (value) =>
        typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string"
          ? { value: value as { name: string } }
          : { issues: [{ message: "name is required", path: [{ key: "name" }] }] },
    },
  };
}

describe("compileSchema with zod", () => {
  it("advertises the input JSON Schema and validates with zod, transforms included", async () => {
    const compiled = compileSchema(
      z.object({ text: z.string(), count: z.coerce.number().default(1) }),
      "input",
      "tool x inputSchema",
    );
    expect(compiled.jsonSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
    });
    expect(await compiled.validate({ text: "hi" })).toEqual({ ok: true, value: { text: "hi", count: 1 } });
    expect(await compiled.validate({ text: 1 })).toEqual({
      ok: false,
      issues: [{ path: "text", message: "Invalid input: expected string, received number" }],
    });
  });

  it("advertises the output side for output schemas", () => {
    const schema = z.object({ sum: z.number(), note: z.string().default("") });
    expect(compileSchema(schema, "output", "o").jsonSchema).toMatchObject({ required: ["sum", "note"] });
    expect(compileSchema(schema, "input", "o").jsonSchema).toMatchObject({ required: ["sum"] });
  });

  it("converts a schema to JSON Schema once, at compile time, never per validation", async () => {
    const schema = z.object({ text: z.string() });
    const convert = vi.spyOn(schema["~standard"].jsonSchema, "input");
    const compiled = compileSchema(schema, "input", "t");
    for (let i = 0; i < 5; i++) await compiled.validate({ text: String(i) });
    expect(convert).toHaveBeenCalledTimes(1);
  });

  it("explains a zod construct JSON Schema cannot express and how to supply the schema", () => {
    expect(() => compileSchema(z.object({ when: z.date() }), "input", 'tool "t" inputSchema')).toThrow(
      /tool "t" inputSchema cannot be converted to JSON Schema .*withJsonSchema/,
    );
  });

  it("deep-freezes the advertised schema so no response can alter another", () => {
    const compiled = compileSchema(z.object({ a: z.string() }), "input", "t");
    expect(Object.isFrozen(compiled.jsonSchema)).toBe(true);
    expect(Object.isFrozen(compiled.jsonSchema.properties)).toBe(true);
  });
});

describe("compileSchema with other Standard Schemas", () => {
  it("refuses a Standard Schema without JSON Schema support, naming withJsonSchema", () => {
    expect(() => compileSchema(bareStandardSchema(), "input", 'tool "t" inputSchema')).toThrow(TypeError);
    expect(() => compileSchema(bareStandardSchema(), "input", 'tool "t" inputSchema')).toThrow(
      /handmade schema cannot describe itself as JSON Schema.*withJsonSchema\(schema/,
    );
  });

  it("accepts it paired with an explicit JSON Schema, validating with the Standard Schema", async () => {
    const json = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const paired = withJsonSchema(bareStandardSchema(), json);
    expect(isStandardSchema(paired)).toBe(true);
    const compiled = compileSchema(paired, "input", "t");
    expect(compiled.jsonSchema).toEqual(json);
    expect(compiled.jsonSchema).not.toBe(json);
    expect(await compiled.validate({ name: "x" })).toEqual({ ok: true, value: { name: "x" } });
    expect(await compiled.validate({})).toEqual({
      ok: false,
      issues: [{ path: "name", message: "name is required" }],
    });
  });

  it("awaits a Standard Schema that validates asynchronously", async () => {
    const asyncSchema = withJsonSchema(
      {
        "~standard": {
          version: 1,
          vendor: "async",
          validate: async (value: unknown) => ({ value }),
        },
      } satisfies StandardSchemaV1,
      { type: "object" },
    );
    const result = compileSchema(asyncSchema, "input", "t").validate({ a: 1 });
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual({ ok: true, value: { a: 1 } });
  });
});

describe("compileSchema with raw JSON Schema", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      size: { type: "object", properties: { gb: { type: "integer" } } },
    },
    required: ["name"],
    additionalProperties: false,
  };

  it("validates with ajv in the 2020-12 dialect, naming the field of each problem", async () => {
    const compiled = compileSchema(schema, "input", "t");
    expect(await compiled.validate({ name: "db" })).toEqual({ ok: true, value: { name: "db" } });
    expect(await compiled.validate({})).toMatchObject({ ok: false, issues: [{ path: "name" }] });
    expect(await compiled.validate({ name: "db", size: { gb: "x" } })).toMatchObject({
      ok: false,
      issues: [{ path: "size.gb", message: "must be integer" }],
    });
    expect(await compiled.validate({ name: "db", extra: 1 })).toMatchObject({
      ok: false,
      issues: [{ path: "extra" }],
    });
  });

  it("never modifies the caller's schema or the validated value", async () => {
    const copy = structuredClone(schema);
    const compiled = compileSchema(schema, "input", "t");
    const value = { name: "db" };
    await compiled.validate(value);
    expect(schema).toEqual(copy);
    expect(Object.isFrozen(schema)).toBe(false);
    expect(value).toEqual({ name: "db" });
  });

  it("refuses a network $ref instead of fetching it", () => {
    expect(() => compileSchema({ $ref: "https://example.com/schema.json" }, "input", "t")).toThrow(
      /can't resolve reference https:\/\/example.com\/schema.json/,
    );
  });

  it("refuses another dialect with an error rather than misreading it", () => {
    expect(() =>
      compileSchema({ $schema: "http://json-schema.org/draft-07/schema#", type: "object" }, "input", "t"),
    ).toThrow(/dialect "http:\/\/json-schema.org\/draft-07\/schema#"; only 2020-12/);
    expect(() =>
      compileSchema(
        { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" },
        "input",
        "t",
      ),
    ).not.toThrow();
  });

  it("refuses an invalid schema and anything that is not a schema", () => {
    expect(() => compileSchema({ type: "strin" }, "input", "t")).toThrow(/t is not a usable JSON Schema/);
    expect(() => compileSchema("object", "input", "t")).toThrow(/t must be a zod schema/);
    expect(() => compileSchema(null, "input", "t")).toThrow(TypeError);
  });
});

describe("withoutProperties", () => {
  it("drops the named properties from properties and required, leaving the original untouched", () => {
    const schema = { type: "object", properties: { name: {}, region: {} }, required: ["name", "region"] };
    const trimmed = withoutProperties(schema, ["region"]);
    expect(trimmed).toEqual({ type: "object", properties: { name: {} }, required: ["name"] });
    expect(schema.required).toEqual(["name", "region"]);
    expect(withoutProperties(schema, [])).toBe(schema);
  });
});
