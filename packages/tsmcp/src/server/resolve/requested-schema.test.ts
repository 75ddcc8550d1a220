/**
 * Rendering form schemas for the wire: what a flat `requestedSchema` can express is rendered with
 * the spec's keywords only, and everything else is refused naming the property.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { RequestedSchemaSchema } from "../../protocol/schema/input.js";
import { compileSchema } from "../schema/compile.js";
import { toRequestedSchema } from "./requested-schema.js";

const render = (schema: unknown) =>
  toRequestedSchema(compileSchema(schema, "input", "t").jsonSchema, "elicit");

describe("a form schema", () => {
  it("renders strings with length and format, numbers and integers with bounds, and booleans with defaults", () => {
    const rendered = render(
      z.object({
        name: z.string().min(2).max(20).describe("Your name").meta({ title: "Name" }),
        email: z.email(),
        when: z.iso.date(),
        count: z.int().min(1).max(5),
        ratio: z.number().min(0),
        notify: z.boolean().default(true),
      }),
    );
    expect(rendered).toEqual({
      type: "object",
      properties: {
        name: { type: "string", title: "Name", description: "Your name", minLength: 2, maxLength: 20 },
        email: { type: "string", format: "email" },
        when: { type: "string", format: "date" },
        count: { type: "integer", minimum: 1, maximum: 5 },
        ratio: { type: "number", minimum: 0 },
        notify: { type: "boolean", default: true },
      },
      required: ["name", "email", "when", "count", "ratio"],
    });
    expect(RequestedSchemaSchema.safeParse(rendered).success).toBe(true);
  });

  it("renders single and multi-select enums, titled and untitled", () => {
    const rendered = render(
      z.object({
        size: z.enum(["s", "m", "l"]),
        tier: z.union([z.literal("g").meta({ title: "Gold" }), z.literal("s").meta({ title: "Silver" })]),
        tags: z
          .array(z.enum(["a", "b"]))
          .min(1)
          .max(2),
      }),
    );
    expect(rendered.properties).toEqual({
      size: { type: "string", enum: ["s", "m", "l"] },
      tier: {
        type: "string",
        oneOf: [
          { const: "g", title: "Gold" },
          { const: "s", title: "Silver" },
        ],
      },
      tags: { type: "array", minItems: 1, maxItems: 2, items: { type: "string", enum: ["a", "b"] } },
    });
    expect(RequestedSchemaSchema.safeParse(rendered).success).toBe(true);
  });

  it("accepts a raw JSON Schema with titled multi-select items and legacy enumNames", () => {
    const raw = {
      type: "object",
      properties: {
        colour: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
        picks: { type: "array", items: { anyOf: [{ const: "x", title: "Ex" }] } },
      },
    };
    const copy = structuredClone(raw);
    expect(render(raw)).toEqual({
      type: "object",
      properties: {
        colour: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"] },
        picks: { type: "array", items: { anyOf: [{ const: "x", title: "Ex" }] } },
      },
    });
    expect(raw).toEqual(copy);
  });

  it.each([
    [
      "a nested object",
      z.object({ address: z.object({ city: z.string() }) }),
      "address",
      'has type "object"',
    ],
    ["a nullable value", z.object({ nick: z.string().nullable() }), "nick", 'has type ["string","null"]'],
    [
      "a pattern without a format",
      z.object({ slug: z.string().regex(/^[a-z]+$/) }),
      "slug",
      'uses "pattern"',
    ],
    ["an exclusive bound", z.object({ n: z.number().gt(0) }), "n", 'uses "exclusiveMinimum"'],
    ["a constant", z.object({ k: z.literal("x") }), "k", 'uses "const"'],
    [
      "an array of numbers",
      z.object({ xs: z.array(z.number()) }),
      "xs",
      "is an array whose items are not an enum of strings",
    ],
  ])("refuses %s, naming the property", (_label, schema, property, why) => {
    expect(() => render(schema)).toThrow(TypeError);
    expect(() => render(schema)).toThrow(`property '${property}' ${why}`);
  });

  it("refuses an unsupported string format and a root that is not a flat object", () => {
    expect(() => render({ type: "object", properties: { ip: { type: "string", format: "ipv4" } } })).toThrow(
      "property 'ip' has the format \"ipv4\"",
    );
    expect(() => render(z.string())).toThrow("a form's schema must be an object schema");
    expect(() => render({ type: "object", properties: {}, anyOf: [{ required: ["a"] }] })).toThrow(
      'cannot use "anyOf" at its root',
    );
    expect(() => render(z.object({}).catchall(z.string()))).toThrow("cannot describe additional properties");
  });
});
