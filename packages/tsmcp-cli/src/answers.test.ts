import type { InputRequestContext } from "tsmcp/client";
import type { ElicitRequestParams } from "tsmcp/types";
import { describe, expect, it } from "vitest";
import {
  AnswerRejectedError,
  answerCallbacks,
  CLI_SAMPLING_MODEL,
  parseAnswer,
  parseAnswersFile,
  UnansweredInputError,
} from "./answers.js";

const FORM: ElicitRequestParams = {
  message: "Which region?",
  requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
};

function context(key: string, era: "modern" | "legacy" = "modern"): InputRequestContext {
  return { key, era, round: 1, method: "tools/call", target: "t", signal: new AbortController().signal };
}

const scripted = (answers: [string, Record<string, string>][], declines: string[] = []) => ({
  answers: new Map(answers),
  declines: new Set(declines),
  sampleReply: undefined,
  roots: ["file:///work"],
});

describe("scripted answers", () => {
  it("reads --answer key=<json object>, refusing anything else", () => {
    expect(parseAnswer('region={"region":"eu"}')).toEqual(["region", { region: "eu" }]);
    expect(() => parseAnswer("region")).toThrow(/key=<json object>/);
    expect(() => parseAnswer("region=eu")).toThrow(/not JSON/);
    expect(() => parseAnswer("region=[1]")).toThrow(/must be a JSON object/);
    expect(() => parseAnswer('region={"a":{"b":1}}')).toThrow(/field a must be/);
    expect(parseAnswersFile({ a: { x: ["p", "q"], y: null } })).toEqual([["a", { x: ["p", "q"], y: null }]]);
    expect(() => parseAnswersFile([])).toThrow(/JSON object/);
  });

  it("answers by key, declines by key, and reports each answer", async () => {
    const lines: string[] = [];
    const { elicitationCallback } = answerCallbacks(
      scripted([["region", { region: "eu" }]], ["other"]),
      undefined,
      (line) => lines.push(line),
    );
    expect(await elicitationCallback?.(FORM, context("region"))).toEqual({
      action: "accept",
      content: { region: "eu" },
    });
    expect(await elicitationCallback?.(FORM, context("other"))).toEqual({ action: "decline" });
    expect(lines).toEqual([
      'round 1 · region: Which region? -> accept {"region":"eu"}',
      "round 1 · other: Which region? -> decline",
    ]);
  });

  it("matches a 2025-era request by the form's fields, only when one answer fits", async () => {
    const one = answerCallbacks(
      scripted([
        ["r", { region: "eu" }],
        ["n", { notes: "x" }],
      ]),
      undefined,
      () => {},
    );
    expect(await one.elicitationCallback?.(FORM, context("7", "legacy"))).toEqual({
      action: "accept",
      content: { region: "eu" },
    });
    const two = answerCallbacks(
      scripted([
        ["a", { region: "eu" }],
        ["b", { region: "us" }],
      ]),
      undefined,
      () => {},
    );
    await expect(two.elicitationCallback?.(FORM, context("7", "legacy"))).rejects.toThrow(
      UnansweredInputError,
    );
  });

  it("refuses an unanswered question naming its key and schema, and records it", async () => {
    const unanswered: UnansweredInputError[] = [];
    const { elicitationCallback, samplingCallback } = answerCallbacks(
      scripted([]),
      undefined,
      () => {},
      unanswered,
    );
    await expect(elicitationCallback?.(FORM, context("region"))).rejects.toThrow(
      /"region".*\n[\s\S]*"requestedSchema"/,
    );
    await expect(samplingCallback?.({ messages: [], maxTokens: 10 }, context("s"))).rejects.toThrow(
      /--sample-reply/,
    );
    expect(unanswered.map((error) => error.key)).toEqual(["region", "s"]);
  });

  it("answers sampling with --sample-reply and roots with --root", async () => {
    const { samplingCallback, listRootsCallback } = answerCallbacks(
      { ...scripted([]), sampleReply: "hello" },
      undefined,
      () => {},
    );
    expect(await samplingCallback?.({ messages: [], maxTokens: 10 }, context("s"))).toEqual({
      role: "assistant",
      content: { type: "text", text: "hello" },
      model: CLI_SAMPLING_MODEL,
    });
    expect(await listRootsCallback?.(context("r"))).toEqual({ roots: [{ uri: "file:///work" }] });
  });

  it("pins the model name a scripted sampling reply is sent under", () => {
    expect(CLI_SAMPLING_MODEL).toBe("tsmcp-cli");
  });

  it("refuses, before sending, a scripted answer that does not fit the schema, naming field, value and schema", async () => {
    const unanswered: UnansweredInputError[] = [];
    const form: ElicitRequestParams = {
      message: "Which region?",
      requestedSchema: {
        type: "object",
        properties: { region: { type: "string", enum: ["eu", "us"] }, size: { type: "integer", maximum: 9 } },
        required: ["region"],
      },
    };
    const callbacks = (answer: Record<string, unknown>) =>
      answerCallbacks(
        { ...scripted([]), answers: new Map([["region", answer as Record<string, string>]]) },
        undefined,
        () => {},
        unanswered,
      ).elicitationCallback?.(form, context("region"));
    await expect(callbacks({ region: "mars" })).rejects.toThrow(
      /field region "mars" is not one of eu, us; it asks:\n[\s\S]*"requestedSchema"/,
    );
    await expect(callbacks({ region: "eu", size: 10 })).rejects.toThrow(/field size 10 is not at most 9/);
    await expect(callbacks({ region: "eu", size: "3" })).rejects.toThrow(
      /field size "3" is not a whole number/,
    );
    await expect(callbacks({ size: 3 })).rejects.toThrow(/field region is required/);
    expect(await callbacks({ region: "us", size: 3 })).toEqual({
      action: "accept",
      content: { region: "us", size: 3 },
    });
    expect(unanswered).toHaveLength(4);
    expect(unanswered[0]).toBeInstanceOf(AnswerRejectedError);
  });

  it("stops when the server asks the same question again after a scripted answer; a person is asked again", async () => {
    const unanswered: UnansweredInputError[] = [];
    const { elicitationCallback } = answerCallbacks(
      scripted([["region", { region: "eu" }]]),
      undefined,
      () => {},
      unanswered,
    );
    expect(await elicitationCallback?.(FORM, context("region"))).toEqual({
      action: "accept",
      content: { region: "eu" },
    });
    await expect(elicitationCallback?.(FORM, context("region"))).rejects.toThrow(
      /the server asked for "region" again after the answer accept \{"region":"eu"\}; it did not accept it/,
    );
    expect(unanswered[0]).toBeInstanceOf(AnswerRejectedError);
    // A changed question under the same key is answered again.
    const changed = { ...FORM, message: "Which region? (eu is full)" };
    const fresh = answerCallbacks(scripted([["region", { region: "eu" }]]), undefined, () => {});
    await fresh.elicitationCallback?.(FORM, context("region"));
    expect(await fresh.elicitationCallback?.(changed, context("region"))).toMatchObject({ action: "accept" });
    // With no scripted answer, the person at the terminal is simply asked again.
    let asked = 0;
    const person = answerCallbacks(
      scripted([]),
      {
        elicit: async () => {
          asked++;
          return { action: "accept", content: { region: "eu" } };
        },
        sample: async () => undefined,
      },
      () => {},
    );
    await person.elicitationCallback?.(FORM, context("region"));
    await person.elicitationCallback?.(FORM, context("region"));
    expect(asked).toBe(2);
  });
});
