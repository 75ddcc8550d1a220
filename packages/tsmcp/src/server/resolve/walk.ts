/**
 * One pass over a tool's resolver graph, independent of how questions reach the client: each
 * resolver runs at most once, after its dependencies; a question it returns goes to a
 * `QuestionAsker`, which answers it (from state, a fresh response, or a back-channel) or leaves it
 * pending. Every dependency is visited even after one is pending, so independent questions go out
 * together; a resolver with a pending dependency does not run.
 */
import type { RequestContext } from "../context.js";
import { ResolverError } from "./errors.js";
import type { GraphEdge, GraphNode, ResolverGraph } from "./graph.js";
import type { ResolverOutcome } from "./outcome.js";
import { isQuestion, type Question } from "./question.js";

/** What asking one question came to: an outcome now, or an answer still to come. */
export type AskResult =
  | { readonly status: "answered"; readonly outcome: ResolverOutcome<unknown> }
  | { readonly status: "pending" };

/**
 * Delivers the questions of one walk. The multi-round-trip asker answers from `requestState` and
 * this round's `inputResponses`, or leaves a question pending for the next round; a back-channel
 * asker sends the request and waits.
 */
export interface QuestionAsker {
  /**
   * Answers the question resolver `name` asks.
   *
   * @throws ResolverError when the client's answer is unusable; McpError when the question cannot
   *   be asked (e.g. -32021 for an undeclared capability).
   */
  ask(name: string, question: Question): Promise<AskResult>;
}

/** What one walk came to: every value, or at least one question pending. */
export type WalkResult =
  | { readonly status: "resolved"; readonly values: Readonly<Record<string, unknown>> }
  | { readonly status: "pending" };

/** What a walk needs besides the graph. */
export interface WalkInput {
  /** The tool's validated arguments, as every resolver sees them. */
  readonly args: unknown;
  /** The request being served. */
  readonly ctx: RequestContext;
  /** Where questions go. */
  readonly asker: QuestionAsker;
}

type NodeResult = AskResult;

const PENDING = Object.freeze({ status: "pending" as const });

/**
 * The value an edge's consumer receives, or a `ResolverError` for a plain consumer of a declined or
 * cancelled question, whose text is one sentence naming the consumer's name for the value and, when
 * it differs, the resolver: `The user declined the question for 'when'.`,
 * `The user cancelled the question for 'approval' (resolver 'confirm').`
 */
function valueFor(edge: GraphEdge, outcome: ResolverOutcome<unknown>): unknown {
  if (edge.wantsOutcome) return outcome;
  if (outcome.status === "accepted") return outcome.content;
  const resolverName = edge.name === edge.node.name ? "" : ` (resolver '${edge.node.name}')`;
  throw new ResolverError(
    edge.node.name,
    `The user ${outcome.status} the question for '${edge.name}'${resolverName}.`,
  );
}

/**
 * Walks `graph` once: visits the tool's edges in declaration order, resolving each resolver after
 * its dependencies, at most once. A plain consumer of a declined or cancelled question fails the
 * walk as soon as it is reached, even while other questions are pending.
 *
 * @throws ResolverError for a declined or cancelled question with a plain consumer, or an unusable
 *   answer; whatever a resolver function or the asker throws.
 */
export async function walkResolvers(graph: ResolverGraph, input: WalkInput): Promise<WalkResult> {
  const results = new Map<GraphNode, NodeResult>();

  const visit = async (node: GraphNode): Promise<NodeResult> => {
    const known = results.get(node);
    if (known !== undefined) return known;
    let pending = false;
    const needs: [string, unknown][] = [];
    for (const edge of node.needs) {
      const result = await visit(edge.node);
      if (result.status === "pending") pending = true;
      else needs.push([edge.name, valueFor(edge, result.outcome)]);
    }
    let result: NodeResult = PENDING;
    if (!pending) {
      const value = await node.fn({
        args: input.args,
        needs: Object.freeze(Object.fromEntries(needs)),
        ctx: input.ctx,
      });
      result = isQuestion(value)
        ? await input.asker.ask(node.name, value)
        : { status: "answered", outcome: { status: "accepted", content: value } };
    }
    results.set(node, result);
    return result;
  };

  let pending = false;
  const values: [string, unknown][] = [];
  for (const edge of graph.edges) {
    const result = await visit(edge.node);
    if (result.status === "pending") pending = true;
    else values.push([edge.name, valueFor(edge, result.outcome)]);
  }
  return pending ? PENDING : { status: "resolved", values: Object.freeze(Object.fromEntries(values)) };
}
