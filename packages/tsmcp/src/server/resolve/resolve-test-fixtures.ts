/**
 * Shared fixtures of the resolver unit tests (not part of the package): a request context with
 * chosen client capabilities, a driver that plays the client's side of the rounds against
 * `resolveRound` directly (counting them), and the forms and resolvers the round tests share.
 */
import * as z from "zod";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import type {
  CreateMessageResult,
  InputRequest,
  InputRequests,
  InputResponse,
  InputResponses,
} from "../../protocol/schema/input.js";
import { LATEST_PROTOCOL_VERSION, META } from "../../protocol/versions.js";
import { createRequestContext, type RequestContext } from "../context.js";
import { elicit } from "./elicit.js";
import { compileResolverGraph, type ResolverGraph } from "./graph.js";
import { resolver } from "./resolver.js";
import { type ResolveRoundInput, type RoundResult, resolveRound } from "./round.js";

/** Every capability that answers a resolver question. */
export const ALL_CAPABILITIES: ClientCapabilities = Object.freeze({
  elicitation: { form: {} },
  sampling: { tools: {} },
  roots: {},
});

/** The context of a `tools/call` whose client declared `capabilities`. */
export function contextWith(capabilities: ClientCapabilities = ALL_CAPABILITIES): RequestContext {
  const meta = {
    [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [META.clientCapabilities]: capabilities,
  };
  return createRequestContext("tools/call", 1, meta as never, { signal: new AbortController().signal });
}

/** One round's input with defaults: no answers, no state, every capability. */
export function round(
  graph: ResolverGraph,
  input: Partial<ResolveRoundInput> & { args?: unknown } = {},
): Promise<RoundResult> {
  return resolveRound(graph, {
    args: input.args ?? {},
    ctx: input.ctx ?? contextWith(),
    inputResponses: input.inputResponses,
    requestState: input.requestState,
    ...(input.logger === undefined ? {} : { logger: input.logger }),
    ...(input.maxInvalidAnswerRetries === undefined
      ? {}
      : { maxInvalidAnswerRetries: input.maxInvalidAnswerRetries }),
  });
}

/** The client's side: answers one input request (keyed by its `inputRequests` key). */
export type Answerer = (key: string, request: InputRequest) => InputResponse;

/** How a driven call ended. */
export interface DrivenCall {
  /** The values the handler would receive. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The `InputRequiredResult` rounds it took (0 when nothing was asked). */
  readonly rounds: number;
  /** The `inputRequests` of each round, in order. */
  readonly asked: readonly InputRequests[];
}

/**
 * Plays a well-behaved client against `resolveRound`: answers every pending question with
 * `answer` and retries with the echoed state, until the round resolves or `maxRounds` pass.
 */
export async function drive(
  graph: ResolverGraph,
  answer: Answerer,
  options: { args?: unknown; ctx?: RequestContext; maxRounds?: number } = {},
): Promise<DrivenCall> {
  const asked: InputRequests[] = [];
  let inputResponses: InputResponses | undefined;
  let requestState: string | undefined;
  for (let rounds = 0; rounds <= (options.maxRounds ?? 20); rounds += 1) {
    const result = await round(graph, {
      args: options.args ?? {},
      ctx: options.ctx ?? contextWith(),
      inputResponses,
      requestState,
    });
    if (result.status === "resolved") return { values: result.values, rounds, asked };
    asked.push(result.inputRequests);
    inputResponses = Object.fromEntries(
      Object.entries(result.inputRequests).map(([key, request]) => [key, answer(key, request)]),
    );
    requestState = result.requestState;
  }
  throw new Error(`the call did not resolve within ${options.maxRounds ?? 20} rounds`);
}

/** An accepted elicitation with `content`. */
export function accept(content: Record<string, string | number | boolean | string[] | null>): InputResponse {
  return { action: "accept", content };
}

/** A login form. */
export const Login = z.object({ user: z.string() });
/** A confirmation form. */
export const Ok = z.object({ ok: z.boolean() });
/** A one-message conversation to sample. */
export const messages = [{ role: "user" as const, content: { type: "text" as const, text: "Summarise" } }];
/** A client's completion. */
export const completion: CreateMessageResult = {
  role: "assistant",
  content: { type: "text", text: "Short." },
  model: "m",
};

/** The round, which must have questions pending. */
export function pending(result: RoundResult) {
  if (result.status !== "input_required") throw new Error(`expected input_required, got ${result.status}`);
  return result;
}

/** The values of the round, which must have resolved. */
export function resolved(result: RoundResult) {
  if (result.status !== "resolved") throw new Error(`expected resolved, got ${result.status}`);
  return result.values;
}

/** The error the promise rejects with (it must reject). */
export async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the round to fail");
}

/** login (asks) -> confirm (asks, needs login), with run counters. */
export function loginThenConfirm() {
  const runs = { login: 0, confirm: 0 };
  const login = resolver("login", () => {
    runs.login += 1;
    return elicit("Who are you?", Login);
  });
  const confirm = resolver("confirm", { needs: { login } }, ({ needs }) => {
    runs.confirm += 1;
    return elicit(`Proceed as ${needs.login.user}?`, Ok);
  });
  return { runs, login, confirm, graph: compileResolverGraph({ login, confirm }, 'tool "t"') };
}
