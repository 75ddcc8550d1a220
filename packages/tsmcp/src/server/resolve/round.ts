/**
 * One multi-round-trip round of a resolver tool (2026-07-28): from the tool's arguments, this
 * round's `inputResponses`, the plaintext `requestState` and the client's capabilities, compute
 * either every resolved value or the questions still pending plus the state to echo. A question is
 * answered by its recorded outcome when that answered the same question, else by a fresh response
 * only if exactly that question was pending in the previous round; otherwise it is asked (after the
 * capability gate). Spec: basic/patterns/mrtr.
 */
import type { InputRequest, InputRequests, InputResponses } from "../../protocol/schema/input.js";
import type { RequestContext } from "../context.js";
import { type Logger, silentLogger } from "../logger.js";
import { readAnswer, responseOf } from "./answers.js";
import { requireCapability } from "./capabilities.js";
import type { ResolverGraph } from "./graph.js";
import type { Question } from "./question.js";
import { DEFAULT_MAX_INVALID_ANSWER_RETRIES, reaskOrFail } from "./reask.js";
import {
  decodeResolverState,
  encodeResolverState,
  type RecordedOutcome,
  type ResolverState,
} from "./state.js";
import { type AskResult, type QuestionAsker, walkResolvers } from "./walk.js";

/** What one resolver round reads: the arguments, the request, and the client's input for this round. */
export interface ResolveRoundInput {
  /** The tool's validated arguments. */
  readonly args: unknown;
  /** The request being served; its `clientCapabilities` gate the questions. */
  readonly ctx: RequestContext;
  /** The client's answers to the previous round's questions (untrusted), if any. */
  readonly inputResponses: InputResponses | undefined;
  /** The plaintext `requestState` echoed by the client (already verified and opened), if any. */
  readonly requestState: string | undefined;
  /** Where discarded answers are noted (at info level). Default: nowhere. */
  readonly logger?: Logger;
  /**
   * How many times an off-schema answer to one question is asked again before the call fails.
   * Default {@link DEFAULT_MAX_INVALID_ANSWER_RETRIES}.
   */
  readonly maxInvalidAnswerRetries?: number;
}

/** What one round came to. */
export type RoundResult =
  | {
      /** Every resolver resolved: the handler may run with these values (by `resolve` key). */
      readonly status: "resolved";
      readonly values: Readonly<Record<string, unknown>>;
      /**
       * The recorded outcomes as plaintext state, for a handler that goes on asking with `ctx.ask`
       * (its steps ride the same `requestState`, and the next round resolves from these again).
       */
      readonly requestState: string;
    }
  | {
      /** Questions are pending: answer with them and this plaintext state (to be sealed). */
      readonly status: "input_required";
      readonly inputRequests: InputRequests;
      readonly requestState: string;
    };

/** The multi-round-trip asker: answers from state and fresh responses, or leaves questions pending. */
class RoundAsker implements QuestionAsker {
  readonly pending = new Map<string, InputRequest>();
  readonly asked = new Map<string, string>();
  readonly recorded = new Map<string, RecordedOutcome>();
  readonly invalid = new Map<string, number>();
  readonly #state: ResolverState;
  readonly #maxRetries: number;
  readonly #responses: InputResponses | undefined;
  readonly #ctx: RequestContext;
  readonly #logger: Logger;

  constructor(input: ResolveRoundInput) {
    this.#state = decodeResolverState(input.requestState);
    this.#responses = input.inputResponses;
    this.#ctx = input.ctx;
    this.#logger = input.logger ?? silentLogger;
    this.#maxRetries = input.maxInvalidAnswerRetries ?? DEFAULT_MAX_INVALID_ANSWER_RETRIES;
  }

  async ask(name: string, question: Question): Promise<AskResult> {
    const recorded = this.#state.outcomes.get(name);
    if (recorded !== undefined && recorded.q === question.digest) {
      // A recorded outcome is re-read against the live question; one that no longer fits is dropped.
      const reading = await readAnswer(name, question, responseOf(question, recorded));
      if (reading.ok) {
        this.recorded.set(name, recorded);
        return { status: "answered", outcome: reading.outcome };
      }
    }
    const responses = this.#responses;
    const wasPending = this.#state.asked.get(name) === question.digest;
    const retries = wasPending ? (this.#state.invalid?.get(name) ?? 0) : 0;
    let request: InputRequest = question.request;
    if (responses !== undefined && Object.hasOwn(responses, name)) {
      if (wasPending) {
        const reading = await readAnswer(name, question, responses[name]);
        if (reading.ok) {
          this.recorded.set(name, { ...reading.record, q: question.digest });
          return { status: "answered", outcome: reading.outcome };
        }
        // Off-schema content is asked again (a bounded number of times); anything else fails the call.
        request = reaskOrFail(name, question, reading, retries, this.#maxRetries);
        this.invalid.set(name, retries + 1);
        return this.#pend(name, question, request);
      }
      this.#logger.info(
        `Discarding the answer for resolver '${name}': that question was not pending in the previous round (it changed, or the requestState was not echoed)`,
        { resolver: name },
      );
    }
    if (retries > 0) this.invalid.set(name, retries);
    return this.#pend(name, question, request);
  }

  /** Leaves `question` pending (after the capability gate), asked as `request`. */
  #pend(name: string, question: Question, request: InputRequest): AskResult {
    requireCapability(name, question, this.#ctx.clientCapabilities);
    this.pending.set(name, request);
    this.asked.set(name, question.digest);
    return { status: "pending" };
  }
}

/**
 * Runs one round of a resolver tool. Resolver functions run again (each at most once); answered
 * questions are not asked again; independent questions are asked together; the handler may run
 * only when the result is `resolved`. A fresh accepted answer whose content does not match its form
 * leaves the question pending again, its message followed by the validation note, up to
 * `maxInvalidAnswerRetries` times per question (the count rides the state). Unknown response keys and recorded outcomes no resolver
 * consults this round are ignored and not carried forward.
 *
 * @throws ResolverError for an unusable fresh answer (malformed, of the wrong kind, or not matching
 *   the schema once the re-asks are spent) or a declined / cancelled question with a plain consumer; McpError -32021 when a
 *   question needs a capability the client did not declare; whatever a resolver function throws.
 */
export async function resolveRound(graph: ResolverGraph, input: ResolveRoundInput): Promise<RoundResult> {
  const asker = new RoundAsker(input);
  const walked = await walkResolvers(graph, { args: input.args, ctx: input.ctx, asker });
  if (walked.status === "resolved") {
    return {
      status: "resolved",
      values: walked.values,
      requestState: encodeResolverState({ outcomes: asker.recorded, asked: new Map() }),
    };
  }
  return {
    status: "input_required",
    inputRequests: Object.fromEntries(asker.pending) as InputRequests,
    requestState: encodeResolverState({
      outcomes: asker.recorded,
      asked: asker.asked,
      invalid: asker.invalid,
    }),
  };
}
