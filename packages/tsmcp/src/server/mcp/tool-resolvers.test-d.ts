/**
 * Type-level contract of tools with resolvers: the handler keeps the `(args, ctx)` shape of every
 * tool, `ctx.resolved` is typed from the resolvers, resolvers must read arguments the tool has, and
 * the handler cannot return an `InputRequiredResult` (one channel per call), a refusal the
 * compiler words as the rule.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import type {
  CreateMessageResult,
  InputRequiredResult,
  ListRootsResult,
} from "../../protocol/schema/input.js";
import { inputRequired } from "../input-required.js";
import { elicit } from "../resolve/elicit.js";
import { listRoots } from "../resolve/list-roots.js";
import type {
  ResolverToolInputRequired,
  ResolverToolReturn,
  WithoutInputRequired,
} from "../resolve/one-channel.js";
import type { ResolverOutcome } from "../resolve/outcome.js";
import { outcome, type ResolverInput, resolver } from "../resolve/resolver.js";
import { sample } from "../resolve/sample.js";
import type { SchemaLike } from "../schema/compile.js";
import type { Context } from "./context.js";
import { MCPServer } from "./server.js";
import type { PlainResolverToolReturn, ToolResultOf, ToolReturn } from "./tools.js";

const mcp = new MCPServer("types");
const ask = (): InputRequiredResult => inputRequired({ requestState: "s" });
const Provision = z.object({ name: z.string() });
const region = resolver("region", ({ args }) =>
  elicit(`Where should ${String(args.name)} live?`, z.object({ region: z.string() })),
);
const confirm = resolver("confirm", { needs: { region } }, ({ needs }) =>
  elicit(`Create it in ${needs.region.region}?`, z.object({ ok: z.boolean() })),
);
const summary = resolver("summary", () =>
  sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }),
);
const roots = resolver("roots", () => listRoots());
const owner = resolver("owner", ({ ctx }) => ctx.clientInfo?.name ?? "anonymous");

describe("a tool with resolvers", () => {
  it("receives the arguments and the context, the values on ctx.resolved typed from the markers", () => {
    mcp.tool(
      "t1",
      { inputSchema: Provision, resolve: { region, confirm: outcome(confirm), summary, roots, owner } },
      (args, ctx) => {
        const resolved = ctx.resolved;
        expectTypeOf(args).toEqualTypeOf<{ name: string }>();
        expectTypeOf(resolved.region).toEqualTypeOf<{ region: string }>();
        expectTypeOf(resolved.confirm).toEqualTypeOf<ResolverOutcome<{ ok: boolean }>>();
        expectTypeOf(resolved.summary).toEqualTypeOf<CreateMessageResult>();
        expectTypeOf(resolved.roots).toEqualTypeOf<ListRootsResult>();
        expectTypeOf(resolved.owner).toEqualTypeOf<string>();
        expectTypeOf(ctx).toExtend<Context>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return `${args.name} in ${resolved.region.region}`;
      },
    );
  });

  it("takes resolvers typed for its arguments, and refuses ones reading arguments it lacks", () => {
    const sized = resolver("sized", ({ args }: ResolverInput<{ name: string }>) => args.name.length);
    mcp.tool("t2", { inputSchema: Provision, resolve: { sized } }, (_args, ctx) => `${ctx.resolved.sized}`);
    // @ts-expect-error this tool has no name argument
    mcp.tool("t3", { inputSchema: z.object({ id: z.number() }), resolve: { sized } }, () => "");
  });

  it("cannot return an InputRequiredResult, with or without an output schema", () => {
    mcp.tool("t4", { resolve: { region } }, async (_args, { resolved }) => resolved.region.region);
    // @ts-expect-error a tool with resolvers cannot return an InputRequiredResult
    mcp.tool("t5", { resolve: { region } }, () => ask());
    mcp.tool("t6", { resolve: { region } }, async (_a, { resolved }) =>
      // @ts-expect-error not even on one branch
      resolved.region.region ? "ok" : ask(),
    );
    mcp.tool("t7", { outputSchema: z.object({ n: z.number() }), resolve: { region } }, () => ({ n: 1 }));
    // @ts-expect-error nor with an output schema
    mcp.tool("t8", { outputSchema: z.object({ n: z.number() }), resolve: { region } }, () => ask());
    // @ts-expect-error nor with an output schema whose type is unknown
    mcp.tool("t9", { outputSchema: { type: "object" }, resolve: { region } }, async () => ask());
  });

  it("leaves tools without resolvers as they were: (args, ctx), free to return an InputRequiredResult", () => {
    mcp.tool("t10", { inputSchema: Provision }, (args, ctx) => {
      expectTypeOf(ctx).toEqualTypeOf<Context>();
      return args.name ? ask() : "no";
    });
  });

  it("gives a tool without resolvers no ctx.resolved", () => {
    mcp.tool("t11", {}, (_args, ctx) => {
      // @ts-expect-error a plain Context has no resolved values
      return String(ctx.resolved);
    });
  });
});

describe("the one-channel rule", () => {
  /** A handler of a tool with resolvers, given the tool's output schema. */
  const handlerOf = <O extends SchemaLike | undefined = undefined>(
    _output: O,
    _handler: NoInfer<() => ResolverToolReturn<ToolResultOf<O>>>,
  ) => {};

  it("admits every other return of a tool without an output schema", () => {
    handlerOf(undefined, () => "text");
    handlerOf(undefined, async () => [{ type: "text", text: "a" }]);
    handlerOf(undefined, async () => ({ content: [{ type: "text", text: "a" }], isError: true }));
    handlerOf(undefined, async () => {});
  });

  it("refuses an InputRequiredResult without an output schema", () => {
    // @ts-expect-error a tool with resolvers cannot return an InputRequiredResult
    handlerOf(undefined, () => ask());
    // @ts-expect-error not even on one branch
    handlerOf(undefined, async () => (Math.random() > 0.5 ? "done" : ask()));
  });

  it("refuses an InputRequiredResult with a typed or an untyped output schema", () => {
    handlerOf(z.object({ sum: z.number() }), () => ({ sum: 1 }));
    // @ts-expect-error a tool with resolvers cannot return an InputRequiredResult
    handlerOf(z.object({ sum: z.number() }), () => ask());
    handlerOf({ type: "object" }, () => ({ anything: [1, 2] }));
    handlerOf({ type: "number" }, () => 42);
    handlerOf({ type: "object" }, async () => ({ settled: "later" }));
    // @ts-expect-error even when the output schema's type is unknown
    handlerOf({ type: "object" }, async () => ask());
    handlerOf(z.record(z.string(), z.unknown()), () => ({ free: "form" }));
    // @ts-expect-error even when the structured output is an open record
    handlerOf(z.record(z.string(), z.unknown()), () => ask());
  });

  it("writes out the return type of a tool without an output schema as the rule computes it", () => {
    expectTypeOf<PlainResolverToolReturn>().toEqualTypeOf<ResolverToolReturn<ToolReturn>>();
  });

  it("names the rule where an InputRequiredResult would fit", () => {
    expectTypeOf<WithoutInputRequired<InputRequiredResult>>().toEqualTypeOf<ResolverToolInputRequired>();
    expectTypeOf<keyof ResolverToolInputRequired>().toEqualTypeOf<
      "resultType" | "a tool with resolvers cannot return an InputRequiredResult"
    >();
  });
});
