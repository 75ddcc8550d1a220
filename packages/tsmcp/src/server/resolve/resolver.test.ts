/**
 * Declaring resolvers and compiling a tool's graph of them: names are wire keys, dependencies must
 * be resolvers, and a tool's graph has one resolver per name and no cycle.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { elicit } from "./elicit.js";
import { buildResolverGraph, compileResolverGraph } from "./graph.js";
import { definitionOf, isResolver, outcome, type ResolverDefinition, resolver } from "./resolver.js";

const Ok = z.object({ ok: z.boolean() });

describe("resolver", () => {
  it("builds a frozen resolver named by its wire key, with its dependencies copied", () => {
    const region = resolver("region", () => "eu");
    const needs = { region };
    const confirm = resolver("confirm", { needs }, () => elicit("Sure?", Ok));
    (needs as Record<string, unknown>).other = region;
    expect(confirm.name).toBe("confirm");
    expect(Object.keys(confirm.needs)).toEqual(["region"]);
    expect(Object.isFrozen(confirm)).toBe(true);
    expect(isResolver(confirm)).toBe(true);
    expect(isResolver({ kind: "resolver", name: "confirm", needs: {} })).toBe(false);
  });

  it("refuses a bad name, a dependency that is not a resolver, and a function that is not one", () => {
    expect(() => resolver("", () => 1)).toThrow(TypeError);
    expect(() => resolver("has space", () => 1)).toThrow(/must be 1-128 characters/);
    expect(() => resolver("x".repeat(129), () => 1)).toThrow(TypeError);
    // JSON maps (zod records on both sides) drop a "__proto__" key: such a question could never be answered.
    expect(() => resolver("__proto__", () => 1)).toThrow(/"__proto__" cannot be a wire key/);
    expect(resolver("constructor", () => 1).name).toBe("constructor");
    expect(() => resolver("a", { needs: { b: 42 } } as never, () => 1)).toThrow(
      'resolver "a": needs.b is not a resolver',
    );
    expect(() => resolver("a", { needs: [] } as never, () => 1)).toThrow("needs must be an object");
    expect(() => resolver("a", "fn" as never)).toThrow('resolver "a": fn must be a function');
  });

  it("cannot form a cycle: needs are read when the resolver is built", () => {
    expect(() => {
      const holder: Record<string, unknown> = {};
      const a = resolver("a", { needs: holder as never }, () => 1);
      holder.self = a;
      expect(Object.keys(a.needs)).toEqual([]);
      return compileResolverGraph({ a }, 'tool "t"');
    }).not.toThrow();
  });

  it("wraps a resolver for its outcome, and refuses anything else", () => {
    const confirm = resolver("confirm", () => elicit("Sure?", Ok));
    const wrapped = outcome(confirm);
    expect(wrapped).toEqual({ kind: "outcome", resolver: confirm });
    expect(Object.isFrozen(wrapped)).toBe(true);
    expect(() => outcome({ kind: "resolver", name: "x", needs: {} })).toThrow("outcome: expected a resolver");
    expect(() => outcome(wrapped as never)).toThrow(TypeError);
  });
});

describe("a tool's resolver graph", () => {
  it("lists the resolved parameters and every resolver, sharing a resolver reached twice", () => {
    const region = resolver("region", () => "eu");
    const zone = resolver("zone", { needs: { region } }, ({ needs }) => `${needs.region}-1`);
    const confirm = resolver("confirm", { needs: { region, zone } }, () => elicit("Sure?", Ok));
    const graph = compileResolverGraph({ zone, confirm: outcome(confirm), where: region }, 'tool "t"');
    expect(graph.parameters).toEqual(["zone", "confirm", "where"]);
    expect(graph.resolverNames).toEqual(["zone", "region", "confirm"]);
    const [zoneEdge, confirmEdge, whereEdge] = graph.edges;
    expect(confirmEdge?.wantsOutcome).toBe(true);
    expect(zoneEdge?.node.needs[0]?.node).toBe(whereEdge?.node);
  });

  it("refuses two different resolvers with the same name, naming it", () => {
    const first = resolver("region", () => "eu");
    const second = resolver("region", () => "us");
    const zone = resolver("zone", { needs: { region: second } }, () => "z");
    expect(() => compileResolverGraph({ first, zone }, 'tool "t"')).toThrow(
      'tool "t": two different resolvers are named "region"',
    );
  });

  it("refuses an entry that is not a resolver", () => {
    expect(() => compileResolverGraph({ region: () => "eu" }, 'tool "t"')).toThrow(
      'tool "t": resolve.region is not a resolver',
    );
    expect(() => compileResolverGraph([], 'tool "t"')).toThrow("resolve must be an object");
  });

  it("refuses a cycle, naming its path", () => {
    const a = { name: "a" };
    const b = { name: "b" };
    const fn = () => 1;
    const lookup = (value: unknown): ResolverDefinition | undefined =>
      value === a
        ? { name: "a", needs: [["b", b as never]], fn }
        : value === b
          ? { name: "b", needs: [["a", a as never]], fn }
          : definitionOf(value);
    expect(() => buildResolverGraph({ a }, 'tool "t"', lookup)).toThrow(
      'tool "t": resolver "a" has a cyclic dependency (a -> b -> a)',
    );
  });
});
