/**
 * The answers the command gives to a server's input requests: scripted ones (`--answer`,
 * `--answers`, `--decline`, `--sample-reply`, `--root`) first, then a person at the terminal when
 * there is one, else a refusal naming the unanswered key and what it asks for.
 * Spec: client/elicitation, client/sampling, client/roots, basic/patterns/mrtr.
 */

import type {
  ElicitationCallback,
  InputCallbacks,
  InputRequestContext,
  ListRootsCallback,
  SamplingCallback,
} from "tsmcp/client";
import { InputUnavailableError } from "tsmcp/client";
import type { ElicitRequestParams, ElicitResult } from "tsmcp/types";
import { checkAnswer } from "./check-answer.js";
import { type Asker, describe, type ElicitContent } from "./elicit-content.js";

export type { Asker, ElicitContent };
export { describe };

/** What the command was told to answer with. */
export interface ScriptedAnswers {
  /** Form contents by input request key (`--answer key=<json>`, `--answers <file>`). */
  readonly answers: ReadonlyMap<string, ElicitContent>;
  /** Keys to decline (`--decline key`). */
  readonly declines: ReadonlySet<string>;
  /** The text every sampling request is answered with (`--sample-reply`). */
  readonly sampleReply: string | undefined;
  /**
   * The root URIs `roots/list` is answered with (`--root`); none declares no roots capability, so
   * a server keeps working where it was told to.
   */
  readonly roots: readonly string[];
}

/** The model name a scripted or typed sampling reply is sent under. */
export const CLI_SAMPLING_MODEL = "tsmcp-cli";

/** An input request nothing answers: no scripted answer and no terminal to ask at. */
export class UnansweredInputError extends InputUnavailableError {
  override readonly name: string = "UnansweredInputError";
  /** The command's stable code for this failure, `"ERR_UNANSWERED_INPUT"`. */
  override readonly code: string = "ERR_UNANSWERED_INPUT";

  constructor(
    /** The input request's key. */
    readonly key: string,
    /** What it asks: the elicitation's message and schema (or URL), or the sampling request. */
    readonly asks: unknown,
    hint: string,
  ) {
    super(
      `no answer for input request "${key}" and no terminal to ask at (${hint}); it asks:\n${JSON.stringify(asks, null, 2)}`,
    );
  }
}

/**
 * A scripted answer the server cannot take: a field that does not fit the question's
 * `requestedSchema` (found before sending), or a question the server asked again, unchanged,
 * after the answer was sent (it did not accept it). Like an unanswered question, it ends the
 * command with exit code 2.
 */
export class AnswerRejectedError extends UnansweredInputError {
  override readonly name: string = "AnswerRejectedError";
  /** The command's stable code for this failure, `"ERR_ANSWER_REJECTED"`. */
  override readonly code: string = "ERR_ANSWER_REJECTED";

  constructor(
    key: string,
    asks: unknown,
    /** The scripted answer. */
    readonly answer: ElicitResult,
    reason: string,
  ) {
    super(key, asks, reason);
    this.message = `${reason}; it asks:\n${JSON.stringify(asks, null, 2)}`;
  }
}

/** Reads `--answer key=<json>`: the key and the form content (a JSON object). */
export function parseAnswer(text: string): [string, ElicitContent] {
  const at = text.indexOf("=");
  if (at <= 0) throw new TypeError(`--answer must be key=<json object>, got ${JSON.stringify(text)}`);
  const key = text.slice(0, at);
  let content: unknown;
  try {
    content = JSON.parse(text.slice(at + 1));
  } catch {
    throw new TypeError(`--answer ${key}: the value is not JSON: ${text.slice(at + 1)}`);
  }
  return [key, asContent(key, content)];
}

/** Reads the object of an `--answers` file: each key's form content. */
export function parseAnswersFile(json: unknown): [string, ElicitContent][] {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TypeError("--answers file must hold a JSON object: { key: { field: value } }");
  }
  return Object.entries(json).map(([key, content]) => [key, asContent(key, content)]);
}

function asContent(key: string, content: unknown): ElicitContent {
  if (typeof content !== "object" || content === null || Array.isArray(content)) {
    throw new TypeError(
      `the answer to ${key} must be a JSON object (the form's fields), got ${JSON.stringify(content)}`,
    );
  }
  for (const [field, value] of Object.entries(content)) {
    const primitive = value === null || ["string", "number", "boolean"].includes(typeof value);
    const strings = Array.isArray(value) && value.every((item) => typeof item === "string");
    if (!primitive && !strings) {
      throw new TypeError(
        `the answer to ${key}: field ${field} must be a string, number, boolean, list of strings or null`,
      );
    }
  }
  return content as ElicitContent;
}

/**
 * The scripted answer to an elicitation, if any: by key, or on a 2025-era session (where the key
 * is the server's request id, which no one can know in advance) the one scripted answer whose
 * fields the form has, including every required one. `--decline` names the key there too, or on a
 * 2025-era session one of the form's fields.
 */
function scriptedAnswer(
  scripted: ScriptedAnswers,
  params: ElicitRequestParams,
  context: InputRequestContext,
): ElicitResult | undefined {
  const byKey = scripted.answers.get(context.key);
  if (scripted.declines.has(context.key)) return { action: "decline" };
  if (byKey !== undefined)
    return params.mode === "url" ? { action: "accept" } : { action: "accept", content: byKey };
  if (context.era !== "legacy" || params.mode === "url") return undefined;
  const fields = Object.keys(params.requestedSchema.properties);
  if (fields.some((field) => scripted.declines.has(field))) return { action: "decline" };
  const required = params.requestedSchema.required ?? [];
  const fitting = [...scripted.answers.values()].filter(
    (content) =>
      Object.keys(content).every((field) => fields.includes(field)) &&
      required.every((field) => field in content),
  );
  return fitting.length === 1 && fitting[0] !== undefined
    ? { action: "accept", content: fitting[0] }
    : undefined;
}

/**
 * The client callbacks for a command: each asks `scripted` first, then `asker` (a terminal), and
 * throws {@link UnansweredInputError} when neither answers, also recording it in `unanswered` (a
 * 2025-era server sees only that the callback failed). `report` is told each answer given (round,
 * key, question, answer), for the person to see each round. Roots are answered only when
 * `scripted.roots` names some: without them there is no `listRootsCallback`, hence no roots
 * capability.
 */
export function answerCallbacks(
  scripted: ScriptedAnswers,
  asker: Asker | undefined,
  report: (line: string) => void,
  unanswered: UnansweredInputError[] = [],
): InputCallbacks {
  const refuse = (error: UnansweredInputError): never => {
    unanswered.push(error);
    throw error;
  };
  /** The scripted answers sent, by key, with the question they answered (JSON). */
  const sent = new Map<string, { question: string; result: ElicitResult }>();
  const elicitationCallback: ElicitationCallback = async (params, context) => {
    const question = params.mode === "url" ? `${params.message} (${params.url})` : params.message;
    const asks =
      params.mode === "url"
        ? { message: params.message, url: params.url }
        : { message: params.message, requestedSchema: params.requestedSchema };
    const asked = JSON.stringify(asks);
    const earlier = sent.get(context.key);
    if (earlier !== undefined && earlier.question === asked) {
      // Sending the same answer again would loop until the round cap: stop now.
      return refuse(
        new AnswerRejectedError(
          context.key,
          asks,
          earlier.result,
          `the server asked for "${context.key}" again after the answer ${describe(earlier.result)}; it did not accept it`,
        ),
      );
    }
    const result = scriptedAnswer(scripted, params, context);
    if (result !== undefined && params.mode !== "url" && result.content !== undefined) {
      const mismatch = checkAnswer(result.content, params.requestedSchema);
      if (mismatch !== undefined) {
        const value = mismatch.value === undefined ? "" : ` ${JSON.stringify(mismatch.value)}`;
        return refuse(
          new AnswerRejectedError(
            context.key,
            asks,
            result,
            `the answer to "${context.key}" does not fit the question: field ${mismatch.field}${value} ${mismatch.problem}`,
          ),
        );
      }
    }
    if (result !== undefined) sent.set(context.key, { question: asked, result });
    if (result === undefined) {
      if (asker !== undefined) return asker.elicit(params, context);
      return refuse(
        new UnansweredInputError(
          context.key,
          asks,
          context.era === "legacy"
            ? `a 2025-era request has no key: pass --answer ${context.key}=<json> (${context.key} is the server's request id), or --answer <any name>=<json object of the form's fields>, or --decline <field>`
            : `pass --answer ${context.key}=<json> or --decline ${context.key}`,
        ),
      );
    }
    report(`round ${context.round} · ${context.key}: ${question} -> ${describe(result)}`);
    return result;
  };
  const samplingCallback: SamplingCallback = async (params, context) => {
    let text = scripted.sampleReply;
    if (text === undefined && asker !== undefined) {
      text = await asker.sample(params, context);
      if (text === undefined) {
        return refuse(new UnansweredInputError(context.key, params, "the sampling request was cancelled"));
      }
    }
    if (text === undefined)
      return refuse(new UnansweredInputError(context.key, params, "pass --sample-reply <text>"));
    report(`round ${context.round} · ${context.key}: sampling -> ${JSON.stringify(text)}`);
    return { role: "assistant", content: { type: "text", text }, model: CLI_SAMPLING_MODEL };
  };
  const listRootsCallback: ListRootsCallback = (context) => {
    report(`round ${context.round} · ${context.key}: roots -> ${scripted.roots.join(", ")}`);
    return { roots: scripted.roots.map((uri) => ({ uri })) };
  };
  if (scripted.roots.length === 0) return { elicitationCallback, samplingCallback };
  return { elicitationCallback, samplingCallback, listRootsCallback };
}
