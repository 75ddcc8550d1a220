/**
 * Reading an answer to a resolver's question: the client's response (untrusted) or a recorded
 * outcome, checked against the question it answers. An elicitation must be an elicitation result
 * whose accepted content matches the schema; a sampling or roots answer must be a result of that
 * kind. The reading says what the consumer gets and what to record, or why the answer is unusable
 * (in words that leak no validator detail). Spec: basic/patterns/mrtr (answers are untrusted input).
 */
import {
  CreateMessageResultSchema,
  ListRootsResultSchema,
  type SamplingMessageContentBlock,
} from "../../protocol/schema/input.js";
import { isPlainObject } from "../schema/json.js";
import type { ResolverOutcome } from "./outcome.js";
import type { Question } from "./question.js";
import { type OffSchema, offSchema } from "./reask.js";
import type { RecordedOutcome } from "./state.js";

/** What a recorded outcome holds besides its question digest. */
export type OutcomeRecord =
  | { readonly action: "accept"; readonly data: unknown }
  | { readonly action: "decline" | "cancel" };

/** A usable answer (its outcome, and what to record) or an unusable one (why). */
export type AnswerReading =
  | { readonly ok: true; readonly outcome: ResolverOutcome<unknown>; readonly record: OutcomeRecord }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Present for accepted content that does not match the form (the question may be asked again). */
      readonly offSchema?: OffSchema;
    };

const ACTIONS = new Set(["accept", "decline", "cancel"]);
const SINGLE_BLOCK_TYPES = new Set(["text", "image", "audio"]);

function unusable(reason: string): AnswerReading {
  return { ok: false, reason };
}

async function readElicitAnswer(
  name: string,
  question: Extract<Question, { kind: "elicit" }>,
  response: unknown,
): Promise<AnswerReading> {
  if (!isPlainObject(response) || !ACTIONS.has(response.action as string)) {
    return unusable(`The client's answer to resolver '${name}' is not an elicitation result.`);
  }
  if (response.action === "decline")
    return { ok: true, outcome: { status: "declined" }, record: { action: "decline" } };
  if (response.action === "cancel")
    return { ok: true, outcome: { status: "cancelled" }, record: { action: "cancel" } };
  const content = response.content;
  if (!isPlainObject(content)) {
    return unusable(`The client accepted the question of resolver '${name}' but sent no content.`);
  }
  const checked = await question.validate(content);
  if (!checked.ok) {
    const off = offSchema(checked.issues);
    return {
      ok: false,
      reason: `The answer to resolver '${name}' does not match the requested schema (fields: ${off.fields}).`,
      offSchema: off,
    };
  }
  return {
    ok: true,
    outcome: { status: "accepted", content: checked.value },
    record: { action: "accept", data: structuredClone(content) },
  };
}

function isPlainCompletion(content: SamplingMessageContentBlock | SamplingMessageContentBlock[]): boolean {
  return !Array.isArray(content) && SINGLE_BLOCK_TYPES.has(content.type);
}

function readResultAnswer(name: string, question: Question, response: unknown): AnswerReading {
  const answer = `The client's answer to resolver '${name}'`;
  if (question.kind === "sample") {
    const parsed = CreateMessageResultSchema.safeParse(response);
    if (!parsed.success) return unusable(`${answer} is not a sampling result.`);
    // Without tools the answer is one text, image or audio block; with tools it may be several.
    if (!question.usesTools && !isPlainCompletion(parsed.data.content)) {
      return unusable(`${answer} is not a sampling result with a single text, image or audio block.`);
    }
    return {
      ok: true,
      outcome: { status: "accepted", content: parsed.data },
      record: { action: "accept", data: structuredClone(response) },
    };
  }
  const parsed = ListRootsResultSchema.safeParse(response);
  if (!parsed.success) return unusable(`${answer} is not a roots list.`);
  return {
    ok: true,
    outcome: { status: "accepted", content: parsed.data },
    record: { action: "accept", data: structuredClone(response) },
  };
}

/**
 * Reads the client's response to `question` (asked by resolver `name`). Never throws for anything
 * the client sent; the response is not modified (what is recorded is a copy).
 *
 * Unusable (the reason is one English sentence naming the resolver): for a form, anything but an
 * elicitation result, `accept` without content (an error, not a cancel), or content that does not
 * match the schema (the reason names the fields only; `offSchema` carries the validation note to
 * ask again with); for sampling or roots, anything but a result
 * of that kind, including a decline. A sampling answer to a request without tools must be a single
 * text, image or audio block.
 */
export async function readAnswer(
  name: string,
  question: Question,
  response: unknown,
): Promise<AnswerReading> {
  return question.kind === "elicit"
    ? await readElicitAnswer(name, question, response)
    : readResultAnswer(name, question, response);
}

/** The response a recorded outcome stands for, to read it again against the live question. */
export function responseOf(question: Question, recorded: RecordedOutcome): unknown {
  if (recorded.action !== "accept") return { action: recorded.action };
  return question.kind === "elicit" ? { action: "accept", content: recorded.data } : recorded.data;
}
