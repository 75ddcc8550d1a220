/**
 * Typed request values on an `MCPServer`: what a middleware provides with `request.with(key, value)`
 * reaches every kind of handler (tools, task tools, prompts, resources, templates, completers,
 * resolvers) and later middleware, in both eras, per request; the request it was called on is
 * unchanged; a value nobody provided is a logged -32603.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { ClientOptions } from "../../client/client.js";
import { McpError } from "../../protocol/errors.js";
import { contextKey } from "../context-key.js";
import type { MiddlewareRequest } from "../middleware.js";
import { elicit } from "../resolve/elicit.js";
import { resolver } from "../resolve/resolver.js";
import { rawMeta, recordingLogger } from "./mcp-test-fixtures.js";
import { answering, connect, textOf } from "./resolvers-test-fixtures.js";
import { MCPServer } from "./server.js";

interface Tenant {
  readonly id: string;
}
const tenant = contextKey<Tenant>("tenant");
const trail = contextKey<readonly string[]>("trail");

/** An MCPServer whose one middleware provides the tenant named by the call's `tenant` argument, else "acme". */
function tenantServer(options: ConstructorParameters<typeof MCPServer>[1] = {}): MCPServer {
  const mcp = new MCPServer("values", { logger: recordingLogger(), ...options });
  mcp.use((request, next) => {
    const args = (request.params as { arguments?: { tenant?: unknown } }).arguments;
    const id = typeof args?.tenant === "string" ? args.tenant : "acme";
    return next(request.with(tenant, { id }));
  });
  return mcp;
}

const ERAS: readonly [string, ClientOptions][] = [
  ["2026-07-28", {}],
  ["a 2025-11-25 session", { protocolVersion: "legacy" }],
];

describe.each(ERAS)("values a middleware provides, at %s", (_era, options) => {
  it("reach a tool, a prompt, a resource, a template, a completer and a resolver", async () => {
    const mcp = tenantServer();
    mcp.tool("whoami", {}, (_args, ctx) => `tool ${ctx.get(tenant).id}`);
    mcp.prompt(
      "greet",
      {
        argsSchema: z.object({ name: z.string() }),
        complete: { name: (value, _context, ctx) => [`${value}-${ctx.get(tenant).id}`] },
      },
      ({ name }, ctx) => `Hello ${name} of ${ctx.get(tenant).id}`,
    );
    mcp.resource("notes://welcome", {}, (_vars, ctx) => `welcome to ${ctx.get(tenant).id}`);
    mcp.resource("notes://{id}", {}, ({ id }, ctx) => `note ${id} of ${ctx.get(tenant).id}`);
    const region = resolver("region", ({ ctx }) =>
      elicit(`Region for ${ctx.get(tenant).id}?`, z.object({ region: z.string() })),
    );
    mcp.tool(
      "provision",
      { resolve: { region } },
      (_args, ctx) => `${ctx.get(tenant).id} in ${ctx.resolved.region.region}`,
    );
    const asked: string[] = [];
    const client = await connect(mcp, "memory", {
      ...options,
      elicitationCallback: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { region: "eu" } };
      },
    });

    expect(textOf(await client.callTool("whoami"))).toBe("tool acme");
    const prompt = await client.getPrompt("greet", { name: "ada" });
    expect(prompt.messages[0]?.content).toMatchObject({ text: "Hello ada of acme" });
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "name", value: "ad" },
    });
    expect(completion.completion.values).toEqual(["ad-acme"]);
    expect((await client.readResource("notes://welcome")).contents[0]).toMatchObject({
      text: "welcome to acme",
    });
    expect((await client.readResource("notes://7")).contents[0]).toMatchObject({ text: "note 7 of acme" });
    expect(textOf(await client.callTool("provision"))).toBe("acme in eu");
    expect(asked).toEqual(["Region for acme?"]);
  });

  it("reach a tool that runs as a task", async () => {
    const mcp = tenantServer({ tasks: {} });
    mcp.tool(
      "report",
      { inputSchema: z.object({ tenant: z.string() }), task: "required" },
      async (_args, ctx) => {
        await new Promise((resolve) => setImmediate(resolve));
        return `${ctx.task === undefined ? "no task" : "task"} for ${ctx.get(tenant).id}`;
      },
    );
    const client = await connect(mcp, "memory", options);
    const task = await client.callTool("report", { tenant: "globex" }, { task: true });
    expect(textOf(await task.result())).toBe("task for globex");
  });

  it("answer -32603 when a handler gets a value nobody provided, naming the key in the log only", async () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("values", { logger });
    mcp.tool("whoami", {}, (_args, ctx) => `${ctx.find(tenant)?.id ?? "nobody"}`);
    mcp.tool("strict", {}, (_args, ctx) => ctx.get(tenant).id);
    const client = await connect(mcp, "memory", options);
    expect(textOf(await client.callTool("whoami"))).toBe("nobody");
    const error = await client.callTool("strict").then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32603, message: "Internal error" });
    expect(logger.records).toHaveLength(1);
    expect(logger.records[0]).toMatchObject({ level: "error", message: "handler for tools/call failed" });
    expect(String(logger.records[0]?.fields?.error)).toContain('No value for the context key "tenant"');
  });

  it("answer with a middleware's McpError before the handler runs", async () => {
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    let ran = false;
    mcp.use(async (request, next) => {
      if (request.method === "tools/call") throw new McpError(-32602, "switched off", { tool: "off" });
      return next(request);
    });
    mcp.tool("off", {}, () => {
      ran = true;
      return "ran";
    });
    const client = await connect(mcp, "memory", options);
    await expect(client.callTool("off")).rejects.toMatchObject({
      code: -32602,
      message: "switched off",
      data: { tool: "off" },
    });
    expect(ran).toBe(false);
  });
});

describe("values through the middleware chain", () => {
  it("reach later middleware; an earlier one never sees what a later one provided", async () => {
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    const seen: string[] = [];
    mcp.use(async (request, next) => {
      if (request.method !== "tools/call") return next(request);
      const result = await next(request.with(trail, ["outer"]));
      seen.push(`outer after next: ${request.context.find(trail)?.join(",") ?? "none"}`);
      return result;
    });
    mcp.use((request, next) => {
      if (request.method !== "tools/call") return next(request);
      const before = request.context.get(trail);
      seen.push(`inner reads: ${before.join(",")}`);
      return next(request.with(trail, [...before, "inner"]));
    });
    mcp.tool("trail", {}, (_args, ctx) => ctx.get(trail).join(">"));
    const client = await connect(mcp, "memory");
    expect(textOf(await client.callTool("trail"))).toBe("outer>inner");
    expect(seen).toEqual(["inner reads: outer", "outer after next: none"]);
  });

  it("leave the request and the context they were added to unchanged", async () => {
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    let original: MiddlewareRequest | undefined;
    let derived: MiddlewareRequest | undefined;
    mcp.use((request, next) => {
      original = request;
      derived = request.with(tenant, { id: "acme" });
      return next(derived);
    });
    mcp.tool("whoami", {}, (_args, ctx) => ctx.get(tenant).id);
    const client = await connect(mcp, "memory");
    await client.callTool("whoami");
    expect(derived).not.toBe(original);
    expect(derived?.context).not.toBe(original?.context);
    expect(original?.context.find(tenant)).toBeUndefined();
    expect(derived?.params).toBe(original?.params);
    expect(derived?.context.requestId).toBe(original?.context.requestId);
  });

  it("keep a request's values to itself when calls run at once", async () => {
    const mcp = tenantServer();
    const gates: (() => void)[] = [];
    mcp.tool("slow", { inputSchema: z.object({ tenant: z.string() }) }, async (_args, ctx) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return ctx.get(tenant).id;
    });
    const client = await connect(mcp, "memory");
    const calls = ["a", "b", "c"].map((id) => client.callTool("slow", { tenant: id }));
    await expect.poll(() => gates.length).toBe(3);
    for (const open of gates.reverse()) open();
    expect((await Promise.all(calls)).map(textOf)).toEqual(["a", "b", "c"]);
  });

  it("throw a TypeError for a key not made by contextKey", () => {
    expect(() => contextKey("")).toThrow(TypeError);
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    let thrown: unknown;
    mcp.use((request, next) => {
      try {
        request.with(null as never, 1);
      } catch (error) {
        thrown = error;
      }
      return next(request);
    });
    mcp.tool("noop", {}, () => "ok");
    return connect(mcp, "memory")
      .then((client) => client.callTool("noop"))
      .then(() => expect(thrown).toBeInstanceOf(TypeError));
  });
});

describe("a middleware that answers without calling next", () => {
  it("ends the request with its result, which goes out as returned (no serverInfo stamp)", async () => {
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    let ran = false;
    mcp.use(async (request, next) =>
      request.method === "tools/call"
        ? { resultType: "complete", content: [{ type: "text", text: "from the middleware" }] }
        : next(request),
    );
    mcp.tool("busy", {}, () => {
      ran = true;
      return "from the tool";
    });
    const client = await connect(mcp, "memory");
    const result = await client.callTool("busy");
    expect(textOf(result)).toBe("from the middleware");
    expect(result._meta).toBeUndefined();
    expect(ran).toBe(false);
  });

  it("sends its result as returned on the wire, with resultType complete when it has none; only the requestState boundary still seals its state", async () => {
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    mcp.use(async (request, next) => {
      if (request.method !== "tools/call") return next(request);
      const { name } = request.params as { name?: string };
      return name === "later"
        ? { resultType: "input_required", requestState: "plain-state" }
        : { content: [{ type: "text", text: "bare" }] };
    });
    const send = (name: string) =>
      mcp.handle(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, _meta: rawMeta() } },
        { signal: new AbortController().signal },
      );
    const bare = await send("bare");
    expect(bare).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete", content: [{ type: "text", text: "bare" }] },
    });
    const later = await send("later");
    if (later === undefined || !("result" in later)) throw new Error(`no result: ${JSON.stringify(later)}`);
    expect(later.result.resultType).toBe("input_required");
    expect(later.result.requestState).not.toBe("plain-state");
    expect(later.result.requestState).toMatch(/^v1\./);
  });

  it("sees what next answered: the result type, isError, an input_required round, an error", async () => {
    const mcp = new MCPServer("values", { logger: recordingLogger() });
    const observed: string[] = [];
    mcp.use(async (request, next) => {
      if (request.method !== "tools/call") return next(request);
      try {
        const result = await next(request);
        observed.push(`${String(result.resultType)} isError=${result.isError === true}`);
        return result;
      } catch (error) {
        observed.push(`error ${error instanceof McpError ? error.code : "?"}`);
        throw error;
      }
    });
    mcp.tool("ok", {}, () => "fine");
    mcp.tool("fails", {}, () => {
      throw new Error("broken");
    });
    const name = resolver("name", () => elicit("Name?", z.object({ name: z.string() })));
    mcp.tool("ask", { resolve: { name } }, (_args, ctx) => `hi ${ctx.resolved.name.name}`);
    const { callback } = answering({ name: { name: "ada" } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback });
    await client.callTool("ok");
    await client.callTool("fails");
    await client.callTool("ask");
    await expect(client.callTool("missing")).rejects.toBeInstanceOf(McpError);
    expect(observed).toEqual([
      "complete isError=false",
      "complete isError=true",
      "input_required isError=false",
      "complete isError=false",
      "error -32602",
    ]);
  });
});
