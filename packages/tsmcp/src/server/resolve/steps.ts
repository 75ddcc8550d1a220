/**
 * The recorded steps of an await-style handler (`ctx.ask`, `ctx.once`): what a call remembers
 * between multi-round-trip rounds, inside the plaintext `requestState` that `MCPServer` seals. The
 * steps live under the `steps` member of the state object, next to a resolver tool's own fields,
 * so one `requestState` carries both. Anything that does not decode reads as "no steps", never as
 * an error (the sealed token was verified before; a state written by another handler is not ours).
 * Spec: basic/patterns/mrtr.
 */
import { isPlainObject } from "../schema/json.js";
import type { OutcomeRecord } from "./answers.js";

/** The version of the steps format (`steps.v`); any other version reads as no steps. */
export const STEPS_STATE_VERSION = 1;

/**
 * The most UTF-8 bytes the recorded steps of one call may take by default (the JSON of every
 * `once` result and every recorded answer): 65 536. Past it the step that would cross it fails.
 */
export const DEFAULT_MAX_RECORDED_STEP_BYTES = 65_536;

/** A recorded `ctx.once(key, fn)`: its key and fn's result (as JSON; no `v` when it was `undefined`). */
export interface OnceStep {
  readonly t: "once";
  readonly k: string;
  readonly v?: unknown;
}

/**
 * A recorded `ctx.ask(...)`: each question's input key with its digest (`q`), the outcomes read so
 * far (`o`), and how many times an off-schema answer was asked again (`n`). Complete when every
 * key of `q` has an outcome.
 */
export interface AskStep {
  readonly t: "ask";
  readonly q: Readonly<Record<string, string>>;
  readonly o: Readonly<Record<string, OutcomeRecord>>;
  readonly n?: Readonly<Record<string, number>>;
}

/** One recorded step. */
export type Step = OnceStep | AskStep;

/** True when every question of an ask step has an outcome. */
export function isComplete(step: AskStep): boolean {
  return Object.keys(step.q).every((key) => Object.hasOwn(step.o, key));
}

function decodeOutcome(entry: unknown): OutcomeRecord | undefined {
  if (!isPlainObject(entry)) return undefined;
  if (entry.action === "accept")
    return Object.hasOwn(entry, "data") ? { action: "accept", data: entry.data } : undefined;
  if (entry.action === "decline" || entry.action === "cancel") return { action: entry.action };
  return undefined;
}

function decodeStringMap(value: unknown): Record<string, string> | undefined {
  if (!isPlainObject(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [key, digest] of Object.entries(value)) {
    if (typeof digest !== "string" || digest === "") return undefined;
    out[key] = digest;
  }
  return out;
}

function decodeStep(entry: unknown): Step | undefined {
  if (!isPlainObject(entry)) return undefined;
  if (entry.t === "once") {
    if (typeof entry.k !== "string") return undefined;
    return Object.hasOwn(entry, "v") ? { t: "once", k: entry.k, v: entry.v } : { t: "once", k: entry.k };
  }
  if (entry.t !== "ask") return undefined;
  const q = decodeStringMap(entry.q);
  if (q === undefined || !isPlainObject(entry.o)) return undefined;
  const o: Record<string, OutcomeRecord> = {};
  for (const [key, raw] of Object.entries(entry.o)) {
    const outcome = decodeOutcome(raw);
    if (outcome === undefined || !Object.hasOwn(q, key)) return undefined;
    o[key] = outcome;
  }
  const n: Record<string, number> = {};
  if (isPlainObject(entry.n)) {
    for (const [key, count] of Object.entries(entry.n)) {
      if (Number.isSafeInteger(count) && (count as number) > 0) n[key] = count as number;
    }
  }
  return Object.keys(n).length === 0 ? { t: "ask", q, o } : { t: "ask", q, o, n };
}

/**
 * Reads the steps recorded in a plaintext `requestState`:
 * `{ ..., "steps": { "v": 1, "list": [ { "t": "once", "k", "v" } | { "t": "ask", "q", "o", "n"? } | null ] } }`
 * (`null`: a step not reached, e.g. a `once` started beside a pending question).
 * Never throws: no state, malformed JSON, no `steps` member, another version, or any malformed
 * step give no steps at all (a partial list would replay the handler against the wrong positions).
 */
export function decodeSteps(text: string | undefined): readonly (Step | undefined)[] {
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isPlainObject(parsed) || !isPlainObject(parsed.steps)) return [];
  const { v, list } = parsed.steps;
  if (v !== STEPS_STATE_VERSION || !Array.isArray(list)) return [];
  const steps: (Step | undefined)[] = [];
  for (const entry of list) {
    if (entry === null) {
      steps.push(undefined);
      continue;
    }
    const step = decodeStep(entry);
    if (step === undefined) return [];
    steps.push(step);
  }
  return steps;
}

/**
 * Writes `steps` into a plaintext `requestState`: the members of `base` (a resolver tool's own
 * state, as JSON text; ignored unless it is a JSON object) plus `steps`. Lone surrogates in
 * recorded values are escaped and read back intact.
 */
export function encodeSteps(base: string | undefined, steps: readonly (Step | undefined)[]): string {
  let members: Record<string, unknown> = {};
  if (base !== undefined) {
    try {
      const parsed: unknown = JSON.parse(base);
      if (isPlainObject(parsed)) members = parsed;
    } catch {
      // Not ours to keep.
    }
  }
  const list = Array.from(steps, (step) => step ?? null);
  return JSON.stringify({ ...members, steps: { v: STEPS_STATE_VERSION, list } });
}

/**
 * The JSON copy of `value` that a `once` step records and returns, and its text (what counts
 * against the bound). A `fn` that returns nothing (`undefined`, e.g. a `Promise<void>`) is
 * recorded as no value (`text` empty) and returns `undefined` on every round.
 *
 * @throws TypeError naming the key when `value` is not JSON (a function, a symbol, a bigint, a
 *   cycle, a non-finite number, an `undefined` inside it).
 */
export function jsonCopy(key: string, value: unknown): { readonly value: unknown; readonly text: string } {
  if (value === undefined) return { value: undefined, text: "" };
  const problem = notJson(value, new Set());
  if (problem !== undefined) {
    throw new TypeError(
      `ctx.once("${key}"): the result must be JSON (it is recorded in the requestState and returned on every round), but ${problem}`,
    );
  }
  const text = JSON.stringify(value);
  return { value: JSON.parse(text), text };
}

/** A fresh copy of a recorded `once` value (`undefined` stays `undefined`). */
export function recordedValue(copy: { readonly text: string }): unknown {
  return copy.text === "" ? undefined : JSON.parse(copy.text);
}

/** Why `value` is not JSON, or undefined when it is. */
function notJson(value: unknown, seen: Set<object>, path = "the result"): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${path} is ${value}`;
    case "object": {
      if (value === null) return undefined;
      if (seen.has(value)) return `${path} refers back to itself`;
      seen.add(value);
      try {
        if (Array.isArray(value)) {
          for (const [index, item] of value.entries()) {
            const problem = notJson(item, seen, `${path}[${index}]`);
            if (problem !== undefined) return problem;
          }
          return undefined;
        }
        if (typeof (value as { toJSON?: unknown }).toJSON === "function") return undefined;
        // JSON.stringify would write these as {} and lose what they hold.
        if (value instanceof Map || value instanceof Set) return `${path} is a ${value.constructor.name}`;
        for (const [name, item] of Object.entries(value)) {
          const problem = notJson(item, seen, `${path}.${name}`);
          if (problem !== undefined) return problem;
        }
        return undefined;
      } finally {
        seen.delete(value);
      }
    }
    default:
      return `${path} is ${value === undefined ? "undefined" : `a ${typeof value}`}`;
  }
}
