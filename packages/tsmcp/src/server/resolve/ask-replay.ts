/**
 * Await-style steps at 2026-07-28: the handler runs again from the top on every round. Each
 * `ctx.ask` / `ctx.once` is matched by position against the steps recorded in the plaintext
 * `requestState`: a recorded `once` returns its recorded result without running, a recorded
 * answer is returned again, and an answer in this round's `inputResponses` is read only for a
 * question that was pending in the previous round (same key, same question digest). A question
 * with no answer ends the round: every question pending this round goes out in one
 * `InputRequiredResult`, with the steps so far as its state. Spec: basic/patterns/mrtr.
 */
import { isInputRequired } from "../../protocol/methods.js";
import type { InputRequest, InputResponses } from "../../protocol/schema/input.js";
import type { RequestContext } from "../context.js";
import { inputRequired } from "../input-required.js";
import { readAnswer, responseOf } from "./answers.js";
import { AskPending, isAskPending, NonDeterministicHandlerError } from "./ask-errors.js";
import { StepSession, type StepSessionOptions } from "./ask-session.js";
import type { AskSpec } from "./ask-spec.js";
import { requireCapability } from "./capabilities.js";
import type { ResolverOutcome } from "./outcome.js";
import { reaskOrFail } from "./reask.js";
import { type AskStep, decodeSteps, encodeSteps, jsonCopy, recordedValue, type Step } from "./steps.js";

/** What the replay of one round reads. */
export interface ReplayInput extends StepSessionOptions {
  /** The request being served; its `clientCapabilities` gate the questions. */
  readonly ctx: RequestContext;
  /** The client's answers to the previous round's questions (untrusted), if any. */
  readonly inputResponses: InputResponses | undefined;
  /** The plaintext `requestState` (verified and opened), if any. */
  readonly requestState: string | undefined;
  /** State of the call's own that rides along (a resolver tool's), as JSON text. */
  readonly carriedState: string | undefined;
}

function describeStep(step: Step | undefined): string {
  if (step === undefined) return "not reached";
  if (step.t === "once") return `ctx.once("${step.k}")`;
  return `ctx.ask(${Object.keys(step.q)
    .map((key) => JSON.stringify(key))
    .join(", ")})`;
}

function sameQuestions(recorded: AskStep, digests: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(digests);
  return (
    keys.length === Object.keys(recorded.q).length && keys.every((key) => recorded.q[key] === digests[key])
  );
}

/** The 2026-07-28 session: replays recorded steps, leaves unanswered questions pending. */
export class ReplaySession extends StepSession {
  readonly #recorded: readonly (Step | undefined)[];
  readonly #steps: (Step | undefined)[] = [];
  readonly #pending = new Map<string, InputRequest>();
  readonly #input: ReplayInput;

  constructor(input: ReplayInput) {
    super(input);
    this.#input = input;
    this.#recorded = decodeSteps(input.requestState);
  }

  /** Refuses a step that differs from the one recorded at `step`. */
  #differs(step: number, now: string): never {
    throw this.violate(new NonDeterministicHandlerError(step + 1, describeStep(this.#recorded[step]), now));
  }

  protected async askAt(step: number, spec: AskSpec): Promise<ReadonlyMap<string, ResolverOutcome<unknown>>> {
    const digests = Object.fromEntries(spec.entries.map(([key, question]) => [key, question.digest]));
    const recorded = this.#recorded[step];
    if (recorded !== undefined && (recorded.t !== "ask" || !sameQuestions(recorded, digests))) {
      this.#differs(step, describeStep({ t: "ask", q: digests, o: {} }));
    }
    const o = { ...recorded?.o };
    const n: Record<string, number> = { ...recorded?.n };
    const outcomes = new Map<string, ResolverOutcome<unknown>>();
    const pending: [string, InputRequest][] = [];
    const responses = this.#input.inputResponses;
    for (const [key, question] of spec.entries) {
      const kept = o[key];
      if (kept !== undefined) {
        const reading = await readAnswer(
          key,
          question,
          responseOf(question, { ...kept, q: question.digest }),
        );
        if (reading.ok) {
          this.record(JSON.stringify(kept), `The answer to '${key}'`);
          outcomes.set(key, reading.outcome);
          continue;
        }
        delete o[key];
      }
      let request: InputRequest = question.request;
      // Only a question pending in the previous round (it was recorded, unanswered) takes a fresh answer.
      if (recorded !== undefined && responses !== undefined && Object.hasOwn(responses, key)) {
        const reading = await readAnswer(key, question, responses[key]);
        if (reading.ok) {
          o[key] = reading.record;
          this.record(JSON.stringify(reading.record), `The answer to '${key}'`);
          outcomes.set(key, reading.outcome);
          continue;
        }
        request = reaskOrFail(key, question, reading, n[key] ?? 0, this.maxInvalidAnswerRetries);
        n[key] = (n[key] ?? 0) + 1;
      }
      try {
        requireCapability(key, question, this.#input.ctx.clientCapabilities);
      } catch (error) {
        throw this.violate(error);
      }
      pending.push([key, request]);
    }
    this.#steps[step] = { t: "ask", q: digests, o, ...(Object.keys(n).length === 0 ? {} : { n }) };
    if (pending.length === 0) return outcomes;
    for (const [key, request] of pending) {
      if (this.#pending.has(key)) {
        throw this.violate(
          new TypeError(
            `ctx.ask: the input key "${key}" is asked twice in one round; give each question its own key`,
          ),
        );
      }
      this.#pending.set(key, request);
    }
    throw new AskPending();
  }

  protected async onceAt(step: number, key: string, fn: () => unknown): Promise<unknown> {
    const recorded = this.#recorded[step];
    if (recorded !== undefined) {
      if (recorded.t !== "once" || recorded.k !== key) this.#differs(step, `ctx.once("${key}")`);
      const copy = jsonCopy(key, recorded.v);
      this.record(copy.text, `ctx.once("${key}")'s result`);
      this.#steps[step] = recorded;
      return recordedValue(copy);
    }
    // Nothing runs while a question is unanswered: the handler is waiting on it.
    if (this.#pending.size > 0) throw new AskPending();
    const copy = await this.runOnce(key, fn);
    // An undefined `v` is left out of the JSON, and reads back as no `v`.
    this.#steps[step] = { t: "once", k: key, v: copy.value };
    return recordedValue(copy);
  }

  async finish(outcome: { readonly value: unknown } | { readonly error: unknown }): Promise<unknown> {
    await this.settleRunning();
    if (this.violation !== undefined) throw this.violation;
    if (this.#pending.size > 0) {
      return inputRequired({
        inputRequests: Object.fromEntries(this.#pending),
        requestState: encodeSteps(this.#input.carriedState, this.#steps),
      });
    }
    if ("error" in outcome) {
      if (isAskPending(outcome.error))
        throw new Error("an unanswered question was left without a pending round");
      throw outcome.error;
    }
    if (isInputRequired(outcome.value)) {
      throw new TypeError(
        "A handler that uses ctx.ask or ctx.once cannot also return its own InputRequiredResult: ask with ctx.ask instead",
      );
    }
    for (let step = this.position; step < this.#recorded.length; step++) {
      if (this.#recorded[step] !== undefined)
        this.#differs(step, "never reached (the handler returned first)");
    }
    return outcome.value;
  }
}
