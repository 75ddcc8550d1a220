/**
 * Compiling the resolvers of one tool, once, at registration: every resolver reachable from the
 * tool's `resolve` map, checked (one resolver per name, no cycles, only resolvers as dependencies)
 * and linked into nodes the round walk follows.
 */
import { isPlainObject } from "../schema/json.js";
import {
  type AnyResolverFunction,
  definitionOf,
  isOutcomeDependency,
  type ResolverDefinition,
} from "./resolver.js";

/** A consumer's link to a resolver: the name it reads the value under, and which shape it wants. */
export interface GraphEdge {
  /** The consumer's name for the value: a `resolve` key of the tool, or a `needs` key. */
  readonly name: string;
  readonly node: GraphNode;
  /** True for `outcome(resolver)`: the consumer receives the outcome union. */
  readonly wantsOutcome: boolean;
}

/** One resolver of the graph. */
export interface GraphNode {
  /** The resolver's name (its wire key). */
  readonly name: string;
  readonly fn: AnyResolverFunction;
  /** Its dependencies, in declaration order. */
  readonly needs: readonly GraphEdge[];
}

/** The compiled resolvers of one tool. */
export interface ResolverGraph {
  /**
   * The names the tool's handler receives resolved values under (the `resolve` keys, in
   * declaration order): not tool arguments, so they are dropped from the advertised input schema
   * and a value the client sends under one of them is ignored.
   */
  readonly parameters: readonly string[];
  /** Every resolver name in the graph (its possible `inputRequests` keys), in pre-order. */
  readonly resolverNames: readonly string[];
  /** The tool's edges, in declaration order. */
  readonly edges: readonly GraphEdge[];
}

/** Finds the definition of a declared resolver; `undefined` for anything that is not one. */
export type DefinitionLookup = (value: unknown) => ResolverDefinition | undefined;

/**
 * Builds the graph of `resolve` with `lookup`. {@link compileResolverGraph} is this with the
 * resolvers built by `resolver()`.
 *
 * @throws TypeError as {@link compileResolverGraph}.
 */
export function buildResolverGraph(resolve: unknown, where: string, lookup: DefinitionLookup): ResolverGraph {
  if (!isPlainObject(resolve)) throw new TypeError(`${where}: resolve must be an object of resolvers`);
  const byName = new Map<string, { readonly target: object; readonly node: GraphNode }>();
  const path: object[] = [];

  const nodeFor = (target: unknown, consumer: string): GraphNode => {
    const definition = lookup(target);
    if (definition === undefined) {
      throw new TypeError(
        `${where}: ${consumer} is not a resolver (build it with resolver(name, fn), or wrap one with outcome(...))`,
      );
    }
    const known = byName.get(definition.name);
    if (known !== undefined) {
      if (known.target !== target) {
        throw new TypeError(
          `${where}: two different resolvers are named "${definition.name}"; a resolver's name is its wire key, so names must be unique among the resolvers of one tool`,
        );
      }
      if (path.includes(target)) {
        const cycle = [...path.slice(path.indexOf(target)), target].map((entry) => lookup(entry)?.name);
        throw new TypeError(
          `${where}: resolver "${definition.name}" has a cyclic dependency (${cycle.join(" -> ")})`,
        );
      }
      return known.node;
    }
    const needs: GraphEdge[] = [];
    const node: GraphNode = { name: definition.name, fn: definition.fn, needs };
    byName.set(definition.name, { target: target as object, node });
    path.push(target as object);
    for (const [key, dependency] of definition.needs) {
      needs.push(edgeFor(key, dependency, `resolver "${definition.name}" needs.${key}`));
    }
    path.pop();
    Object.freeze(needs);
    return Object.freeze(node);
  };

  const edgeFor = (name: string, dependency: unknown, consumer: string): GraphEdge => {
    const wantsOutcome = isOutcomeDependency(dependency);
    const target = wantsOutcome ? (dependency as { resolver: unknown }).resolver : dependency;
    return Object.freeze({ name, node: nodeFor(target, consumer), wantsOutcome });
  };

  const edges = Object.keys(resolve).map((key) => edgeFor(key, resolve[key], `resolve.${key}`));
  return Object.freeze({
    parameters: Object.freeze(edges.map((edge) => edge.name)),
    resolverNames: Object.freeze([...byName.keys()]),
    edges: Object.freeze(edges),
  });
}

/**
 * Compiles a tool's `resolve` map (`{ region, confirm: outcome(confirm) }`): every resolver
 * reachable through `needs`, linked once. The same resolver reached along several paths is one
 * node (it runs at most once per round).
 *
 * @throws TypeError (message starting with `where`) when `resolve` is not an object, an entry or a
 *   `needs` entry is not a resolver or `outcome(resolver)`, two different resolvers share a name
 *   (names are wire keys), or the dependencies form a cycle.
 */
export function compileResolverGraph(resolve: unknown, where: string): ResolverGraph {
  return buildResolverGraph(resolve, where, definitionOf);
}
