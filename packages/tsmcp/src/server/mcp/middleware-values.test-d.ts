/**
 * Type-level contract of request values: `ctx.get(key)` is typed by the key in every handler kind,
 * resolvers and middleware, with no cast; a value of the wrong type, or an object passed off as a
 * key, does not compile.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { type ContextKey, contextKey } from "../context-key.js";
import type { MiddlewareRequest } from "../middleware.js";
import { resolver } from "../resolve/resolver.js";
import { Server } from "../server.js";
import { MCPServer } from "./server.js";

interface Tenant {
  readonly id: string;
}
const tenant = contextKey<Tenant>("tenant");
const budget = contextKey<number>("budget");
const mcp = new MCPServer("types");

describe("request value types", () => {
  it("types what handlers, completers and resolvers read by the key", () => {
    mcp.tool("t", {}, (_args, ctx) => {
      expectTypeOf(ctx.get(tenant)).toEqualTypeOf<Tenant>();
      expectTypeOf(ctx.find(tenant)).toEqualTypeOf<Tenant | undefined>();
      expectTypeOf(ctx.get(budget)).toEqualTypeOf<number>();
      return ctx.get(tenant).id;
    });
    mcp.prompt(
      "p",
      { argsSchema: z.object({ a: z.string() }), complete: { a: (_v, _c, ctx) => [ctx.get(tenant).id] } },
      (_args, ctx) => ctx.get(tenant).id,
    );
    mcp.resource("notes://{id}", {}, (_vars, ctx) => ctx.get(tenant).id);
    const who = resolver("who", ({ ctx }) => ctx.get(tenant).id);
    mcp.tool("r", { resolve: { who } }, (_args, ctx) => {
      expectTypeOf(ctx.resolved.who).toEqualTypeOf<string>();
      return ctx.resolved.who;
    });
    new Server("low", {
      onCallTool: (ctx) => {
        expectTypeOf(ctx.get(budget)).toEqualTypeOf<number>();
        return { content: [] };
      },
    });
  });

  it("types what middleware provides and reads", () => {
    mcp.use((request, next) => {
      expectTypeOf(request.with(tenant, { id: "a" })).toEqualTypeOf<MiddlewareRequest>();
      expectTypeOf(request.context.find(budget)).toEqualTypeOf<number | undefined>();
      // @ts-expect-error a value must have the key's type
      request.with(tenant, "acme");
      // @ts-expect-error a number key takes numbers only
      request.with(budget, "3");
      return next(request.with(budget, 3));
    });
  });

  it("takes the key's type for an object literal with literal-typed fields, and refuses a value outside it", () => {
    const tenantPlan = contextKey<{ id: string; plan: "free" | "pro" }>("tenant");
    mcp.use((request, next) => {
      expectTypeOf(request.with(tenantPlan, { id: "a", plan: "pro" })).toEqualTypeOf<MiddlewareRequest>();
      // @ts-expect-error "gold" is not a plan
      request.with(tenantPlan, { id: "a", plan: "gold" });
      return next(request.with(tenantPlan, { id: "b", plan: "free" }));
    });
  });

  it("refuses a wrong type where the value is used, and objects passed off as keys", () => {
    mcp.tool("w", {}, (_args, ctx) => {
      // @ts-expect-error a Tenant is not a number
      const n: number = ctx.get(tenant);
      // @ts-expect-error only contextKey() makes keys
      ctx.get({ name: "tenant" });
      return String(n);
    });
    expectTypeOf(tenant).toEqualTypeOf<ContextKey<Tenant>>();
    expectTypeOf(tenant).not.toEqualTypeOf<ContextKey<number>>();
    // @ts-expect-error keys of different types do not mix
    const wrong: ContextKey<number> = tenant;
    void wrong;
  });
});
