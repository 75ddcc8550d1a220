/**
 * The `Context` an `MCPServer` handler receives: the low-level request context (protocol version,
 * client info and capabilities, auth, AbortSignal, progress, logging) plus this round's multi
 * round-trip input — `inputResponses` and the plaintext `requestState` — nested resource reads, and
 * for a tool running as a task its `task`.
 * Spec: basic/patterns/mrtr, basic/index §Request metadata,
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */

import type { InputRequiredResult, InputResponses } from "../../protocol/schema/input.js";
import type { ReadResourceResult } from "../../protocol/schema/methods.js";
import type { ProgressUpdate, RequestContext } from "../context.js";
import { ContextView } from "../context-view.js";
import { createStepSession, type StepSession, type StepSessionOptions } from "../resolve/ask.js";
import type { Asked, AskValues } from "../resolve/ask-types.js";
import type { ResolverOutcome } from "../resolve/outcome.js";
import type { Question, QuestionValue } from "../resolve/question.js";
import { DEFAULT_MAX_INVALID_ANSWER_RETRIES } from "../resolve/reask.js";
import { DEFAULT_MAX_RECORDED_STEP_BYTES } from "../resolve/steps.js";
import type { TaskControl } from "../tasks/pending.js";

/** What an `MCPServer` tool, prompt, resource, completer or list callback is told about its request. */
export interface Context extends RequestContext {
  /**
   * The client's answers to the previous round's `inputRequests`, under the same keys; `undefined`
   * on the first round. Untrusted input: check each answer (see `readElicitation`).
   */
  readonly inputResponses: InputResponses | undefined;
  /**
   * The plaintext `requestState` the handler returned last round (the boundary has verified and
   * opened the sealed token); `undefined` on the first round.
   */
  readonly requestState: string | undefined;
  /**
   * Reads one of this server's resources from inside a handler, as round one (no input responses,
   * no state). Resolves with the contents.
   *
   * @throws McpError -32602 (`data.uri`) when no resource matches; Error when the resource answers
   *   with an `InputRequiredResult` (a nested read cannot ask the client anything); whatever the
   *   resource's handler throws.
   */
  readResource(uri: string): Promise<ReadResourceResult>;
  /**
   * The task this call runs as (a tool declared with `task`, called by a client that declared the
   * tasks extension): its `taskId` and `setStatusMessage`. `undefined` outside a task. Inside one,
   * `signal` aborts when the client cancels the task (`tasks/cancel`), `elicit`, `createMessage`
   * and `listRoots` ask through the task's `inputRequests`, and `sendProgress` sets the task's
   * status message (tasks have no progress notifications). The handler may start a moment before
   * the task exists: a call that answers an `InputRequiredResult` at once (before it waits on a
   * timer or I/O) is a multi round-trip round, and no task is created for it.
   */
  readonly task: TaskControl | undefined;
  /**
   * Asks the client and resolves with the answer: `ask(elicit(message, schema))` gives the form's
   * accepted content (typed from the schema), `ask(sample(...))` a `CreateMessageResult`,
   * `ask(listRoots())` a `ListRootsResult`; `ask(key, question)` names the input key (default
   * `ask-<step>`, the step's 1-based position in the call); `ask({ a: q1, b: q2 })` asks several in
   * one round and resolves with the answers by key.
   *
   * At 2026-07-28 the handler is run again from the top on every round: a question with no answer
   * yet ends the round with an `InputRequiredResult` (do not catch what `ask` throws then), and on
   * the retry `ask` returns the recorded answer. On a 2025-11-25 session, and inside a task, the
   * question goes over the back-channel and the handler runs once. The rule: between `once` calls
   * a handler is deterministic (the same `ask` and `once` calls, in the same order, given the same
   * arguments and answers); side effects go inside {@link Context.once}.
   * Spec: basic/patterns/mrtr, client/elicitation, client/sampling, client/roots.
   *
   * @throws ResolverError (the tool answers `isError`) when the user declines or cancels (use
   *   {@link Context.askOutcome} to handle those), or an answer stays unusable after the bounded
   *   re-asks; McpError -32021 when the client did not declare the capability the question needs;
   *   NonDeterministicHandlerError when a replayed handler asks something other than it did;
   *   TypeError for bad arguments or a key asked twice in one round.
   */
  ask<Q extends Question>(question: Q): Promise<QuestionValue<Q>>;
  /**
   * {@link Context.ask} under the input key `key` (at most 200 characters; unique within a round).
   *
   * @throws as {@link Context.ask} does.
   */
  ask<Q extends Question>(key: string, question: Q): Promise<QuestionValue<Q>>;
  /**
   * {@link Context.ask} for several questions in one round, each under its key; resolves with the
   * answers by key.
   *
   * @throws as {@link Context.ask} does.
   */
  ask<R extends Asked>(questions: R): Promise<AskValues<R>>;
  /**
   * {@link Context.ask}, but resolves with the outcome (`{ status: "accepted", content }`,
   * `{ status: "declined" }` or `{ status: "cancelled" }`) instead of throwing on a decline or cancel.
   */
  askOutcome<Q extends Question>(question: Q): Promise<ResolverOutcome<QuestionValue<Q>>>;
  /** {@link Context.askOutcome} under the input key `key`. */
  askOutcome<Q extends Question>(key: string, question: Q): Promise<ResolverOutcome<QuestionValue<Q>>>;
  /** {@link Context.askOutcome} for several questions in one round: the outcomes by key. */
  askOutcome<R extends Asked>(
    questions: R,
  ): Promise<{ -readonly [K in keyof R]: ResolverOutcome<QuestionValue<R[K]>> }>;
  /**
   * Runs `fn` the first time the call reaches this step and resolves with its result; on every
   * later round of the same call (2026-07-28, where the handler is replayed) resolves with the
   * recorded result without running `fn`, so its side effect happens once per call. The result is
   * recorded as JSON and returned as its JSON copy on every round, the first included (a `fn` that
   * returns nothing resolves with `undefined` on every round); the recorded
   * steps of a call are bounded (`maxRecordedStepBytes`, default 65 536 bytes). On a 2025-11-25
   * session the handler runs once and so does `fn`.
   *
   * @throws TypeError naming the key when the result is not JSON; RangeError past the bound;
   *   NonDeterministicHandlerError when a replayed handler reaches another step here; whatever
   *   `fn` throws (nothing is recorded then).
   */
  once<T>(key: string, fn: () => T | PromiseLike<T>): Promise<T>;
}

/**
 * The `Context` a tool with resolvers receives: the `Context` plus `resolved`, the values of its
 * resolvers under their `resolve` names (typed from the markers: `elicit(msg, schema)` gives the
 * schema's output, `sample` a `CreateMessageResult`, `listRoots` a `ListRootsResult`, `outcome(r)`
 * the outcome union). A tool without resolvers receives a plain `Context`, which has no `resolved`.
 */
export interface ResolvedContext<Values> extends Context {
  /** The resolved values, by `resolve` key (frozen; the handler runs only once all are resolved). */
  readonly resolved: Values;
}

/** Reads a resource for a context: the server's `resources/read` path, minus the wire. */
export type ResourceReader = (uri: string, ctx: Context) => Promise<ReadResourceResult | InputRequiredResult>;

/** The message of the error a nested read throws when the resource asks for input. */
export const NESTED_INPUT_REQUIRED_MESSAGE =
  "The resource answered with an InputRequiredResult; ctx.readResource() only returns contents, " +
  "and a nested read cannot ask the client for input. Read it from the client instead.";

/** This round's multi round-trip input as the request's params carry it. */
export interface RoundParams {
  readonly inputResponses?: InputResponses | undefined;
  readonly requestState?: string | undefined;
}

/**
 * The `Context` of one handler call: the low-level request context's fields, read through to it,
 * plus this round's input. One small object per call; no fields are copied.
 */
class HandlerContext extends ContextView implements Context {
  readonly inputResponses: InputResponses | undefined;
  readonly requestState: string | undefined;
  readonly task: TaskControl | undefined;
  readonly #read: ResourceReader;
  readonly #stepOptions: StepSessionOptions;
  /** A resolver tool's state, carried in the same requestState as the steps. */
  readonly #carried: string | undefined;
  /** Made at the first `ask` / `once`. */
  #steps: StepSession | undefined;

  constructor(
    base: RequestContext,
    round: RoundParams,
    read: ResourceReader,
    task?: TaskControl,
    stepOptions: StepSessionOptions = DEFAULT_STEP_OPTIONS,
    carried?: string,
  ) {
    super(base);
    this.inputResponses = round.inputResponses;
    this.requestState = round.requestState;
    this.#read = read;
    this.task = task;
    this.#stepOptions = stepOptions;
    this.#carried = carried;
  }

  #session(): StepSession {
    this.#steps ??= createStepSession(this, this.#carried, this.#stepOptions);
    return this.#steps;
  }
  ask(...args: unknown[]): Promise<never> {
    return this.#session().ask(args, false) as Promise<never>;
  }
  askOutcome(...args: unknown[]): Promise<never> {
    return this.#session().ask(args, true) as Promise<never>;
  }
  once<T>(key: string, fn: () => T | PromiseLike<T>): Promise<T> {
    return this.#session().once(key, fn) as Promise<T>;
  }
  /**
   * The step session of this call, if the handler asked or ran a step, or if `recorded` (its
   * `requestState` records steps, which a replay must reach).
   */
  static stepsOf(ctx: HandlerContext, recorded: boolean): StepSession | undefined {
    return recorded ? ctx.#session() : ctx.#steps;
  }

  override sendProgress(update: ProgressUpdate): void {
    const task = this.task;
    if (task === undefined) {
      this.base.sendProgress(update);
      return;
    }
    const { progress, total, message } = update;
    const text = message ?? (total === undefined ? `${progress}` : `${progress}/${total}`);
    task.setStatusMessage(text).catch(() => {});
  }
  /** This call's context with `resolved` added (a new object; this one is unchanged). */
  static withResolved<Values>(
    ctx: HandlerContext,
    resolved: Values,
    state?: string,
  ): ResolvedContext<Values> {
    return new ResolvedHandlerContext(ctx.base, ctx, ctx.#read, resolved, ctx.task, ctx.#stepOptions, state);
  }
  /** This call's context over the request context of its task (a new object). */
  static inTask(ctx: HandlerContext, base: RequestContext, task: TaskControl): Context {
    return new HandlerContext(base, ctx, ctx.#read, task, ctx.#stepOptions);
  }
  /** This call's context with another round's input (a new object). */
  static withRound(ctx: HandlerContext, round: RoundParams): Context {
    return new HandlerContext(ctx.base, round, ctx.#read, ctx.task, ctx.#stepOptions);
  }
  async readResource(uri: string): Promise<ReadResourceResult> {
    const result = await this.#read(
      uri,
      new HandlerContext(this.base, {}, this.#read, undefined, this.#stepOptions),
    );
    if (result.resultType === "input_required") throw new Error(NESTED_INPUT_REQUIRED_MESSAGE);
    return result as ReadResourceResult;
  }
}

/** A handler's `Context` that also carries the values its tool's resolvers resolved. */
class ResolvedHandlerContext<Values> extends HandlerContext implements ResolvedContext<Values> {
  readonly resolved: Values;

  constructor(
    base: RequestContext,
    round: RoundParams,
    read: ResourceReader,
    resolved: Values,
    task: TaskControl | undefined,
    stepOptions: StepSessionOptions,
    carried: string | undefined,
  ) {
    super(base, round, read, task, stepOptions, carried);
    this.resolved = resolved;
  }
}

/** The step options of a context built without any: the defaults. */
const DEFAULT_STEP_OPTIONS: StepSessionOptions = Object.freeze({
  maxRecordedStepBytes: DEFAULT_MAX_RECORDED_STEP_BYTES,
  maxInvalidAnswerRetries: DEFAULT_MAX_INVALID_ANSWER_RETRIES,
});

/** Builds the `Context` of one handler call over the low-level request context. */
export function createContext(
  base: RequestContext,
  round: RoundParams,
  read: ResourceReader,
  stepOptions: StepSessionOptions = DEFAULT_STEP_OPTIONS,
): Context {
  return new HandlerContext(base, round, read, undefined, stepOptions);
}

/** True when a plaintext `requestState` may record `ctx.ask` / `ctx.once` steps (cheap pre-check). */
function recordsSteps(requestState: string | undefined): boolean {
  return requestState?.includes(STEPS_MARK) === true;
}

/** What every state with recorded steps contains (see `encodeSteps`). */
const STEPS_MARK = '"steps":{"v":';

/**
 * What a handler's call over `ctx` comes to once it settled (`outcome`): unchanged when it never
 * used `ctx.ask` / `ctx.once`; else as its step session decides (the `InputRequiredResult` of a
 * round with questions pending, or a violation the handler could not swallow).
 */
export function settleHandler(
  ctx: Context,
  outcome: { readonly value: unknown } | { readonly error: unknown },
): unknown {
  const steps =
    ctx instanceof HandlerContext ? HandlerContext.stepsOf(ctx, recordsSteps(ctx.requestState)) : undefined;
  if (steps !== undefined) return steps.finish(outcome);
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}

/**
 * Runs `handler(args, ctx)` and settles it through its step session ({@link settleHandler}); a
 * handler that returns synchronously and took no steps answers without waiting.
 */
export function runHandler<A>(handler: (args: A, ctx: Context) => unknown, args: A, ctx: Context): unknown {
  let value: unknown;
  try {
    value = handler(args, ctx);
  } catch (error) {
    return settleHandler(ctx, { error });
  }
  if (
    value === null ||
    (typeof value !== "object" && typeof value !== "function") ||
    typeof (value as { then?: unknown }).then !== "function"
  ) {
    return settleHandler(ctx, { value });
  }
  return Promise.resolve(value).then(
    (settled) => settleHandler(ctx, { value: settled }),
    (error: unknown) => settleHandler(ctx, { error }),
  );
}

/**
 * The same call's `Context` with the resolved values on `resolved` (a new object; `ctx` is
 * unchanged).
 *
 * @throws TypeError when `ctx` was not built by {@link createContext}.
 */
export function withResolved<Values>(
  ctx: Context,
  resolved: Values,
  state?: string,
): ResolvedContext<Values> {
  if (!(ctx instanceof HandlerContext)) throw new TypeError("not a Context built by MCPServer");
  return HandlerContext.withResolved(ctx, resolved, state);
}

/**
 * The same call's `Context` over `base`, the request context of the task it runs as, with `task`
 * (a new object; `ctx` is unchanged).
 *
 * @throws TypeError when `ctx` was not built by {@link createContext}.
 */
export function inTask(ctx: Context, base: RequestContext, task: TaskControl): Context {
  if (!(ctx instanceof HandlerContext)) throw new TypeError("not a Context built by MCPServer");
  return HandlerContext.inTask(ctx, base, task);
}

/**
 * The same call's `Context` with `round`'s input (`inputResponses`, `requestState`) in place of its
 * own (a new object; `ctx` is unchanged).
 *
 * @throws TypeError when `ctx` was not built by {@link createContext}.
 */
export function withRound(ctx: Context, round: RoundParams): Context {
  if (!(ctx instanceof HandlerContext)) throw new TypeError("not a Context built by MCPServer");
  return HandlerContext.withRound(ctx, round);
}
