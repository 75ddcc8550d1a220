/**
 * The handshake-era delivery of resolver questions (2025-11-25 sessions): the rounds of a resolver
 * tool run in-process. Each round walks the graph as a multi-round-trip round would; the questions
 * it leaves pending (each past the capability gate, so a refusal comes before anything is sent) go
 * to the client over the session's back-channel together, and their answers are read by the same
 * rules (schema validation, decline and cancel, `outcome(...)`) and kept in memory for the next
 * walk, where dependent questions come up. Nothing is sealed and no `InputRequiredResult` is ever
 * answered. Spec (2025-11-25): client/elicitation, client/sampling, client/roots.
 */
import { INPUT_KEY_META } from "../../protocol/input-key.js";
import type { ElicitRequest, InputRequest } from "../../protocol/schema/input.js";
import { noBackChannel } from "../back-channel.js";
import { environmentOf, type RequestContext } from "../context.js";
import { readAnswer } from "./answers.js";
import { requireCapability } from "./capabilities.js";
import { ResolverError } from "./errors.js";
import type { ResolverGraph } from "./graph.js";
import type { ResolveOutcome } from "./input-required.js";
import type { ResolverOutcome } from "./outcome.js";
import type { Question } from "./question.js";
import { DEFAULT_MAX_INVALID_ANSWER_RETRIES, reaskOrFail } from "./reask.js";
import { type AskResult, type QuestionAsker, walkResolvers } from "./walk.js";

/** The server -> client method that carries each kind of question. */
const METHOD_OF = {
  elicit: "elicitation/create",
  sample: "sampling/createMessage",
  listRoots: "roots/list",
} as const satisfies Record<Question["kind"], string>;

/** An answered question: the outcome, and the digest of the question it answers. */
interface Answered {
  readonly digest: string;
  readonly outcome: ResolverOutcome<unknown>;
}

/** Answers from what earlier rounds of this call got; gates and collects what is still to ask. */
class BackChannelAsker implements QuestionAsker {
  readonly pending = new Map<string, Question>();
  readonly #answered: ReadonlyMap<string, Answered>;
  readonly #ctx: RequestContext;

  constructor(answered: ReadonlyMap<string, Answered>, ctx: RequestContext) {
    this.#answered = answered;
    this.#ctx = ctx;
  }

  async ask(name: string, question: Question): Promise<AskResult> {
    const answered = this.#answered.get(name);
    if (answered !== undefined && answered.digest === question.digest) {
      return { status: "answered", outcome: answered.outcome };
    }
    // Without a back-channel (stateless legacy HTTP) nothing can be asked, whatever was declared.
    const env = environmentOf(this.#ctx);
    if (env.request === undefined) throw noBackChannel(METHOD_OF[question.kind], env);
    requireCapability(name, question, this.#ctx.clientCapabilities);
    this.pending.set(name, question);
    return { status: "pending" };
  }
}

/**
 * Sends `request` (`question`'s, or its re-ask) over the request's back-channel, naming its input
 * key `key` in `params._meta[INPUT_KEY_META]`; resolves with the raw answer.
 */
export async function sendQuestion(
  key: string,
  question: Question,
  request: InputRequest,
  ctx: RequestContext,
  signal: AbortSignal,
): Promise<unknown> {
  switch (question.kind) {
    case "elicit": {
      const params = (request as ElicitRequest).params;
      return await ctx.elicit({ ...params, _meta: { ...params._meta, [INPUT_KEY_META]: key } }, { signal });
    }
    case "sample": {
      const params = question.request.params;
      return await ctx.createMessage(
        { ...params, _meta: { ...params._meta, [INPUT_KEY_META]: key } },
        { signal },
      );
    }
    case "listRoots":
      return await ctx.listRoots({ signal, _meta: { [INPUT_KEY_META]: key } });
  }
}

/**
 * Asks one question until its answer is usable: an off-schema answer is asked again, the
 * validation note appended, at most `maxRetries` times.
 */
async function askUntilUsable(
  name: string,
  question: Question,
  ctx: RequestContext,
  signal: AbortSignal,
  maxRetries: number,
): Promise<ResolverOutcome<unknown>> {
  let request: InputRequest = question.request;
  for (let retries = 0; ; retries++) {
    const reading = await readAnswer(
      name,
      question,
      await sendQuestion(name, question, request, ctx, signal),
    );
    if (reading.ok) return reading.outcome;
    request = reaskOrFail(name, question, reading, retries, maxRetries);
  }
}

/**
 * Asks one round's questions together and resolves with their outcomes, in order. The first
 * failure (the client's error, or an answer that stays unusable) cancels the others (the client
 * is told) and rejects with that failure.
 */
async function askAll(
  questions: readonly (readonly [string, Question])[],
  ctx: RequestContext,
  maxRetries: number,
): Promise<ResolverOutcome<unknown>[]> {
  const batch = new AbortController();
  return await Promise.all(
    questions.map(([name, question]) =>
      askUntilUsable(name, question, ctx, batch.signal, maxRetries).catch((error: unknown) => {
        batch.abort(error);
        throw error;
      }),
    ),
  );
}

/** Options of {@link resolveOverBackChannel}. */
export interface BackChannelOptions {
  /**
   * How many times an off-schema answer to one question is asked again before the call fails.
   * Default {@link DEFAULT_MAX_INVALID_ANSWER_RETRIES}.
   */
  readonly maxInvalidAnswerRetries?: number;
}

/**
 * Runs every round of a resolver tool in-process over the back-channel of `ctx`'s session and
 * resolves with the values for its handler. Resolver functions run again each round (each at most
 * once per round); each question is sent once per call, those of one round concurrently. At most as
 * many rounds run as the graph has resolvers: a question that still changes after that (one that is
 * not a deterministic function of the arguments and earlier answers) fails the call. An accepted
 * answer whose content does not match its form is asked again at once, its message followed by the
 * validation note, up to `maxInvalidAnswerRetries` times per question.
 *
 * @throws ResolverError for an unusable answer (of the wrong kind, or not matching the schema once
 *   the re-asks are spent), a
 *   declined or cancelled question with a plain consumer, or a question that keeps changing;
 *   McpError -32021 (before the round's questions are sent) when one needs a capability the client
 *   did not declare; whatever the back-channel throws (the client's error, a timeout, the request's
 *   abort reason); whatever a resolver function throws.
 */
export async function resolveOverBackChannel(
  graph: ResolverGraph,
  args: unknown,
  ctx: RequestContext,
  options: BackChannelOptions = {},
): Promise<Extract<ResolveOutcome, { status: "resolved" }>> {
  const maxRetries = options.maxInvalidAnswerRetries ?? DEFAULT_MAX_INVALID_ANSWER_RETRIES;
  const answered = new Map<string, Answered>();
  for (let round = 0; ; round++) {
    const asker = new BackChannelAsker(answered, ctx);
    const walked = await walkResolvers(graph, { args, ctx, asker });
    if (walked.status === "resolved") return walked;
    const questions = [...asker.pending];
    if (round >= graph.resolverNames.length) {
      const [name] = questions[0] as [string, Question];
      throw new ResolverError(
        name,
        `Resolver '${name}' asked a different question every round; a question must be a deterministic function of the arguments and earlier answers.`,
      );
    }
    const outcomes = await askAll(questions, ctx, maxRetries);
    for (const [index, [name, question]] of questions.entries()) {
      answered.set(name, { digest: question.digest, outcome: outcomes[index] as ResolverOutcome<unknown> });
    }
  }
}
