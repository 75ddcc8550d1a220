/**
 * Type-level contract of `MCPServer` registration: handler arguments inferred from the schemas and
 * the URI template, and return types that only admit the documented conventions.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import type { InputRequiredResult } from "../../protocol/schema/input.js";
import { inputRequired } from "../input-required.js";
import type { Context } from "./context.js";
import { MCPServer } from "./server.js";
import type { UriVariables } from "./uri-template.js";

const mcp = new MCPServer("types");
const ask = (): InputRequiredResult => inputRequired({ requestState: "s" });

describe("tool handler types", () => {
  it("infers the arguments from a zod input schema, defaults applied", () => {
    mcp.tool(
      "t1",
      {
        inputSchema: z.object({ text: z.string(), count: z.number().default(1), tag: z.string().optional() }),
      },
      (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ text: string; count: number; tag?: string | undefined }>();
        expectTypeOf(ctx).toEqualTypeOf<Context>();
        return args.text;
      },
    );
  });

  it("gives a raw JSON Schema's arguments as an unknown-valued record, and no schema no arguments", () => {
    mcp.tool("t2", { inputSchema: { type: "object", properties: { a: { type: "string" } } } }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return "";
    });
    mcp.tool("t3", {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
      return undefined;
    });
  });

  it("admits strings, content, results, nothing and InputRequiredResults without an output schema", () => {
    mcp.tool("r1", {}, () => "text");
    mcp.tool("r2", {}, () => [{ type: "text", text: "a" }]);
    mcp.tool("r3", {}, async () => ({ content: [{ type: "text", text: "a" }], isError: true }));
    mcp.tool("r4", {}, async () => {});
    mcp.tool("r5", {}, () => ask());
    // @ts-expect-error a number fits no convention without an outputSchema
    mcp.tool("r6", {}, () => 42);
    // @ts-expect-error a content block needs a known type
    mcp.tool("r7", {}, () => [{ type: "video", url: "x" }]);
  });

  it("requires the structured data's type with an output schema", () => {
    mcp.tool("s1", { outputSchema: z.object({ sum: z.number() }) }, () => ({ sum: 1 }));
    mcp.tool("s2", { outputSchema: z.object({ sum: z.number() }) }, () => ask());
    mcp.tool("s3", { outputSchema: z.object({ sum: z.number() }) }, () => ({
      content: [{ type: "text" as const, text: "no" }],
      isError: true as const,
    }));
    // @ts-expect-error the structured data must match the output schema
    mcp.tool("s4", { outputSchema: z.object({ sum: z.number() }) }, () => ({ sum: "1" }));
  });
});

describe("prompt handler types", () => {
  it("infers the arguments and keys completers by argument name", () => {
    mcp.prompt(
      "p1",
      { argsSchema: z.object({ topic: z.string() }), complete: { topic: (value) => [value] } },
      ({ topic }) => {
        expectTypeOf(topic).toEqualTypeOf<string>();
        return [{ role: "user", content: { type: "text", text: topic } }];
      },
    );
    const topicOnly = z.object({ topic: z.string() });
    // @ts-expect-error completers only for declared arguments
    mcp.prompt("p2", { argsSchema: topicOnly, complete: { other: () => [] } }, () => "");
    // @ts-expect-error a prompt returns messages, not a number
    mcp.prompt("p3", {}, () => 1);
  });
});

describe("resource handler types", () => {
  it("extracts template variables from the URI's literal type", () => {
    expectTypeOf<UriVariables<"notes://{owner}/{id}{?rev}">>().toEqualTypeOf<
      { owner: string; id: string } & { rev?: string }
    >();
    expectTypeOf<UriVariables<"file:///{+path}{/v}">>().toEqualTypeOf<{ path: string } & { v?: string }>();
    mcp.resource("notes://{owner}/{id}{?rev}", { complete: { id: () => [] } }, (vars) => {
      expectTypeOf(vars.owner).toEqualTypeOf<string>();
      expectTypeOf(vars.rev).toEqualTypeOf<string | undefined>();
      return ask();
    });
  });

  it("gives a static resource no variables and no way to ask", () => {
    mcp.resource("notes://welcome", { size: 3 }, (vars) => {
      expectTypeOf(vars).toEqualTypeOf<Record<string, never>>();
      return "hi";
    });
    // @ts-expect-error a static resource cannot return an InputRequiredResult
    mcp.resource("notes://static", {}, () => ask());
    // @ts-expect-error list and complete are for templates
    mcp.resource("notes://listed", { list: () => [] }, () => "");
    // @ts-expect-error completers only for the template's variables
    mcp.resource("notes://{id}/x", { complete: { other: () => [] } }, () => "");
  });
});
