/**
 * The capability gate: each kind of question needs its capability declared on the request, and a
 * missing one is -32021 with `data.requiredCapabilities`.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpError } from "../../protocol/errors.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import { requireCapability } from "./capabilities.js";
import { elicit } from "./elicit.js";
import { listRoots } from "./list-roots.js";
import type { Question } from "./question.js";
import { sample } from "./sample.js";

const form = elicit("Sure?", z.object({ ok: z.boolean() }));
const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];
const sampling = sample({ messages, maxTokens: 10 });
const samplingWithTools = sample({ messages, maxTokens: 10, toolChoice: { mode: "auto" } });
const roots = listRoots();

function refusal(question: Question, capabilities: ClientCapabilities): McpError | undefined {
  try {
    requireCapability("r", question, capabilities);
    return undefined;
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
}

describe("the capability gate", () => {
  it.each<[string, Question, ClientCapabilities]>([
    ["a form with elicitation.form", form, { elicitation: { form: {} } }],
    ["a form with a bare elicitation", form, { elicitation: {} }],
    ["a form with both modes", form, { elicitation: { form: {}, url: {} } }],
    ["sampling with sampling", sampling, { sampling: {} }],
    ["sampling with tools with sampling.tools", samplingWithTools, { sampling: { tools: {} } }],
    ["roots with roots", roots, { roots: {} }],
  ])("lets %s through", (_label, question, capabilities) => {
    expect(refusal(question, capabilities)).toBeUndefined();
  });

  it.each<[string, Question, ClientCapabilities, string, ClientCapabilities]>([
    ["a form without elicitation", form, {}, "form elicitation", { elicitation: { form: {} } }],
    [
      "a form with URL mode only",
      form,
      { elicitation: { url: {} } },
      "form elicitation",
      { elicitation: { form: {} } },
    ],
    ["sampling without sampling", sampling, { roots: {} }, "sampling", { sampling: {} }],
    [
      "sampling with tools without sampling.tools",
      samplingWithTools,
      { sampling: {} },
      "sampling.tools",
      { sampling: { tools: {} } },
    ],
    ["roots without roots", roots, { sampling: {} }, "roots", { roots: {} }],
  ])("refuses %s with -32021", (_label, question, capabilities, label, required) => {
    const error = refusal(question, capabilities);
    expect(error?.code).toBe(-32021);
    expect(error?.message).toBe(`Client did not declare the ${label} capability required by resolver 'r'`);
    expect(error?.data).toEqual({ requiredCapabilities: required });
  });
});
