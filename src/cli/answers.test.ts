import type { InputRequestContext } from "tsmcp/client";
import type { ElicitRequestParams } from "tsmcp/types";
import { describe, expect, it } from "vitest";
import {
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
});
