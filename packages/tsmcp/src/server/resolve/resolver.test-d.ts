/**
 * Type-level contract of resolvers: values typed from the markers, `needs` and `args` typed from
 * the declarations.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import type { CreateMessageResult, ListRootsResult } from "../../protocol/schema/input.js";
import type { ElicitationContent } from "../schema/elicitation-answer.js";
import { elicit } from "./elicit.js";
import { listRoots } from "./list-roots.js";
import type { ResolverOutcome } from "./outcome.js";
import {
  outcome,
  type ResolvedValues,
  type Resolver,
  type ResolverDependency,
  type ResolverInput,
  resolver,
} from "./resolver.js";
import { sample } from "./sample.js";

const Region = z.object({ region: z.string() });
const Ok = z.object({ ok: z.boolean() });
const messages = [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }];

const region = resolver("region", ({ args }) => elicit(`Where should ${String(args.name)} live?`, Region));
const confirm = resolver("confirm", { needs: { region } }, ({ needs }) =>
  elicit(`In ${needs.region.region}?`, Ok),
);

describe("resolver values", () => {
  it("are typed from the markers", () => {
    expectTypeOf(region).toEqualTypeOf<Resolver<Record<string, unknown>, { region: string }>>();
    expectTypeOf(confirm).toEqualTypeOf<Resolver<Record<string, unknown>, { ok: boolean }>>();
    expectTypeOf(resolver("s", () => sample({ messages, maxTokens: 5 }))).toEqualTypeOf<
      Resolver<Record<string, unknown>, CreateMessageResult>
    >();
    expectTypeOf(resolver("r", () => listRoots())).toEqualTypeOf<
      Resolver<Record<string, unknown>, ListRootsResult>
    >();
    expectTypeOf(resolver("raw", () => elicit("?", { type: "object", properties: {} }))).toEqualTypeOf<
      Resolver<Record<string, unknown>, ElicitationContent>
    >();
  });

  it("are plain values as returned, awaited, and unions of what each branch gives", () => {
    expectTypeOf(resolver("n", () => 42)).toEqualTypeOf<Resolver<Record<string, unknown>, number>>();
    expectTypeOf(resolver("p", async () => "x")).toEqualTypeOf<Resolver<Record<string, unknown>, string>>();
    const either = resolver("e", ({ args }) => (args.quick ? "default" : elicit("Which?", Region)));
    expectTypeOf(either).toEqualTypeOf<Resolver<Record<string, unknown>, "default" | { region: string }>>();
  });

  it("reach consumers unwrapped, or as the outcome union through outcome(...)", () => {
    type Values = ResolvedValues<{
      region: typeof region;
      confirm: ReturnType<typeof outcome<Record<string, unknown>, { ok: boolean }>>;
    }>;
    expectTypeOf<Values>().toEqualTypeOf<{
      readonly region: { region: string };
      readonly confirm: ResolverOutcome<{ ok: boolean }>;
    }>();
    expectTypeOf<ResolverOutcome<{ ok: boolean }>>().toEqualTypeOf<
      { status: "accepted"; content: { ok: boolean } } | { status: "declined" } | { status: "cancelled" }
    >();
  });
});

describe("resolver inputs", () => {
  it("type needs from the dependencies", () => {
    resolver("both", { needs: { region, answer: outcome(confirm) } }, ({ needs }) => {
      expectTypeOf(needs.region).toEqualTypeOf<{ region: string }>();
      expectTypeOf(needs.answer).toEqualTypeOf<ResolverOutcome<{ ok: boolean }>>();
      return 1;
    });
  });

  it("type args as Record<string, unknown> by default, or as annotated, and pass them on to dependents", () => {
    type Provision = { name: string; size: number };
    const sized = resolver("sized", ({ args }: ResolverInput<Provision>) => args.size * 2);
    expectTypeOf(sized).toEqualTypeOf<Resolver<Provision, number>>();
    resolver("named", { needs: { sized } }, ({ args, needs }) => {
      expectTypeOf(args.name).toEqualTypeOf<string>();
      expectTypeOf(needs.sized).toEqualTypeOf<number>();
      return args.name;
    });
    resolver("plain", ({ args }) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return 0;
    });
  });

  it("refuse a resolver that reads arguments a tool does not have", () => {
    const sized = resolver("sized", ({ args }: ResolverInput<{ size: number }>) => args.size);
    const forTool = <A>(_args: A, _resolve: Record<string, ResolverDependency<A>>) => {};
    forTool({ size: 1, name: "x" }, { sized, region });
    // @ts-expect-error the tool's arguments have no size
    forTool({ name: "x" }, { sized });
  });

  it("refuse a dependency that is not a resolver", () => {
    // @ts-expect-error needs hold resolvers
    resolver("bad", { needs: { x: 42 } }, () => 1);
  });
});
