import { describe, expect, expectTypeOf, it, vi } from "vitest";
import * as z from "zod";
import type { InputResponse } from "../../protocol/schema/input.js";
import { type ElicitationContent, readElicitation } from "./elicitation-answer.js";
import { preloadJsonSchemaEngines } from "./json-schema-loader.js";

// Loaded up front, as a server that reads answers against raw JSON Schemas does at start-up.
await preloadJsonSchemaEngines();

const Region = z.object({
  region: z.enum(["eu-west-1", "us-east-1"]),
  replicas: z.number().int().min(1).optional(),
});
const regionJson = {
  type: "object",
  properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } },
  required: ["region"],
};

describe("readElicitation", () => {
  it("accepts content that matches a zod schema, typed by the schema", () => {
    const answer = readElicitation({ action: "accept", content: { region: "eu-west-1" } }, Region);
    expect(answer).toEqual({ status: "accepted", content: { region: "eu-west-1" } });
    if (answer.status === "accepted") {
      expectTypeOf(answer.content).toEqualTypeOf<{ region: "eu-west-1" | "us-east-1"; replicas?: number }>();
    }
  });

  it("accepts content that matches a raw JSON Schema such as the question's requestedSchema", () => {
    const answer = readElicitation({ action: "accept", content: { region: "us-east-1" } }, regionJson);
    expect(answer).toEqual({ status: "accepted", content: { region: "us-east-1" } });
    if (answer.status === "accepted") expectTypeOf(answer.content).toEqualTypeOf<ElicitationContent>();
  });

  it("reports decline, cancel and a missing answer as such", () => {
    expect(readElicitation({ action: "decline" }, Region)).toEqual({ status: "declined" });
    expect(readElicitation({ action: "cancel" }, Region)).toEqual({ status: "cancelled" });
    expect(readElicitation(undefined, Region)).toEqual({ status: "missing" });
  });

  it("calls an accept without content invalid, not a cancel", () => {
    expect(readElicitation({ action: "accept" }, Region)).toEqual({
      status: "invalid",
      message: "the answer was accepted without content",
    });
  });

  it("names at most five fields, each cut, and counts the rest", () => {
    const content = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, "x"]));
    content["k".repeat(100_000)] = "x";
    for (const schema of [
      z.record(z.string(), z.number()),
      { type: "object", additionalProperties: { type: "number" } },
    ]) {
      const answer = readElicitation({ action: "accept", content }, schema) as { message: string };
      expect(answer.message.length).toBeLessThan(300);
    }
    expect(readElicitation({ action: "accept", content }, z.record(z.string(), z.number()))).toEqual({
      status: "invalid",
      message: "the answer does not match the requested schema (fields: f0, f1, f2, f3, f4, and 9996 more)",
    });
    expect(
      readElicitation(
        { action: "accept", content: { ["k".repeat(100_000)]: "x" } },
        z.record(z.string(), z.number()),
      ),
    ).toEqual({
      status: "invalid",
      message: `the answer does not match the requested schema (fields: ${"k".repeat(100)}…)`,
    });
  });

  it("calls content that does not match invalid, naming only the fields", () => {
    for (const schema of [Region, regionJson]) {
      const answer = readElicitation({ action: "accept", content: { region: "mars-1" } }, schema);
      expect(answer).toEqual({
        status: "invalid",
        message: "the answer does not match the requested schema (fields: region)",
      });
    }
    const message = (
      readElicitation({ action: "accept", content: { region: "mars-1" } }, Region) as { message: string }
    ).message;
    expect(message).not.toMatch(/eu-west-1|expected|enum|Invalid option|mars/);
  });

  it("calls an answer of the wrong kind invalid", () => {
    const sampled = { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } as InputResponse;
    expect(readElicitation(sampled, Region)).toEqual({
      status: "invalid",
      message: "the answer is not an elicitation result",
    });
    expect(readElicitation("yes" as unknown as InputResponse, Region)).toMatchObject({ status: "invalid" });
  });

  it("leaves the answer untouched", () => {
    const response = { action: "accept" as const, content: { region: "eu-west-1" } };
    const copy = structuredClone(response);
    readElicitation(response, Region);
    expect(response).toEqual(copy);
  });

  it("refuses a schema that validates asynchronously, at the call", () => {
    const asyncSchema = {
      "~standard": { version: 1 as const, vendor: "async", validate: async (value: unknown) => ({ value }) },
    };
    expect(() => readElicitation({ action: "accept", content: {} }, asyncSchema)).toThrow(/asynchronously/);
  });
});

describe("readElicitation before the JSON Schema engines have loaded", () => {
  it("refuses a raw schema on every round, and checks answers once they have loaded", async () => {
    vi.resetModules();
    const fresh = await import("./elicitation-answer.js");
    const loader = await import("./json-schema-loader.js");
    const schema = { type: "object", properties: { region: { type: "string" } }, required: ["region"] };
    const answer = { action: "accept", content: { region: 7 } } as const;
    expect(loader.loadedJsonSchemaEngines()).toBeUndefined();
    // The first round (no answer yet) is refused too, so the missing preload shows in development.
    expect(() => fresh.readElicitation(undefined, schema)).toThrow(/preloadJsonSchemaEngines/);
    expect(() => fresh.readElicitation(answer as never, schema)).toThrow(
      /JSON Schema engines loaded.*preloadJsonSchemaEngines/,
    );
    await loader.preloadJsonSchemaEngines();
    expect(fresh.readElicitation(answer as never, schema)).toMatchObject({ status: "invalid" });
    vi.resetModules();
  });
});
