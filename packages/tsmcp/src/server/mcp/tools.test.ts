/**
 * `MCPServer` tools end to end: a real `Client` over Streamable HTTP on 127.0.0.1.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { McpError } from "../../protocol/errors.js";
import type { CallToolResult } from "../../protocol/schema/methods.js";
import { withJsonSchema } from "../schema/compile.js";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "../schema/standard-schema.js";
import { overHttp, postRaw, recordingLogger } from "./mcp-test-fixtures.js";
import { MCPServer } from "./server.js";

const text = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

/**
 * A hand-written Standard Schema (no zod) for objects whose `fields` are all numbers; it validates
 * by itself and, unless `jsonSchema` is false, also implements Standard JSON Schema.
 */
function numbersSchema<K extends string>(
  fields: readonly K[],
  options: { jsonSchema?: boolean } = {},
): StandardSchemaV1<Record<K, number>> & Partial<StandardJSONSchemaV1<Record<K, number>>> {
  const json = {
    type: "object",
    properties: Object.fromEntries(fields.map((field) => [field, { type: "number" }])),
    required: [...fields],
  };
  const validate = (value: unknown): StandardSchemaV1.Result<Record<K, number>> => {
    if (typeof value !== "object" || value === null) return { issues: [{ message: "expected an object" }] };
    const issues = fields
      .filter((field) => typeof (value as Record<string, unknown>)[field] !== "number")
      .map((field) => ({ message: "expected a number", path: [{ key: field }] }));
    return issues.length > 0 ? { issues } : { value: value as Record<K, number> };
  };
  return {
    "~standard": {
      version: 1,
      vendor: "handmade",
      validate,
      ...(options.jsonSchema === false ? {} : { jsonSchema: { input: () => json, output: () => json } }),
    },
  } as StandardSchemaV1<Record<K, number>> & Partial<StandardJSONSchemaV1<Record<K, number>>>;
}

describe("a tool's return value", () => {
  it("is one text block when it is a string", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
    const { client } = await overHttp(mcp);
    const result = await client.callTool("echo", { text: "hello" });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
    expect(result.isError).toBeUndefined();
  });

  it("is the content when it is an array of content blocks, and no content when nothing", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("blocks", {}, () => [
      { type: "text", text: "a" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
    mcp.tool("nothing", {}, async () => {});
    const { client } = await overHttp(mcp);
    expect((await client.callTool("blocks")).content).toEqual([
      { type: "text", text: "a" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
    ]);
    expect((await client.callTool("nothing")).content).toEqual([]);
  });

  it("is itself when it is a CallToolResult, and the handler's object is never modified", async () => {
    const shared: CallToolResult = { content: [{ type: "text", text: "fixed" }], isError: false };
    const copy = structuredClone(shared);
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("fixed", {}, () => shared);
    const { client } = await overHttp(mcp);
    const first = await client.callTool("fixed");
    await client.callTool("fixed");
    expect(first).toMatchObject({ content: [{ type: "text", text: "fixed" }], isError: false });
    expect(shared).toEqual(copy);
  });

  it("is structuredContent plus its JSON as text when the tool has an outputSchema", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool(
      "add",
      {
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        outputSchema: z.object({ sum: z.number() }),
      },
      async ({ a, b }) => ({ sum: a + b }),
    );
    const { client } = await overHttp(mcp);
    const result = await client.callTool("add", { a: 2, b: 3 });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":5}' }]);
    const [tool] = (await client.listTools()).tools;
    expect(tool?.outputSchema).toMatchObject({ type: "object", properties: { sum: { type: "number" } } });
  });

  it("may be a primitive or an array when the outputSchema says so", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("count", { outputSchema: z.number() }, () => 3);
    mcp.tool("names", { outputSchema: { type: "array", items: { type: "string" } } }, () => ["a", "b"]);
    const { client } = await overHttp(mcp);
    expect(await client.callTool("count")).toMatchObject({ structuredContent: 3, content: [{ text: "3" }] });
    expect(await client.callTool("names")).toMatchObject({
      structuredContent: ["a", "b"],
      content: [{ text: '["a","b"]' }],
    });
  });

  it("is checked against the outputSchema: a mismatch is a server fault, -32603, logged", async () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("tools", { logger });
    mcp.tool("broken", { outputSchema: z.object({ sum: z.number() }) }, () => ({ sum: "five" }) as never);
    const { client } = await overHttp(mcp);
    await expect(client.callTool("broken")).rejects.toMatchObject({
      code: -32603,
      message: "Internal error",
    });
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: "handler for tools/call returned an invalid result",
        fields: {
          reason: expect.stringContaining('tool "broken" returned structured content that does not match'),
        },
      }),
    );
  });

  it("may be an error result without structured content even with an outputSchema", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("guarded", { outputSchema: z.object({ sum: z.number() }) }, () => ({
      content: [{ type: "text" as const, text: "quota exceeded" }],
      isError: true as const,
    }));
    const { client } = await overHttp(mcp);
    expect(await client.callTool("guarded")).toMatchObject({
      isError: true,
      content: [{ text: "quota exceeded" }],
    });
  });

  it("that fits no convention is a server fault, -32603, logged", async () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("tools", { logger });
    mcp.tool("odd", {}, () => 42 as never);
    const { client } = await overHttp(mcp);
    await expect(client.callTool("odd")).rejects.toMatchObject({ code: -32603 });
    expect(logger.records.at(-1)?.fields?.reason).toContain('tool "odd" returned a number');
  });
});

describe("a tool's arguments", () => {
  it("are validated before the handler runs: an invalid call is an isError result naming the field", async () => {
    let ran = false;
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("provision", { inputSchema: z.object({ name: z.string().min(1), size: z.number() }) }, () => {
      ran = true;
      return "ok";
    });
    const { client } = await overHttp(mcp);
    const result = await client.callTool("provision", { name: "orders", size: "big" });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid arguments for tool provision: size: /);
    expect(ran).toBe(false);
  });

  it("reach the handler as the schema's output (defaults and coercions applied)", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool(
      "page",
      {
        inputSchema: z.object({ size: z.coerce.number().default(10), tags: z.array(z.string()).default([]) }),
      },
      (args) => JSON.stringify(args),
    );
    const { client } = await overHttp(mcp);
    expect(text(await client.callTool("page", { size: "3" }))).toBe('{"size":3,"tags":[]}');
  });

  it("may be described by a raw JSON Schema, validated with ajv", async () => {
    const schema = {
      type: "object",
      properties: { name: { type: "string", description: "The database name" } },
      required: ["name"],
    } as const;
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("raw", { inputSchema: schema }, (args) => `got ${String(args.name)}`);
    const { client } = await overHttp(mcp);
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual(schema);
    expect(text(await client.callTool("raw", { name: "orders" }))).toBe("got orders");
    const invalid = await client.callTool("raw", {});
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toBe("Invalid arguments for tool raw: name: must have required property 'name'");
  });

  it("may be described by a non-zod Standard Schema that implements Standard JSON Schema", async () => {
    let calls = 0;
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("scale", { inputSchema: numbersSchema(["factor", "size"]) }, ({ factor, size }) => {
      calls++;
      return `scaled to ${factor * size}`;
    });
    const { client } = await overHttp(mcp);
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual({
      type: "object",
      properties: { factor: { type: "number" }, size: { type: "number" } },
      required: ["factor", "size"],
    });
    expect(await client.callTool("scale", { factor: 2, size: 21 })).toEqual(
      expect.objectContaining({ content: [{ type: "text", text: "scaled to 42" }] }),
    );
    const invalid = await client.callTool("scale", { factor: 2, size: "big" });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toBe("Invalid arguments for tool scale: size: expected a number");
    expect(calls).toBe(1);
  });

  it("and results may be described by non-zod Standard Schemas paired with withJsonSchema", async () => {
    const sumJson = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] };
    const input = withJsonSchema(numbersSchema(["a", "b"], { jsonSchema: false }), {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    const output = withJsonSchema(numbersSchema(["sum"], { jsonSchema: false }), sumJson);
    let calls = 0;
    const logger = recordingLogger();
    const mcp = new MCPServer("tools", { logger });
    mcp.tool("add", { inputSchema: input, outputSchema: output }, ({ a, b }) => {
      calls++;
      return { sum: a + b };
    });
    mcp.tool("broken", { outputSchema: output }, () => ({ sum: "five" }) as never);
    const { client } = await overHttp(mcp);
    const [add] = (await client.listTools()).tools;
    expect(add?.outputSchema).toEqual(sumJson);
    const result = await client.callTool("add", { a: 2, b: 3 });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":5}' }]);
    const invalid = await client.callTool("add", { a: 2 });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toBe("Invalid arguments for tool add: b: expected a number");
    expect(invalid.structuredContent).toBeUndefined();
    expect(calls).toBe(1);
    await expect(client.callTool("broken")).rejects.toMatchObject({
      code: -32603,
      message: "Internal error",
    });
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: "handler for tools/call returned an invalid result",
        fields: {
          reason: expect.stringContaining('tool "broken" returned structured content that does not match'),
        },
      }),
    );
  });

  it("are refused entirely by a tool declared without an inputSchema", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("ping", {}, () => "pong");
    const { client } = await overHttp(mcp);
    expect((await client.listTools()).tools[0]?.inputSchema).toEqual({
      type: "object",
      additionalProperties: false,
    });
    expect(text(await client.callTool("ping"))).toBe("pong");
    expect(await client.callTool("ping", { extra: 1 })).toMatchObject({ isError: true });
  });
});

describe("invalid arguments are answered in a bounded message", () => {
  /** The text of a raw `tools/call` answer, and the size of the whole JSON-RPC response. */
  async function callRawText(url: URL, name: string, args: unknown): Promise<{ text: string; size: number }> {
    const response = await postRaw(url, "tools/call", { name, arguments: args });
    const result = (response as { result?: CallToolResult }).result;
    expect(result?.isError).toBe(true);
    return { text: text(result as CallToolResult), size: JSON.stringify(response).length };
  }

  it("names the first failing element of a huge array and stops there", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("tag", { inputSchema: z.object({ tags: z.array(z.string()) }) }, () => "tagged");
    const { url } = await overHttp(mcp);
    const { text: message, size } = await callRawText(url, "tag", { tags: new Array(200_000).fill(1) });
    expect(size).toBeLessThan(2048);
    expect(message).toBe(
      "Invalid arguments for tool tag: tags.0: Invalid input: expected string, received number",
    );
  });

  it("names the first five failing elements of a small array and counts the rest", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("tag", { inputSchema: z.object({ tags: z.array(z.string()) }) }, () => "tagged");
    const { url } = await overHttp(mcp);
    const { text: message } = await callRawText(url, "tag", { tags: new Array(20).fill(1) });
    expect(message).toMatch(/^Invalid arguments for tool tag: tags\.0: /);
    expect(message).toContain("tags.4: ");
    expect(message).not.toContain("tags.5: ");
    expect(message).toMatch(/; and 15 more$/);
  });

  it("cuts a very long path and a message that quotes a very long key", async () => {
    const long = "k".repeat(100_000);
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("scores", { inputSchema: z.object({ scores: z.record(z.string(), z.number()) }) }, () => "ok");
    mcp.tool("strict", { inputSchema: z.strictObject({ name: z.string() }) }, () => "ok");
    const { url } = await overHttp(mcp);
    const path = await callRawText(url, "scores", { scores: { [long]: "high" } });
    expect(path.size).toBeLessThan(2048);
    expect(path.text).toMatch(/^Invalid arguments for tool scores: scores\.k+…: /);
    const key = await callRawText(url, "strict", { name: "x", [long]: 1 });
    expect(key.size).toBeLessThan(2048);
    expect(key.text).toMatch(/^Invalid arguments for tool strict: Unrecognized key: "k+…$/);
  });

  it("cuts a very long key named by ajv for a raw JSON Schema tool", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("ping", {}, () => "pong");
    const { url } = await overHttp(mcp);
    const { text: message, size } = await callRawText(url, "ping", { ["k".repeat(100_000)]: 1 });
    expect(size).toBeLessThan(2048);
    expect(message).toMatch(
      /^Invalid arguments for tool ping: k{100}…: must NOT have additional properties$/,
    );
  });

  it("names every issue when there are at most five", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("five", { inputSchema: z.object({ tags: z.array(z.string()) }) }, () => "ok");
    const { client } = await overHttp(mcp);
    const result = await client.callTool("five", { tags: [1, 2, 3, 4, 5] });
    expect(text(result)).toContain("tags.4: ");
    expect(text(result)).not.toContain("more");
  });
});

describe("a tool that fails", () => {
  it("answers the protocol error it throws as an McpError", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("strict", {}, () => {
      throw new McpError(-32602, "the region is closed", { region: "eu" });
    });
    const { client } = await overHttp(mcp);
    await expect(client.callTool("strict")).rejects.toMatchObject({
      code: -32602,
      message: "the region is closed",
      data: { region: "eu" },
    });
  });

  it("answers any other throw with an isError result carrying its message", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("flaky", {}, async () => {
      throw new Error("the database is read-only");
    });
    const { client } = await overHttp(mcp);
    expect(await client.callTool("flaky")).toMatchObject({
      isError: true,
      content: [{ type: "text", text: "the database is read-only" }],
    });
  });

  it("is unknown: -32602 naming it", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    const { client } = await overHttp(mcp);
    await expect(client.callTool("missing")).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: missing",
    });
  });
});

describe("tools/list", () => {
  it("lists tools in registration order with their descriptions and annotations", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    for (const name of ["zeta", "alpha", "mid"]) {
      mcp.tool(
        name,
        { title: `The ${name} tool`, description: `does ${name}`, annotations: { readOnlyHint: true } },
        () => name,
      );
    }
    const { client } = await overHttp(mcp);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["zeta", "alpha", "mid"]);
    expect(tools[0]).toEqual({
      name: "zeta",
      title: "The zeta tool",
      description: "does zeta",
      annotations: { readOnlyHint: true },
      inputSchema: { type: "object", additionalProperties: false },
    });
    expect((await client.listTools()).tools).toEqual(tools);
  });

  it("pages with opaque cursors and refuses a cursor it did not issue", async () => {
    const mcp = new MCPServer("tools", { pageSize: 2, requestStateSecurity: testRequestStateSecurity() });
    for (let i = 0; i < 5; i++) mcp.tool(`t${i}`, {}, () => "");
    const { client } = await overHttp(mcp);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      expect(page.tools.length).toBeLessThanOrEqual(2);
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    await expect(client.listTools({ cursor: "bogus" })).rejects.toMatchObject({
      code: -32602,
      message: "Invalid cursor",
    });
  });

  it("drops a removed tool, and its name may be registered again", async () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    const first = mcp.tool("a", {}, () => "one");
    mcp.tool("b", {}, () => "b");
    const { client } = await overHttp(mcp);
    first.remove();
    first.remove();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["b"]);
    await expect(client.callTool("a")).rejects.toMatchObject({ code: -32602 });
    const second = mcp.tool("a", {}, () => "two");
    first.remove();
    expect(text(await client.callTool("a"))).toBe("two");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["b", "a"]);
    second.remove();
  });
});

describe("registering a tool", () => {
  it("refuses bad names, duplicates and bad configs at once, with a TypeError", () => {
    const mcp = new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("taken", {}, () => "");
    expect(() => mcp.tool("has space", {}, () => "")).toThrow(/must be 1-128 characters/);
    expect(() => mcp.tool("x".repeat(129), {}, () => "")).toThrow(TypeError);
    expect(() => mcp.tool("taken", {}, () => "")).toThrow(/tool "taken" is already registered/);
    expect(() => mcp.tool("t", { description: 3 as never }, () => "")).toThrow(
      /description must be a string/,
    );
    expect(() => mcp.tool("t", {}, "nope" as never)).toThrow(/handler must be a function/);
    expect(() => mcp.tool("t", { inputSchema: z.string() }, () => "")).toThrow(
      /tool "t" inputSchema must describe an object/,
    );
  });

  it("leaves the caller's config untouched", () => {
    const config = { description: "d", annotations: { readOnlyHint: true }, inputSchema: { type: "object" } };
    const copy = structuredClone(config);
    new MCPServer("tools", { requestStateSecurity: testRequestStateSecurity() }).tool("t", config, () => "");
    expect(config).toEqual(copy);
    expect(Object.isFrozen(config.inputSchema)).toBe(false);
  });
});
