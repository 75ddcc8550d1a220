/**
 * The multi-round-trip delivery of resolver questions: a round's pending questions become an
 * `InputRequiredResult` (with the plaintext state the requestState boundary seals), and a compiled
 * graph becomes the resolve step a tool runs between argument validation and its handler.
 * Spec: basic/patterns/mrtr.
 */
import type { InputRequiredResult, InputResponses } from "../../protocol/schema/input.js";
import type { RequestContext } from "../context.js";
import { inputRequired } from "../input-required.js";
import type { Logger } from "../logger.js";
import type { ResolverGraph } from "./graph.js";
import { type RoundResult, resolveRound } from "./round.js";

/** A request context that carries this round's multi-round-trip input (as `MCPServer`'s `Context` does). */
export interface RoundContext extends RequestContext {
  /** The client's answers to the previous round's questions, if any. */
  readonly inputResponses: InputResponses | undefined;
  /** The plaintext `requestState` of the previous round, if any. */
  readonly requestState: string | undefined;
}

/**
 * What a resolve step yields: the values for the handler (by `resolve` key), or the
 * `InputRequiredResult` to answer with instead of running it.
 */
export type ResolveOutcome =
  | {
      readonly status: "resolved";
      readonly values: Readonly<Record<string, unknown>>;
      /** At 2026-07-28, the round's recorded outcomes as plaintext state (for the handler's own steps). */
      readonly requestState?: string;
    }
  | { readonly status: "input_required"; readonly result: InputRequiredResult };

/** The `InputRequiredResult` of a round with pending questions (copies; the round is not modified). */
export function toInputRequiredResult(
  round: Extract<RoundResult, { status: "input_required" }>,
): InputRequiredResult {
  return inputRequired({ inputRequests: round.inputRequests, requestState: round.requestState });
}

/**
 * The resolve step of a tool whose resolvers are `graph`: each call runs one round over the
 * context's `inputResponses` and plaintext `requestState` (options as `resolveRound`'s input:
 * where discarded answers are noted, how many times an off-schema answer is asked again).
 *
 * @returns a function that throws as `resolveRound` does.
 */
export function resolveStep(
  graph: ResolverGraph,
  options: { readonly logger?: Logger; readonly maxInvalidAnswerRetries?: number } = {},
): (args: unknown, ctx: RoundContext) => Promise<ResolveOutcome> {
  return async (args, ctx) => {
    const round = await resolveRound(graph, {
      args,
      ctx,
      inputResponses: ctx.inputResponses,
      requestState: ctx.requestState,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      ...(options.maxInvalidAnswerRetries === undefined
        ? {}
        : { maxInvalidAnswerRetries: options.maxInvalidAnswerRetries }),
    });
    return round.status === "resolved"
      ? round
      : { status: "input_required", result: toInputRequiredResult(round) };
  };
}
