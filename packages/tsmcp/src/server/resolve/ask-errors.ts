/**
 * The errors of await-style asking (`ctx.ask`, `ctx.once`), and the signal that ends a round while
 * a question is unanswered. Spec: basic/patterns/mrtr.
 */
import { McpError } from "../../protocol/errors.js";
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";

/** The rule a replayed handler must follow, quoted by {@link NonDeterministicHandlerError}. */
export const DETERMINISM_RULE =
  "a handler that uses ctx.ask or ctx.once runs again from the top on every round, and must make the same " +
  "ctx.ask and ctx.once calls in the same order (same keys, same questions) given the same arguments and " +
  "answers; keep side effects and anything that varies (time, randomness, reads that may change) inside ctx.once";

/**
 * A handler replayed for a later round (2026-07-28) did not make the `ctx.ask` / `ctx.once` calls
 * it made before: at some position the kind, key or question differs from the recorded step, or
 * the handler finished before reaching a recorded step. The call is refused (a tool answers an
 * `isError` result with this message; a prompt or resource read fails with -32603 carrying it)
 * rather than run a side effect twice or hand an answer to the wrong question.
 */
export class NonDeterministicHandlerError extends TsmcpError {
  override readonly name = "NonDeterministicHandlerError";
  /** `"ERR_NONDETERMINISTIC_HANDLER"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.NonDeterministicHandlerError;
  /** The 1-based position of the step that differs. */
  readonly step: number;

  constructor(step: number, recorded: string, now: string) {
    super(
      `Step ${step} of this call was ${recorded} on an earlier round but is ${now} now; ${DETERMINISM_RULE}.`,
    );
    this.step = step;
  }
}

/**
 * Thrown into a handler by an `ask` that has no answer yet (2026-07-28): the round ends with an
 * `InputRequiredResult`. Not an error of the handler; whatever it does with it is ignored.
 */
export class AskPending extends Error {
  override readonly name = "AskPending";

  constructor() {
    super("This question has no answer yet; the round ends with an InputRequiredResult (do not catch this).");
  }
}

/** True for the signal of {@link AskPending}. */
export function isAskPending(error: unknown): error is AskPending {
  return error instanceof AskPending;
}

/**
 * A failure of a prompt's or resource's handler as the wire carries it: a
 * {@link NonDeterministicHandlerError} becomes McpError -32603 with its message (it names steps
 * and keys only, never a value), so the client learns why; anything else is thrown as it is.
 */
export function toWireStepError(error: unknown): unknown {
  return error instanceof NonDeterministicHandlerError ? McpError.of("INTERNAL_ERROR", error.message) : error;
}
