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

  constructor(base: RequestContext, round: RoundParams, read: ResourceReader, task?: TaskControl) {
    super(base);
    this.inputResponses = round.inputResponses;
    this.requestState = round.requestState;
    this.#read = read;
    this.task = task;
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
  static withResolved<Values>(ctx: HandlerContext, resolved: Values): ResolvedContext<Values> {
    return new ResolvedHandlerContext(ctx.base, ctx, ctx.#read, resolved, ctx.task);
  }
  /** This call's context over the request context of its task (a new object). */
  static inTask(ctx: HandlerContext, base: RequestContext, task: TaskControl): Context {
    return new HandlerContext(base, ctx, ctx.#read, task);
  }
  /** This call's context with another round's input (a new object). */
  static withRound(ctx: HandlerContext, round: RoundParams): Context {
    return new HandlerContext(ctx.base, round, ctx.#read, ctx.task);
  }
  async readResource(uri: string): Promise<ReadResourceResult> {
    const result = await this.#read(uri, new HandlerContext(this.base, {}, this.#read));
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
  ) {
    super(base, round, read, task);
    this.resolved = resolved;
  }
}

/** Builds the `Context` of one handler call over the low-level request context. */
export function createContext(base: RequestContext, round: RoundParams, read: ResourceReader): Context {
  return new HandlerContext(base, round, read);
}

/**
 * The same call's `Context` with the resolved values on `resolved` (a new object; `ctx` is
 * unchanged).
 *
 * @throws TypeError when `ctx` was not built by {@link createContext}.
 */
export function withResolved<Values>(ctx: Context, resolved: Values): ResolvedContext<Values> {
  if (!(ctx instanceof HandlerContext)) throw new TypeError("not a Context built by MCPServer");
  return HandlerContext.withResolved(ctx, resolved);
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
