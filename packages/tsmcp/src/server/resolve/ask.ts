/**
 * Await-style asking in a handler (`ctx.ask`, `ctx.askOutcome`, `ctx.once`): which kind of step
 * session a request gets, and how a handler's call settles through it. At 2026-07-28 the handler
 * is replayed each round (`ask-replay.ts`); on a handshake-era session and inside a task its
 * questions go over the back-channel and it runs once (`ask-direct.ts`). Spec: basic/patterns/mrtr.
 */
import { type CarriesEnvironment, ENVIRONMENT, type RequestContext } from "../context.js";
import { DirectSession } from "./ask-direct.js";
import { ReplaySession } from "./ask-replay.js";
import type { StepSession, StepSessionOptions } from "./ask-session.js";
import type { RoundContext } from "./input-required.js";

export type { StepSession, StepSessionOptions };

/**
 * True when questions are asked over a back-channel rather than as `InputRequiredResult` rounds: on
 * a handshake-era session (even one whose transport has none, which then refuses clearly), and in
 * a task (its environment's back-channel is the task's `inputRequests`).
 */
export function usesBackChannel(ctx: RequestContext): boolean {
  return (
    ctx.session !== undefined || (ctx as Partial<CarriesEnvironment>)[ENVIRONMENT]?.request !== undefined
  );
}

/**
 * The step session of one handler call over `ctx` (its round's `inputResponses` and plaintext
 * `requestState`); `carriedState` is state of the call's own that rides along in the same
 * `requestState` (a resolver tool's, as JSON text).
 */
export function createStepSession(
  ctx: RoundContext,
  carriedState: string | undefined,
  options: StepSessionOptions,
): StepSession {
  if (usesBackChannel(ctx)) return new DirectSession(ctx, options);
  return new ReplaySession({
    ...options,
    ctx,
    inputResponses: ctx.inputResponses,
    requestState: ctx.requestState,
    carriedState,
  });
}
