/**
 * What one `ctx.ask(...)` call asks: its questions with their input keys. `ask(q)` uses the key
 * `ask-<step>` (the 1-based position of the step in the call), `ask(key, q)` the key given,
 * `ask({ a: q1, b: q2 })` one key per question, asked in one round.
 */
import type { ResolverOutcome } from "./outcome.js";
import { isQuestion, type Question } from "./question.js";

/** One `ask` call's questions, by input key, and whether it was a single question. */
export interface AskSpec {
  readonly entries: readonly (readonly [string, Question])[];
  readonly single: boolean;
}

/** The key of a keyless `ask(question)` at 1-based step `step`. */
export function defaultAskKey(step: number): string {
  return `ask-${step}`;
}

function checkKey(key: string, where: string): void {
  if (key === "" || key.length > 200) {
    throw new TypeError(`${where}: an input key must be a non-empty string of at most 200 characters`);
  }
}

/**
 * Reads the arguments of `ask` / `askOutcome` at 1-based step `step`.
 *
 * @throws TypeError for anything but a question, a key and a question, or a non-empty object of
 *   questions.
 */
export function readAskSpec(args: readonly unknown[], step: number, where: string): AskSpec {
  const [first, second] = args;
  if (typeof first === "string") {
    checkKey(first, where);
    if (!isQuestion(second))
      throw new TypeError(`${where}("${first}", question): pass elicit(...), sample(...) or listRoots()`);
    return { entries: [[first, second]], single: true };
  }
  if (isQuestion(first)) return { entries: [[defaultAskKey(step), first]], single: true };
  if (typeof first === "object" && first !== null && !Array.isArray(first)) {
    const entries = Object.entries(first);
    if (entries.length === 0) throw new TypeError(`${where}({}): pass at least one question`);
    for (const [key, question] of entries) {
      checkKey(key, where);
      if (!isQuestion(question)) {
        throw new TypeError(
          `${where}: "${key}" is not a question; pass elicit(...), sample(...) or listRoots()`,
        );
      }
    }
    return { entries: entries as [string, Question][], single: false };
  }
  throw new TypeError(
    `${where}: pass a question (elicit, sample, listRoots), a key and a question, or an object of questions`,
  );
}

/** The outcomes of an ask as its caller gets them (one, or an object by key). */
export function shapeOutcomes(
  spec: AskSpec,
  outcomes: ReadonlyMap<string, ResolverOutcome<unknown>>,
  wantOutcome: boolean,
  reject: (key: string, outcome: ResolverOutcome<unknown>) => never,
): unknown {
  const answerOf = (key: string): unknown => {
    const outcome = outcomes.get(key) as ResolverOutcome<unknown>;
    if (wantOutcome) return outcome;
    return outcome.status === "accepted" ? outcome.content : reject(key, outcome);
  };
  if (spec.single) return answerOf((spec.entries[0] as readonly [string, Question])[0]);
  return Object.fromEntries(spec.entries.map(([key]) => [key, answerOf(key)]));
}
