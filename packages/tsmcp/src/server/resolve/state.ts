/**
 * The resolver state: what a call remembers between rounds, as the plaintext `requestState` that
 * `MCPServer` seals before it leaves the server. It records each answered question's outcome (the
 * client's raw answer, or decline / cancel) with the digest of the exact question it answered, and
 * the digests of the questions pending in the previous round, and for a question asked again after
 * an off-schema answer, how many times it was asked again (sealed with the rest, so a client cannot
 * reset the count). Anything that does not decode —
 * garbage, another version, a wrong shape — reads as "no progress", never as an error.
 */
import { isPlainObject } from "../schema/json.js";

/** The version of the resolver state format (`"v"`); any other version reads as no progress. */
export const RESOLVER_STATE_VERSION = 1;

/** One recorded outcome: the action, the client's raw answer for `accept`, and the question's digest. */
export type RecordedOutcome =
  | { readonly action: "accept"; readonly data: unknown; readonly q: string }
  | { readonly action: "decline" | "cancel"; readonly q: string };

/** What a call remembers between rounds. */
export interface ResolverState {
  /** Recorded outcomes, by resolver name. */
  readonly outcomes: ReadonlyMap<string, RecordedOutcome>;
  /** The digests of the questions pending in the previous round, by resolver name. */
  readonly asked: ReadonlyMap<string, string>;
  /**
   * How many times each pending question was asked again after an off-schema answer, by resolver
   * name (absent: never). Written only when not empty.
   */
  readonly invalid?: ReadonlyMap<string, number>;
}

/** No progress: nothing recorded, nothing asked. */
export const EMPTY_RESOLVER_STATE: ResolverState = Object.freeze({
  outcomes: new Map<string, RecordedOutcome>(),
  asked: new Map<string, string>(),
});

function decodeOutcome(entry: unknown): RecordedOutcome | undefined {
  if (!isPlainObject(entry) || typeof entry.q !== "string" || entry.q === "") return undefined;
  switch (entry.action) {
    case "accept":
      return Object.hasOwn(entry, "data") ? { action: "accept", data: entry.data, q: entry.q } : undefined;
    case "decline":
    case "cancel":
      return { action: entry.action, q: entry.q };
    default:
      return undefined;
  }
}

/**
 * Reads the plaintext `requestState` of a resolver tool: `{"v":1,"outcomes":{name:{action,data?,q}},
 * "asked":{name:digest},"invalid":{name:count}}` (`invalid` optional). Never throws: `undefined`, malformed JSON, another version or a wrong
 * shape give {@link EMPTY_RESOLVER_STATE}; a single malformed entry (e.g. without its digest `q`) is
 * dropped, so its question is asked again; an `invalid` count that is not a positive integer is
 * dropped.
 */
export function decodeResolverState(text: string | undefined): ResolverState {
  if (text === undefined) return EMPTY_RESOLVER_STATE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return EMPTY_RESOLVER_STATE;
  }
  if (
    !isPlainObject(parsed) ||
    parsed.v !== RESOLVER_STATE_VERSION ||
    !isPlainObject(parsed.outcomes) ||
    !isPlainObject(parsed.asked)
  ) {
    return EMPTY_RESOLVER_STATE;
  }
  const outcomes = new Map<string, RecordedOutcome>();
  for (const [name, entry] of Object.entries(parsed.outcomes)) {
    const outcome = decodeOutcome(entry);
    if (outcome !== undefined) outcomes.set(name, outcome);
  }
  const asked = new Map<string, string>();
  for (const [name, digest] of Object.entries(parsed.asked)) {
    if (typeof digest === "string" && digest !== "") asked.set(name, digest);
  }
  const invalid = new Map<string, number>();
  if (isPlainObject(parsed.invalid)) {
    for (const [name, count] of Object.entries(parsed.invalid)) {
      if (Number.isSafeInteger(count) && (count as number) > 0) invalid.set(name, count as number);
    }
  }
  return invalid.size === 0 ? { outcomes, asked } : { outcomes, asked, invalid };
}

/**
 * Writes a resolver state as compact JSON (the plaintext the requestState boundary seals). Lone
 * surrogates in recorded answers are escaped (`\udXXX`) and read back intact.
 */
export function encodeResolverState(state: ResolverState): string {
  const invalid = state.invalid === undefined || state.invalid.size === 0 ? undefined : state.invalid;
  return JSON.stringify({
    v: RESOLVER_STATE_VERSION,
    outcomes: Object.fromEntries(state.outcomes),
    asked: Object.fromEntries(state.asked),
    ...(invalid === undefined ? {} : { invalid: Object.fromEntries(invalid) }),
  });
}
