/**
 * The one-channel rule at the type level: a call has one `inputResponses` / `requestState` channel,
 * so the handler of a tool whose rounds are driven by resolvers cannot also return an
 * `InputRequiredResult`. `WithoutInputRequired<T>` is a handler's return type with every arm an
 * `InputRequiredResult` could fit removed; at run time a handler that returns one anyway fails the
 * call with {@link oneChannelViolation}. Spec: basic/patterns/mrtr.
 */

/** What a plain object a handler returns may not be: tagged `resultType: "input_required"`. */
export interface NotInputRequiredTag {
  readonly resultType?: "complete";
}

/** An object that is neither an `InputRequiredResult` nor a promise (so `Awaitable<...>` cannot hide one). */
export interface SettledNotInputRequired extends NotInputRequiredTag {
  readonly then?: never;
}

/**
 * Any value except an `InputRequiredResult`: what a handler with resolvers may return where its
 * result type is otherwise unknown (a raw JSON Schema output schema).
 */
export type NotInputRequired =
  | string
  | number
  | boolean
  | bigint
  | null
  | undefined
  | (readonly unknown[] & NotInputRequiredTag)
  | (object & SettledNotInputRequired)
  | ({ readonly [key: string]: unknown } & SettledNotInputRequired);

/**
 * The type a resolver tool's return type has where an `InputRequiredResult` would fit: no value
 * has it (its `resultType` is the rule, in words), so returning an `InputRequiredResult` is a type
 * error that names this type and says "a tool with resolvers cannot return an InputRequiredResult".
 */
export interface ResolverToolInputRequired {
  readonly resultType: "input_required";
  readonly "a tool with resolvers cannot return an InputRequiredResult": never;
}

/**
 * `T` without the arms an `InputRequiredResult` fits: `unknown` becomes {@link NotInputRequired};
 * an arm tagged `resultType: "input_required"` becomes `ResolverToolInputRequired`; every
 * other object arm (arrays included, so the compiler names the rule rather than an array's missing
 * methods) refuses a `resultType` other than "complete". Distributes over unions.
 */
export type WithoutInputRequired<T> = unknown extends T
  ? NotInputRequired | ResolverToolInputRequired
  : T extends { readonly resultType: "input_required" }
    ? ResolverToolInputRequired
    : T extends object
      ? T & NotInputRequiredTag
      : T;

/**
 * The message of the `isError` result a tool with resolvers answers when its handler returned an
 * `InputRequiredResult` anyway (its side effects have happened by then).
 */
export function oneChannelViolation(tool: string): string {
  return (
    `Tool "${tool}" returned an InputRequiredResult, but its rounds are driven by its resolvers: a call ` +
    "has one input_required channel, so the multi-round flow is driven either by resolvers or by the tool " +
    "handler, not both"
  );
}

/**
 * What the handler of a tool with resolvers may return: `T` without its `InputRequiredResult`
 * arms ({@link WithoutInputRequired}), or a promise of that. The promise arm is tagged too, so a
 * returned `InputRequiredResult` is matched against `ResolverToolInputRequired` and the
 * compiler's message states the rule.
 */
export type ResolverToolReturn<T> =
  | WithoutInputRequired<T>
  | (Promise<WithoutInputRequired<T>> & NotInputRequiredTag);
