/**
 * Await-style steps over a back-channel: on a handshake-era session (2025-11-25) and inside a task,
 * the handler runs once; `ctx.ask` sends its questions to the client (those of one call together)
 * and waits, reading each answer by the same rules as a multi-round-trip round (an off-schema
 * answer asked again, a bounded number of times); `ctx.once` runs its function. What `once`
 * returns is the same JSON copy, within the same bound, as at 2026-07-28, so one handler behaves
 * the same in both eras. Spec (2025-11-25): client/elicitation, client/sampling, client/roots.
 */
import { isInputRequired } from "../../protocol/methods.js";
import type { InputRequest } from "../../protocol/schema/input.js";
import type { RequestContext } from "../context.js";
import { readAnswer } from "./answers.js";
import { StepSession, type StepSessionOptions } from "./ask-session.js";
import type { AskSpec } from "./ask-spec.js";
import { sendQuestion } from "./back-channel.js";
import { requireCapability } from "./capabilities.js";
import type { ResolverOutcome } from "./outcome.js";
import type { Question } from "./question.js";
import { reaskOrFail } from "./reask.js";
import { recordedValue } from "./steps.js";

/** The back-channel session: asks and waits; runs each `once` once. */
export class DirectSession extends StepSession {
  readonly #ctx: RequestContext;

  constructor(ctx: RequestContext, options: StepSessionOptions) {
    super(options);
    this.#ctx = ctx;
  }

  async #askOne(key: string, question: Question, signal: AbortSignal): Promise<ResolverOutcome<unknown>> {
    let request: InputRequest = question.request;
    for (let retries = 0; ; retries++) {
      const reading = await readAnswer(
        key,
        question,
        await sendQuestion(key, question, request, this.#ctx, signal),
      );
      if (reading.ok) {
        if (reading.record.action === "accept")
          this.record(JSON.stringify(reading.record), `The answer to '${key}'`);
        return reading.outcome;
      }
      request = reaskOrFail(key, question, reading, retries, this.maxInvalidAnswerRetries);
    }
  }

  protected async askAt(
    _step: number,
    spec: AskSpec,
  ): Promise<ReadonlyMap<string, ResolverOutcome<unknown>>> {
    for (const [key, question] of spec.entries)
      requireCapability(key, question, this.#ctx.clientCapabilities);
    const batch = new AbortController();
    const outcomes = await Promise.all(
      spec.entries.map(([key, question]) =>
        this.#askOne(key, question, batch.signal).catch((error: unknown) => {
          batch.abort(error);
          throw error;
        }),
      ),
    );
    return new Map(spec.entries.map(([key], index) => [key, outcomes[index] as ResolverOutcome<unknown>]));
  }

  protected async onceAt(_step: number, key: string, fn: () => unknown): Promise<unknown> {
    const copy = await this.runOnce(key, fn);
    return recordedValue(copy);
  }

  async finish(outcome: { readonly value: unknown } | { readonly error: unknown }): Promise<unknown> {
    await this.settleRunning();
    if (this.violation !== undefined) throw this.violation;
    if ("error" in outcome) throw outcome.error;
    if (isInputRequired(outcome.value)) {
      throw new TypeError(
        "A handler that uses ctx.ask or ctx.once cannot also return its own InputRequiredResult: ask with ctx.ask instead",
      );
    }
    return outcome.value;
  }
}
