/**
 * The session of one handler call's await-style steps, and what every kind of session shares: the
 * ask / once entry points, the size bound on what is recorded, and the one error a handler cannot
 * swallow (a violation is kept and rethrown when the call settles, whatever the handler did with
 * it). The 2026-07-28 kind replays the handler (`ask-replay.ts`); the handshake-era and task kind
 * asks over the back-channel (`ask-direct.ts`). Spec: basic/patterns/mrtr.
 */

import { type AskSpec, readAskSpec, shapeOutcomes } from "./ask-spec.js";
import { ResolverError } from "./errors.js";
import type { ResolverOutcome } from "./outcome.js";
import { jsonCopy } from "./steps.js";

const encoder = new TextEncoder();

/** The UTF-8 size of `text`, in bytes. */
function utf8Bytes(text: string): number {
  return encoder.encode(text).byteLength;
}

/** What a session needs besides the request. */
export interface StepSessionOptions {
  /** The most UTF-8 bytes the recorded steps may take (see `DEFAULT_MAX_RECORDED_STEP_BYTES`). */
  readonly maxRecordedStepBytes: number;
  /** How many times an off-schema answer is asked again (see `DEFAULT_MAX_INVALID_ANSWER_RETRIES`). */
  readonly maxInvalidAnswerRetries: number;
}

/** One call's steps: `ctx.ask`, `ctx.askOutcome`, `ctx.once`, and how the call settles. */
export abstract class StepSession {
  /** A failure the handler cannot swallow: rethrown when the call settles. */
  protected violation: unknown;
  /** The next step's 0-based position. */
  protected position = 0;
  readonly #options: StepSessionOptions;
  #recordedBytes = 0;
  /** `once` steps still running: the call settles only after them. */
  readonly #running = new Set<Promise<unknown>>();

  constructor(options: StepSessionOptions) {
    this.#options = options;
  }

  protected get maxInvalidAnswerRetries(): number {
    return this.#options.maxInvalidAnswerRetries;
  }

  /** Keeps `error` to rethrow when the call settles, and returns it (to throw now). */
  protected violate(error: unknown): unknown {
    this.violation ??= error;
    return error;
  }

  /**
   * Counts `text` (a recorded value's JSON) against the bound.
   *
   * @throws RangeError (kept as a violation) past `maxRecordedStepBytes`.
   */
  protected record(text: string, what: string): void {
    this.#recordedBytes += utf8Bytes(text);
    const max = this.#options.maxRecordedStepBytes;
    if (this.#recordedBytes > max) {
      throw this.violate(
        new RangeError(
          `${what} would make this call's recorded steps ${this.#recordedBytes} bytes, over maxRecordedStepBytes ` +
            `(${max}); record less (an id rather than a whole object), or raise maxRecordedStepBytes`,
        ),
      );
    }
  }

  /** `ctx.ask(...)` / `ctx.askOutcome(...)`. */
  async ask(args: readonly unknown[], wantOutcome: boolean): Promise<unknown> {
    if (this.violation !== undefined) throw this.violation;
    const step = this.position++;
    const spec = readAskSpec(args, step + 1, wantOutcome ? "ctx.askOutcome" : "ctx.ask");
    const outcomes = await this.askAt(step, spec);
    return shapeOutcomes(spec, outcomes, wantOutcome, (key, outcome) => {
      throw new ResolverError(key, `The user ${outcome.status} the question '${key}'.`);
    });
  }

  /** `ctx.once(key, fn)`. */
  async once(key: unknown, fn: unknown): Promise<unknown> {
    if (this.violation !== undefined) throw this.violation;
    if (typeof key !== "string" || key === "")
      throw new TypeError("ctx.once(key, fn): key must be a non-empty string");
    if (typeof fn !== "function") throw new TypeError(`ctx.once("${key}", fn): fn must be a function`);
    const step = this.position++;
    const running = this.onceAt(step, key, fn as () => unknown);
    this.#running.add(running);
    try {
      return await running;
    } finally {
      this.#running.delete(running);
    }
  }

  /** Runs `fn` and gives the JSON copy it records, counted against the bound. */
  protected async runOnce(
    key: string,
    fn: () => unknown,
  ): Promise<{ readonly value: unknown; readonly text: string }> {
    const result = await fn();
    let copy: { readonly value: unknown; readonly text: string };
    try {
      copy = jsonCopy(key, result);
    } catch (error) {
      throw this.violate(error);
    }
    this.record(copy.text, `ctx.once("${key}")'s result`);
    return copy;
  }

  /** Waits for the `once` steps still running (their results belong to this round). */
  protected async settleRunning(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Answers the questions of the step at `step`, or throws what ends the round. */
  protected abstract askAt(
    step: number,
    spec: AskSpec,
  ): Promise<ReadonlyMap<string, ResolverOutcome<unknown>>>;

  /** Runs (or replays) the `once` step at `step`; resolves with fn's (recorded) JSON result. */
  protected abstract onceAt(step: number, key: string, fn: () => unknown): Promise<unknown>;

  /**
   * The call's answer once the handler settled: a violation, else (2026-07-28) the
   * `InputRequiredResult` of the round's pending questions, else the handler's own outcome.
   */
  abstract finish(outcome: { readonly value: unknown } | { readonly error: unknown }): Promise<unknown>;
}
