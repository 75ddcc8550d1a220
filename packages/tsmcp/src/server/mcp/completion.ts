/**
 * Argument completion: the `complete` callbacks a prompt argument or resource-template variable may
 * have, and the `completion/complete` result they produce (at most 100 values, with `total` and
 * `hasMore` when there were more). Spec: server/utilities/completion.
 */
import type { CompleteResult } from "../../protocol/schema/methods.js";
import type { Awaitable } from "../handlers.js";
import { isPlainObject } from "../schema/json.js";
import type { Context } from "./context.js";

/** The most values one completion result carries. Spec: server/utilities/completion. */
export const MAX_COMPLETION_VALUES = 100;

/** What a completer knows besides the partial value: the other arguments the client already filled. */
export interface CompletionContext {
  /** Arguments (or template variables) already resolved by the client, by name. */
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Suggests values for one argument: the partial `value` typed so far, the other arguments, and the
 * request's `Context`. Returns the suggestions, best first; more than 100 are cut to 100 with
 * `hasMore: true`.
 */
export type Completer = (
  value: string,
  context: CompletionContext,
  ctx: Context,
) => Awaitable<readonly string[]>;

/** Completers by argument name. */
export type Completers<Names extends string> = { readonly [K in Names]?: Completer };

/**
 * Checks a `complete` option: an object of functions keyed by known argument names. Returns a
 * copy (so later changes to the caller's object have no effect).
 *
 * @throws TypeError naming `where` for a non-object, a non-function, or an unknown name.
 */
export function checkCompleters(
  complete: unknown,
  names: readonly string[],
  where: string,
): ReadonlyMap<string, Completer> {
  const completers = new Map<string, Completer>();
  if (complete === undefined) return completers;
  if (!isPlainObject(complete)) throw new TypeError(`${where}: complete must be an object of functions`);
  for (const [name, completer] of Object.entries(complete)) {
    if (!names.includes(name)) {
      throw new TypeError(
        `${where}: complete.${name} names no argument (known: ${names.join(", ") || "none"})`,
      );
    }
    if (typeof completer !== "function") throw new TypeError(`${where}: complete.${name} must be a function`);
    completers.set(name, completer as Completer);
  }
  return completers;
}

/**
 * Runs the completer for `argument` (none: no values) and shapes the result.
 *
 * @throws TypeError when the completer returns something other than an array of strings.
 */
export async function complete(
  completers: ReadonlyMap<string, Completer>,
  argument: { name: string; value: string },
  context: CompletionContext,
  ctx: Context,
): Promise<CompleteResult> {
  const completer = completers.get(argument.name);
  if (completer === undefined) return { completion: { values: [] } };
  const values = await completer(argument.value, context, ctx);
  if (!Array.isArray(values) || !values.every((value) => typeof value === "string")) {
    throw new TypeError(`the completer for "${argument.name}" must return an array of strings`);
  }
  if (values.length <= MAX_COMPLETION_VALUES) return { completion: { values: [...values] } };
  return {
    completion: { values: values.slice(0, MAX_COMPLETION_VALUES), total: values.length, hasMore: true },
  };
}
