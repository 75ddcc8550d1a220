/**
 * Asking again after an off-schema answer: an accepted form answer whose content does not match the
 * schema is a person's mistake, not a client's bug, so the question is asked again, a bounded number
 * of times, with the validation message appended to its text. Past the bound the call fails. Every
 * other unusable answer (not an elicitation result, accepted without content, of the wrong kind)
 * fails the call at once. Spec: client/elicitation (form mode), basic/patterns/mrtr.
 */
import type { ElicitRequest } from "../../protocol/schema/input.js";
import { describeIssueFields, describeIssues, type SchemaIssue } from "../schema/issues.js";
import { deepFreeze } from "../schema/json.js";
import { ResolverError } from "./errors.js";
import type { Question } from "./question.js";

/**
 * How many times an off-schema answer to one question is asked again by default before the call
 * ends with an `isError` result: 2 (three answers in all).
 */
export const DEFAULT_MAX_INVALID_ANSWER_RETRIES = 2;

/** The most re-asks `maxInvalidAnswerRetries` may allow. */
export const MAX_INVALID_ANSWER_RETRIES_LIMIT = 100;

/** Why an accepted answer does not fit its form: what to tell the person, and which fields. */
export interface OffSchema {
  /** The sentence appended to the question when it is asked again (quotes the validation messages). */
  readonly note: string;
  /** The offending fields only (for the final error, which quotes no validator text). */
  readonly fields: string;
}

/** The {@link OffSchema} of validation `issues`. */
export function offSchema(issues: readonly SchemaIssue[]): OffSchema {
  return {
    note: `Your previous answer was not accepted (${describeIssues(issues)}). Please answer again.`,
    fields: describeIssueFields(issues),
  };
}

/** An unusable answer as `readAnswer` reports it. */
export interface UnusableAnswer {
  readonly reason: string;
  /** Present when the answer was accepted content that does not match the form. */
  readonly offSchema?: OffSchema;
}

/**
 * What to do with an unusable answer to `question` after `retries` earlier re-asks of it: the
 * request to ask again (the same form, its message followed by a blank line and the validation
 * note; deeply frozen), when the answer was off-schema content and fewer than `maxRetries` re-asks
 * were made.
 *
 * @throws ResolverError otherwise: the reading's reason, or, once re-asks were spent,
 *   `The answer to resolver '<name>' still does not match the requested schema after <n> attempts (fields: ...).`
 */
export function reaskOrFail(
  name: string,
  question: Question,
  reading: UnusableAnswer,
  retries: number,
  maxRetries: number,
): ElicitRequest {
  const off = reading.offSchema;
  if (off === undefined || question.kind !== "elicit") throw new ResolverError(name, reading.reason);
  if (retries >= maxRetries) {
    if (retries === 0) throw new ResolverError(name, reading.reason);
    throw new ResolverError(
      name,
      `The answer to resolver '${name}' still does not match the requested schema after ${retries + 1} attempts ` +
        `(fields: ${off.fields}).`,
    );
  }
  const { params } = question.request;
  return deepFreeze({
    method: "elicitation/create",
    params: { ...params, message: `${params.message}\n\n${off.note}` },
  });
}
