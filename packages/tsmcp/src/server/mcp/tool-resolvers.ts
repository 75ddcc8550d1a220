/**
 * How a tool adopts resolvers (`resolve: { region, confirm: outcome(confirm) }`): its resolver
 * graph is compiled at registration; the resolved names leave the advertised input schema, and a
 * value a client sends under one of them is dropped before validation; before the handler, each call
 * runs one resolver round (2026-07-28: pending questions become an `InputRequiredResult`) or, on a
 * handshake-era session, every round in-process over the back-channel; and a handler that returns an `InputRequiredResult` anyway breaks the
 * one-channel rule and fails the call. Spec: basic/patterns/mrtr.
 */

import type { Logger } from "../logger.js";
import { usesBackChannel } from "../resolve/ask.js";
import { resolveOverBackChannel } from "../resolve/back-channel.js";
import { compileResolverGraph } from "../resolve/graph.js";
import { type RoundContext, resolveStep } from "../resolve/input-required.js";
import { oneChannelViolation } from "../resolve/one-channel.js";
import { withoutProperties } from "../schema/compile.js";
import { isPlainObject } from "../schema/json.js";
import type { JsonSchemaObject } from "../schema/json-schema.js";
import type { Context } from "./context.js";
import { isInputRequiredResult } from "./results.js";

/** The parts of a tool's pipeline its resolvers provide. */
export interface ToolResolverParts {
  /** The input schema to advertise: the tool's, without the resolved names. */
  readonly advertisedInputSchema: JsonSchemaObject;
  /** The names a client may not fill: dropped from the arguments before validation. */
  readonly resolvedNames: readonly string[];
  /**
   * The resolve step: one multi-round-trip round (the values, or the `InputRequiredResult` to
   * answer with), or where the request has a back-channel (a handshake-era session, or the task a
   * call runs as, whose requests become the task's `inputRequests`) every round over it (the values).
   */
  readonly resolve: ReturnType<typeof resolveStep>;
  /** Calls the handler with the resolved values, refusing an `InputRequiredResult` it returns. */
  readonly invoke: (args: unknown, ctx: Context) => Promise<unknown>;
}

/** How a tool's resolvers run, beyond their declaration. */
export interface ToolResolverOptions {
  /** Where discarded answers are noted, at info level. */
  readonly logger: Logger;
  /**
   * How many times an off-schema answer to one question is asked again before the call fails.
   * Default `DEFAULT_MAX_INVALID_ANSWER_RETRIES`.
   */
  readonly maxInvalidAnswerRetries?: number;
}

/**
 * Prepares the resolver parts of tool `name` from its `resolve` map, its compiled input schema and
 * its handler `(args, ctx)` (called with `ctx.resolved` set).
 *
 * @throws TypeError (naming the tool) for a `resolve` map that does not compile (see
 *   `compileResolverGraph`), or a resolved name the input schema requires (a client could never
 *   send it).
 */
export function toolResolverParts(
  name: string,
  resolve: unknown,
  inputSchema: JsonSchemaObject,
  handler: (args: unknown, ctx: Context) => unknown,
  options: ToolResolverOptions,
): ToolResolverParts {
  const where = `tool "${name}"`;
  const graph = compileResolverGraph(resolve, where);
  const required = Array.isArray(inputSchema.required) ? (inputSchema.required as unknown[]) : [];
  for (const parameter of graph.parameters) {
    if (required.includes(parameter)) {
      throw new TypeError(
        `${where}: "${parameter}" is filled by a resolver, so it cannot be a required argument of inputSchema; ` +
          "remove it from inputSchema (the handler reads it on ctx.resolved)",
      );
    }
  }
  const oneRound = resolveStep(graph, options);
  return {
    advertisedInputSchema: withoutProperties(inputSchema, graph.parameters),
    resolvedNames: graph.parameters,
    resolve: (args: unknown, ctx: RoundContext) =>
      usesBackChannel(ctx) ? resolveOverBackChannel(graph, args, ctx, options) : oneRound(args, ctx),
    invoke: async (args, ctx) => {
      const value = await handler(args, ctx);
      if (isInputRequiredResult(value)) throw new Error(oneChannelViolation(name));
      return value;
    },
  };
}

/** The client's arguments without the resolved names (a copy; the arguments themselves are untouched). */
export function withoutResolvedNames(args: unknown, names: readonly string[]): unknown {
  if (names.length === 0 || !isPlainObject(args) || !names.some((name) => Object.hasOwn(args, name)))
    return args;
  return Object.fromEntries(Object.entries(args).filter(([key]) => !names.includes(key)));
}
