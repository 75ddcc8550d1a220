/**
 * Scripted answers for the test harness: what a test says the user answers, turned into the
 * client's callbacks. A script answers by input key (one answer, or one per occurrence), by round,
 * or with a function; each answer is a short form (form content, "decline", a text reply, a list
 * of roots) or the full result. A question the script does not answer fails the call with
 * {@link UnscriptedQuestionError}, naming the key and the question.
 * Spec: client/elicitation, client/sampling, client/roots, basic/patterns/mrtr.
 */
import type { InputCallbacks, InputRequestContext } from "../client/callbacks.js";
import type {
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  ListRootsResult,
} from "../protocol/schema/input.js";

/**
 * One scripted answer:
 * - to an elicitation: the form's content (a plain object), `"decline"`, `"cancel"`, or an
 *   `ElicitResult` (`{ action, content? }`);
 * - to a sampling request: the reply's text (a string) or a `CreateMessageResult`;
 * - to a roots request: the root URIs (strings) or `{ uri, name? }` objects, or a `ListRootsResult`.
 */
export type ScriptedAnswer =
  | "decline"
  | "cancel"
  | string
  | ElicitResult
  | CreateMessageResult
  | ListRootsResult
  | readonly (string | { readonly uri: string; readonly name?: string })[]
  | Readonly<Record<string, unknown>>;

/** What a script function is told about the question it answers. */
export interface QuestionInfo {
  /** The input key (on a 2025-11-25 session, the key a tsmcp server names, else the request id). */
  readonly key: string;
  /** The 2026-07-28 round (1-based); 1 on a 2025-11-25 session. */
  readonly round: number;
  /** The era the question came in. */
  readonly era: "modern" | "legacy";
}

/**
 * How a test answers the server's questions:
 * - `{ key: answer }`, or `{ key: [first, second, ...] }` for a question asked again (each
 *   occurrence takes the next; the last is kept; for a roots question, a list of root lists);
 * - `[{ key: answer }, { key: answer }]`: by round (2026-07-28); on a 2025-11-25 session, where
 *   questions come one by one, a key's nth occurrence takes the nth round object that names it;
 * - `(request, info) => answer`, for anything else.
 */
export type AnswerScript =
  | Readonly<Record<string, ScriptedAnswer | readonly ScriptedAnswer[]>>
  | readonly Readonly<Record<string, ScriptedAnswer>>[]
  | ((request: InputRequest, info: QuestionInfo) => ScriptedAnswer | Promise<ScriptedAnswer>);

/** A question the script has no answer for: the call fails with this, naming the key and question. */
export class UnscriptedQuestionError extends Error {
  override readonly name = "UnscriptedQuestionError";
  /** The input key. */
  readonly key: string;
  /** The request the server made. */
  readonly request: InputRequest;

  constructor(key: string, request: InputRequest) {
    super(
      `No scripted answer for the question "${key}" (${request.method}): ${JSON.stringify(request.params ?? {})}`,
    );
    this.key = key;
    this.request = request;
  }
}

/** One question the server asked, as a run records it. */
export interface AskedQuestion {
  /** The round it came in (2026-07-28; 1 on a 2025-11-25 session). */
  readonly round: number;
  /** Its input key. */
  readonly key: string;
  /** Which kind of question. */
  readonly kind: "elicitation" | "sampling" | "roots";
  /** The request as the server made it. */
  readonly request: InputRequest;
}

const KIND = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
} as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The script's raw answer to one question, or undefined. */
async function pick(
  script: AnswerScript,
  request: InputRequest,
  info: QuestionInfo,
  seen: Map<string, number>,
): Promise<ScriptedAnswer | undefined> {
  if (typeof script === "function") return await script(request, info);
  const occurrence = seen.get(info.key) ?? 0;
  seen.set(info.key, occurrence + 1);
  if (Array.isArray(script)) {
    const rounds = script as readonly Readonly<Record<string, ScriptedAnswer>>[];
    if (info.era === "modern") return rounds[info.round - 1]?.[info.key];
    return rounds.filter((round) => Object.hasOwn(round, info.key))[occurrence]?.[info.key];
  }
  const byKey = script as Readonly<Record<string, ScriptedAnswer | readonly ScriptedAnswer[]>>;
  if (!Object.hasOwn(byKey, info.key)) return undefined;
  const entry = byKey[info.key];
  // A list of roots is one answer; a list of lists of roots, one per occurrence.
  const oneRootsAnswer = request.method === "roots/list" && !(entry as unknown[]).some?.(Array.isArray);
  if (!Array.isArray(entry) || oneRootsAnswer) return entry as ScriptedAnswer;
  return entry[Math.min(occurrence, entry.length - 1)] as ScriptedAnswer | undefined;
}

function toElicitResult(answer: ScriptedAnswer): ElicitResult {
  if (answer === "decline" || answer === "cancel") return { action: answer };
  if (isPlainObject(answer) && typeof answer.action === "string") return answer as ElicitResult;
  return { action: "accept", content: answer as ElicitResult["content"] };
}

function toSamplingResult(answer: ScriptedAnswer): CreateMessageResult {
  if (typeof answer === "string") {
    return { role: "assistant", content: { type: "text", text: answer }, model: "tsmcp-testing" };
  }
  return answer as CreateMessageResult;
}

function toRootsResult(answer: ScriptedAnswer): ListRootsResult {
  if (Array.isArray(answer)) {
    return { roots: answer.map((root) => (typeof root === "string" ? { uri: root } : { ...root })) };
  }
  return answer as ListRootsResult;
}

/** Which kinds of question the harness's client declares it can answer. */
export interface AnswerableKinds {
  readonly elicitation?: boolean;
  readonly sampling?: boolean;
  readonly roots?: boolean;
}

/**
 * The client callbacks that answer from `script`, recording each question in `asked` (only the
 * kinds `kinds` allows get a callback, so only those capabilities are declared). Each question the
 * script does not answer is also pushed on `unscripted` (a 2025-11-25 server reports only that a
 * callback failed).
 */
export function scriptedCallbacks(
  script: AnswerScript,
  asked: AskedQuestion[],
  kinds: AnswerableKinds = {},
  unscripted: UnscriptedQuestionError[] = [],
): InputCallbacks {
  const seen = new Map<string, number>();
  const answer = async (request: InputRequest, context: InputRequestContext): Promise<ScriptedAnswer> => {
    const info: QuestionInfo = { key: context.key, round: context.round, era: context.era };
    asked.push({ round: info.round, key: info.key, kind: KIND[request.method], request });
    const picked = await pick(script, request, info, seen);
    if (picked === undefined) {
      const error = new UnscriptedQuestionError(info.key, request);
      unscripted.push(error);
      throw error;
    }
    return picked;
  };
  return {
    ...(kinds.elicitation === false
      ? {}
      : {
          elicitationCallback: async (params, context) =>
            toElicitResult(await answer({ method: "elicitation/create", params } as InputRequest, context)),
        }),
    ...(kinds.sampling === false
      ? {}
      : {
          samplingCallback: async (params, context) =>
            toSamplingResult(
              await answer({ method: "sampling/createMessage", params } as InputRequest, context),
            ),
        }),
    ...(kinds.roots === false
      ? {}
      : {
          listRootsCallback: async (context) =>
            toRootsResult(await answer({ method: "roots/list" } as InputRequest, context)),
        }),
  };
}
