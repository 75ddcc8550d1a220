/**
 * Declaring resolvers: `resolver(name, fn)` / `resolver(name, { needs }, fn)` build a named,
 * immutable resolver whose function computes a value or asks a question (`elicit`, `sample`,
 * `listRoots`); `outcome(resolver)` asks for the outcome union instead of the unwrapped value. The
 * types carry each resolver's arguments and value, so consumers are typed from the markers.
 */
import type { RequestContext } from "../context.js";
import type { Awaitable } from "../handlers.js";
import { isPlainObject } from "../schema/json.js";
import type { ResolverOutcome } from "./outcome.js";
import type { QuestionValue } from "./question.js";

/**
 * A resolver name: 1-128 characters of `A-Z a-z 0-9 _ . : / -`, and not `__proto__`. It is the
 * resolver's wire key.
 */
export const RESOLVER_NAME_PATTERN = /^[A-Za-z0-9_.:/-]{1,128}$/;

/** Type-level only: the arguments a resolver reads and the value it gives. Never present at run time. */
export interface ResolverTypes<Args, Value> {
  /** The tool arguments the resolver reads (in parameter position, so a resolver reading fewer fits a tool giving more). */
  readonly args: (args: Args) => void;
  readonly value: Value;
}

/**
 * A declared resolver: its `name` (the wire key of its question and of its recorded answer, stable
 * across processes and deploys) and the resolvers it `needs`. Build it with {@link resolver}.
 */
export interface Resolver<Args = Record<string, unknown>, Value = unknown> {
  readonly kind: "resolver";
  /** The resolver's name: its `inputRequests` key and its key in `requestState`. */
  readonly name: string;
  /** The dependencies, by the name the function reads them under (frozen). */
  readonly needs: ResolverNeeds;
  /** Type-level only (never present at run time). */
  readonly "~types"?: ResolverTypes<Args, Value>;
}

/** A dependency on a resolver's outcome rather than its value. Build it with {@link outcome}. */
export interface OutcomeDependency<Args = Record<string, unknown>, Value = unknown> {
  readonly kind: "outcome";
  /** The resolver whose outcome is wanted. */
  readonly resolver: Resolver<Args, Value>;
  /** Type-level only (never present at run time). */
  readonly "~types"?: ResolverTypes<Args, Value>;
}

/** What a consumer (a tool's `resolve` entry, a resolver's `needs` entry) may name. */
export type ResolverDependency<Args = never> = Resolver<Args, unknown> | OutcomeDependency<Args, unknown>;

/** Dependencies by the name they are read under. */
export type ResolverNeeds = Readonly<Record<string, ResolverDependency>>;

/** The value a dependency gives its consumer: the resolver's value, or its outcome for `outcome(...)`. */
export type DependencyValue<D> =
  D extends OutcomeDependency<never, infer V>
    ? ResolverOutcome<V>
    : D extends Resolver<never, infer V>
      ? V
      : never;

/** The values of a map of dependencies, under the same names. */
export type ResolvedValues<N> = { readonly [K in keyof N]: DependencyValue<N[K]> };

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

type ArgsOfDependency<D> = D extends { readonly "~types"?: ResolverTypes<infer A, unknown> } ? A : never;

/**
 * The arguments a set of dependencies reads: the intersection of theirs, or
 * `Record<string, unknown>` without dependencies.
 */
export type NeedsArgs<N> = [keyof N] extends [never]
  ? Record<string, unknown>
  : UnionToIntersection<{ [K in keyof N]-?: ArgsOfDependency<N[K]> }[keyof N]>;

/** No dependencies. */
export type NoNeeds = Record<never, never>;

/** What a resolver function receives. */
export interface ResolverInput<Args = Record<string, unknown>, Needs extends ResolverNeeds = NoNeeds> {
  /** The tool's validated arguments (the same object every resolver and the handler see; do not modify it). */
  readonly args: Args;
  /** The values of the dependencies, under the names of `needs`. */
  readonly needs: ResolvedValues<Needs>;
  /** The request being served. */
  readonly ctx: RequestContext;
}

/** The value a resolver whose function returns `R` gives (markers mapped by {@link QuestionValue}). */
export type ResolverValue<R> = QuestionValue<Awaited<R>>;

/** How a resolver function is stored (types erased). */
export type AnyResolverFunction = (input: {
  args: unknown;
  needs: Readonly<Record<string, unknown>>;
  ctx: RequestContext;
}) => Awaitable<unknown>;

/** The run-time definition of a resolver. */
export interface ResolverDefinition {
  readonly name: string;
  /** The dependencies, in declaration order. */
  readonly needs: readonly (readonly [string, ResolverDependency])[];
  readonly fn: AnyResolverFunction;
}

const definitions = new WeakMap<object, ResolverDefinition>();
const outcomeWrappers = new WeakSet<object>();

/** The definition of a resolver built by {@link resolver}, or undefined for anything else. */
export function definitionOf(value: unknown): ResolverDefinition | undefined {
  return typeof value === "object" && value !== null ? definitions.get(value) : undefined;
}

/** True for a resolver built by {@link resolver}. */
export function isResolver(value: unknown): value is Resolver<never, unknown> {
  return definitionOf(value) !== undefined;
}

/** True for a wrapper built by {@link outcome}. */
export function isOutcomeDependency(value: unknown): value is OutcomeDependency<never, unknown> {
  return typeof value === "object" && value !== null && outcomeWrappers.has(value);
}

/** The resolver a dependency names, or undefined when it is neither a resolver nor `outcome(resolver)`. */
export function dependencyTarget(value: unknown): Resolver<never, unknown> | undefined {
  if (isResolver(value)) return value;
  if (isOutcomeDependency(value)) return value.resolver;
  return undefined;
}

function checkName(name: unknown): asserts name is string {
  if (typeof name !== "string" || !RESOLVER_NAME_PATTERN.test(name)) {
    throw new TypeError(
      `resolver name ${JSON.stringify(name)} must be 1-128 characters of letters, digits, "_", ".", ":", "/" and "-"`,
    );
  }
  if (name === "__proto__") {
    throw new TypeError(
      'resolver name "__proto__" cannot be a wire key: JSON maps drop it, so its question could never be answered',
    );
  }
}

function copyNeeds(name: string, needs: unknown): [string, ResolverDependency][] {
  if (!isPlainObject(needs)) throw new TypeError(`resolver "${name}": needs must be an object of resolvers`);
  return Object.keys(needs).map((key) => {
    const dependency = needs[key];
    if (dependencyTarget(dependency) === undefined) {
      throw new TypeError(
        `resolver "${name}": needs.${key} is not a resolver (build it with resolver(name, fn), or wrap one with outcome(...))`,
      );
    }
    return [key, dependency as ResolverDependency];
  });
}

/**
 * Declares a resolver: a named function that computes a value for a tool, or asks the client for it.
 *
 * ```ts
 * const region = resolver("region", ({ args }) =>
 *   elicit(`Which region should ${String(args.name)} live in?`, z.object({ region: z.string() })));
 * const confirm = resolver("confirm", { needs: { region } }, ({ needs }) =>
 *   elicit(`Create it in ${needs.region.region}?`, z.object({ ok: z.boolean() })));
 * ```
 *
 * The function receives `{ args, needs, ctx }` and returns (or resolves to) `elicit(...)`,
 * `sample(...)`, `listRoots()`, or any plain value. A plain value is computed on every round and
 * never stored; an answered question is stored in the call's sealed `requestState` and asked once
 * per call. The function itself runs again on every round the call passes through (at most once
 * per round), so keep it cheap and deterministic; side effects belong in the tool's handler.
 *
 * `name` is the question's wire key (its `inputRequests` key and its key in `requestState`): keep
 * it stable across deploys, and unique among the resolvers one tool uses. `args` is typed
 * `Record<string, unknown>` unless the input is annotated (`({ args }: ResolverInput<Provision>)`),
 * and a resolver with `needs` reads the arguments its dependencies read. The options are copied.
 *
 * @throws TypeError for a name outside {@link RESOLVER_NAME_PATTERN}, options that are not an object
 *   with a `needs` object, a `needs` entry that is not a resolver or `outcome(resolver)`, or a `fn`
 *   that is not a function.
 */
export function resolver<R, A = Record<string, unknown>>(
  name: string,
  fn: (input: ResolverInput<A>) => R,
): Resolver<A, ResolverValue<R>>;
export function resolver<N extends ResolverNeeds, R, A = NeedsArgs<N>>(
  name: string,
  options: { readonly needs: N },
  fn: (input: ResolverInput<A, N>) => R,
): Resolver<A & NeedsArgs<N>, ResolverValue<R>>;
export function resolver(name: string, optionsOrFn: unknown, maybeFn?: unknown): Resolver {
  checkName(name);
  const fn = maybeFn === undefined ? optionsOrFn : maybeFn;
  let needs: [string, ResolverDependency][] = [];
  if (maybeFn !== undefined) {
    if (!isPlainObject(optionsOrFn)) throw new TypeError(`resolver "${name}": options must be an object`);
    needs = copyNeeds(name, optionsOrFn.needs);
  }
  if (typeof fn !== "function") throw new TypeError(`resolver "${name}": fn must be a function`);
  const declared: Resolver = Object.freeze({
    kind: "resolver",
    name,
    needs: Object.freeze(Object.fromEntries(needs)),
  });
  definitions.set(declared, {
    name,
    needs: Object.freeze(needs.map((entry) => Object.freeze(entry))),
    fn: fn as AnyResolverFunction,
  });
  return declared;
}

/**
 * Wraps a resolver for a consumer that wants its outcome rather than its value:
 * `{ status: "accepted", content } | { status: "declined" } | { status: "cancelled" }`. A plain
 * consumer of a declined or cancelled question fails the call; an outcome consumer branches on it.
 *
 * ```ts
 * mcp.tool("delete", { resolve: { confirm: outcome(confirm) } }, async (args, ctx) =>
 *   ctx.resolved.confirm.status === "accepted" && ctx.resolved.confirm.content.ok ? remove() : "Nothing deleted");
 * ```
 *
 * @throws TypeError when `target` is not a resolver built by {@link resolver}.
 */
export function outcome<A, V>(target: Resolver<A, V>): OutcomeDependency<A, V> {
  if (!isResolver(target)) {
    throw new TypeError("outcome: expected a resolver built by resolver(name, fn)");
  }
  const wrapper: OutcomeDependency<A, V> = Object.freeze({ kind: "outcome", resolver: target });
  outcomeWrappers.add(wrapper);
  return wrapper;
}
