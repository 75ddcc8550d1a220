/**
 * Reading the client's answer to a resolver question: what the consumer gets, what is recorded,
 * and why an answer is unusable, in words that leak no validator detail.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { readAnswer, responseOf } from "./answers.js";
import { elicit } from "./elicit.js";
import { listRoots } from "./list-roots.js";
import { sample } from "./sample.js";

const form = elicit("Which region?", z.object({ region: z.enum(["eu", "us"]), size: z.number().default(1) }));
const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];
const completion = { role: "assistant", content: { type: "text", text: "hello" }, model: "m" };

describe("an answer to a form", () => {
  it("gives the schema's output to the consumer and records the client's raw content", async () => {
    const response = { action: "accept", content: { region: "eu" } };
    const reading = await readAnswer("region", form, response);
    expect(reading).toEqual({
      ok: true,
      outcome: { status: "accepted", content: { region: "eu", size: 1 } },
      record: { action: "accept", data: { region: "eu" } },
    });
    expect(response).toEqual({ action: "accept", content: { region: "eu" } });
  });

  it("reads decline and cancel as outcomes", async () => {
    await expect(readAnswer("region", form, { action: "decline" })).resolves.toMatchObject({
      ok: true,
      outcome: { status: "declined" },
      record: { action: "decline" },
    });
    await expect(readAnswer("region", form, { action: "cancel" })).resolves.toMatchObject({
      ok: true,
      outcome: { status: "cancelled" },
    });
  });

  it("is unusable when it is not an elicitation result, accepted without content, or off-schema", async () => {
    await expect(readAnswer("region", form, completion)).resolves.toEqual({
      ok: false,
      reason: "The client's answer to resolver 'region' is not an elicitation result.",
    });
    await expect(readAnswer("region", form, { action: "accept" })).resolves.toEqual({
      ok: false,
      reason: "The client accepted the question of resolver 'region' but sent no content.",
    });
    const offSchema = await readAnswer("region", form, { action: "accept", content: { region: "mars" } });
    expect(offSchema).toEqual({
      ok: false,
      offSchema: {
        note: expect.stringMatching(
          /^Your previous answer was not accepted \(region: .+\)\. Please answer again\.$/,
        ),
        fields: "region",
      },
      reason: "The answer to resolver 'region' does not match the requested schema (fields: region).",
    });
  });
});

describe("an answer to sampling or roots", () => {
  it("is the result of that kind", async () => {
    const sampling = sample({ messages, maxTokens: 5 });
    await expect(readAnswer("s", sampling, completion)).resolves.toMatchObject({
      ok: true,
      outcome: { status: "accepted", content: completion },
      record: { action: "accept", data: completion },
    });
    const roots = { roots: [{ uri: "file:///work" }] };
    await expect(readAnswer("r", listRoots(), roots)).resolves.toMatchObject({
      ok: true,
      outcome: { status: "accepted", content: roots },
    });
  });

  it("is the wrong kind when it is another result, a decline, or tool content without tools", async () => {
    const wrong = { ok: false, reason: "The client's answer to resolver 's' is not a sampling result." };
    const sampling = sample({ messages, maxTokens: 5 });
    await expect(readAnswer("s", sampling, { roots: [] })).resolves.toEqual(wrong);
    await expect(readAnswer("s", sampling, { action: "decline" })).resolves.toEqual(wrong);
    const toolUse = { ...completion, content: [{ type: "tool_use", id: "1", name: "t", input: {} }] };
    await expect(readAnswer("s", sampling, toolUse)).resolves.toEqual({
      ok: false,
      reason:
        "The client's answer to resolver 's' is not a sampling result with a single text, image or audio block.",
    });
    const withTools = sample({ messages, maxTokens: 5, toolChoice: { mode: "auto" } });
    await expect(readAnswer("s", withTools, toolUse)).resolves.toMatchObject({ ok: true });
    await expect(readAnswer("s", withTools, completion)).resolves.toMatchObject({ ok: true });
    await expect(readAnswer("r", listRoots(), completion)).resolves.toEqual({
      ok: false,
      reason: "The client's answer to resolver 'r' is not a roots list.",
    });
  });

  it("stands for a recorded outcome: a recorded decline of a sampling question is unusable", async () => {
    const sampling = sample({ messages, maxTokens: 5 });
    const response = responseOf(sampling, { action: "decline", q: sampling.digest });
    await expect(readAnswer("s", sampling, response)).resolves.toMatchObject({ ok: false });
    expect(responseOf(form, { action: "accept", data: { region: "eu" }, q: form.digest })).toEqual({
      action: "accept",
      content: { region: "eu" },
    });
  });
});
