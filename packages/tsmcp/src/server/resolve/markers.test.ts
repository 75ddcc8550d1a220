/**
 * The question markers: `elicit`, `sample` and `listRoots` render the exact request they ask, pin
 * it with a digest, and refuse a question the wire cannot carry when they are built.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { CreateMessageRequestParams } from "../../protocol/schema/input.js";
import { QUESTION_DIGEST_LENGTH, questionDigest } from "./digest.js";
import { elicit } from "./elicit.js";
import { listRoots } from "./list-roots.js";
import { isQuestion } from "./question.js";
import { sample } from "./sample.js";

const Region = z.object({ region: z.enum(["eu", "us"]) });

describe("elicit", () => {
  it("renders a form-mode elicitation with a flat requestedSchema, frozen", () => {
    const marker = elicit("Which region?", Region);
    expect(marker.request).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Which region?",
        requestedSchema: {
          type: "object",
          properties: { region: { type: "string", enum: ["eu", "us"] } },
          required: ["region"],
        },
      },
    });
    expect(Object.isFrozen(marker.request.params)).toBe(true);
    expect(marker.digest).toBe(questionDigest(marker.request.params));
    expect(isQuestion(marker)).toBe(true);
  });

  it("gives the same digest for the same question and another for a reworded or re-schemed one", () => {
    const asked = elicit("Which region?", Region);
    expect(elicit("Which region?", z.object({ region: z.enum(["eu", "us"]) })).digest).toBe(asked.digest);
    expect(elicit("Which region, please?", Region).digest).not.toBe(asked.digest);
    expect(elicit("Which region?", z.object({ region: z.enum(["eu", "us", "ap"]) })).digest).not.toBe(
      asked.digest,
    );
  });

  it("validates accepted content with the schema, giving its output", async () => {
    const marker = elicit("How many?", z.object({ count: z.number().default(1) }));
    await expect(marker.validate({})).resolves.toEqual({ ok: true, value: { count: 1 } });
    await expect(marker.validate({ count: "x" })).resolves.toMatchObject({ ok: false });
  });

  it("refuses an empty message and a schema the wire cannot express", () => {
    expect(() => elicit("", Region)).toThrow(TypeError);
    expect(() => elicit("Where?", z.object({ at: z.object({ lat: z.number() }) }))).toThrow(
      /elicit: schema: property 'at' has type "object"/,
    );
    expect(() => elicit("Where?", 42 as never)).toThrow(TypeError);
  });
});

describe("sample", () => {
  const params: CreateMessageRequestParams = {
    messages: [{ role: "user", content: { type: "text", text: "Summarise" } }],
    maxTokens: 100,
  };

  it("renders a sampling request from a copy of the params", () => {
    const given = structuredClone(params);
    const marker = sample(given);
    given.maxTokens = 5;
    expect(marker.request).toEqual({ method: "sampling/createMessage", params });
    expect(marker.usesTools).toBe(false);
    expect(marker.digest).toBe(questionDigest(params));
  });

  it("is in tools mode when tools or toolChoice is set", () => {
    expect(sample({ ...params, toolChoice: { mode: "auto" } }).usesTools).toBe(true);
    expect(sample({ ...params, tools: [{ name: "t", inputSchema: { type: "object" } }] }).usesTools).toBe(
      true,
    );
  });

  it("refuses invalid params, no messages, and a non-positive maxTokens", () => {
    expect(() => sample({ messages: [] } as never)).toThrow(/sample: maxTokens/);
    expect(() => sample({ ...params, messages: [] })).toThrow("sample: messages must not be empty");
    expect(() => sample({ ...params, maxTokens: 0 })).toThrow(RangeError);
  });

  it("refuses tool results that do not answer the tool uses right before them", () => {
    const use = { type: "tool_use" as const, id: "u1", name: "lookup", input: {} };
    const result = (id: string) => ({ type: "tool_result" as const, toolUseId: id, content: [] });
    const ok = sample({
      ...params,
      messages: [
        { role: "user", content: { type: "text", text: "go" } },
        { role: "assistant", content: [use] },
        { role: "user", content: [result("u1")] },
      ],
    });
    expect(ok.request.params.messages).toHaveLength(3);
    expect(() =>
      sample({
        ...params,
        messages: [
          { role: "assistant", content: [use] },
          { role: "user", content: [result("u2")] },
        ],
      }),
    ).toThrow(/must answer exactly the tool uses/);
    expect(() =>
      sample({
        ...params,
        messages: [
          { role: "assistant", content: [use] },
          { role: "user", content: [result("u1"), { type: "text", text: "and" }] },
        ],
      }),
    ).toThrow(/only tool results/);
  });
});

describe("listRoots", () => {
  it("renders roots/list without params, its digest that of null", () => {
    const marker = listRoots();
    expect(marker.request).toEqual({ method: "roots/list" });
    expect(marker.digest).toBe(questionDigest(null));
  });
});

describe("the question digest", () => {
  it("is 22 base64url characters and pinned for a known question", () => {
    expect(questionDigest(null)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(questionDigest(null)).toHaveLength(QUESTION_DIGEST_LENGTH);
    expect(questionDigest(null)).toBe("dCNOmK_nSY-12vHzasLXig");
    expect(elicit("Which region?", z.object({})).digest).toBe("ndG1FWJ1bNQUsyxnwtbOgg");
  });

  it("differs whenever the rendered params differ", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        fc.pre(a !== b);
        return questionDigest({ message: a }) !== questionDigest({ message: b });
      }),
    );
  });
});
