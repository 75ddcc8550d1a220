/**
 * `x-mcp-header` on the server: an `MCPServer` tool whose input schema annotates arguments checks
 * their `Mcp-Param-*` headers over real Streamable HTTP on 127.0.0.1 (raw `fetch` for the bad
 * cases, a real `Client` for the round trip), skips the check in memory, and refuses at
 * registration a schema whose annotations break the rules. Spec: basic/transports/streamable-http
 * §Custom Headers, server/tools.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import * as z from "zod";
import { post } from "../../../../../test/helpers/mcp-post.js";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { Client } from "../../client/client.js";
import type { JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { serve } from "../../transport/http/node/node.js";
import { resolver } from "../resolve/resolver.js";
import { rawMeta } from "./mcp-test-fixtures.js";
import { MCPServer } from "./server.js";

/** What the annotated tool's body and resolver saw. */
interface Seen {
  readonly bodies: unknown[];
  resolverRuns: number;
}

/**
 * A server with `route`: `region` (string, required), `priority` (integer), `verbose` (nullable
 * boolean) and `options.tier` (nested string) are annotated; `query` is not. A computed resolver
 * runs before the body, so both can be counted.
 */
function routeServer(): { mcp: MCPServer; seen: Seen } {
  const seen: Seen = { bodies: [], resolverRuns: 0 };
  const stamp = resolver("stamp", () => {
    seen.resolverRuns += 1;
    return "stamped";
  });
  const mcp = new MCPServer("param-headers", { requestStateSecurity: testRequestStateSecurity() });
  mcp.tool(
    "route",
    {
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          priority: { type: "integer", "x-mcp-header": "Priority" },
          verbose: { type: ["boolean", "null"], "x-mcp-header": "Verbose" },
          options: { type: "object", properties: { tier: { type: "string", "x-mcp-header": "Tier" } } },
          query: { type: "string" },
        },
        required: ["region"],
      },
      resolve: { stamp },
    },
    (args, { resolved: { stamp } }) => {
      seen.bodies.push(args);
      return `routed (${stamp})`;
    },
  );
  mcp.tool("plain", {}, () => "plain");
  return { mcp, seen };
}

async function served(mcp: MCPServer): Promise<URL> {
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
  onTestFinished(() => handle.close());
  return handle.url;
}

/** A raw HTTP answer: status and parsed JSON-RPC body. */
interface Answer {
  readonly status: number;
  readonly body: JSONRPCResponse & {
    error?: { code: number; message: string; data?: Record<string, unknown> };
    result?: { content?: { type: string; text?: string }[]; isError?: boolean };
  };
}

/** POSTs `tools/call` with the standard headers plus `headers`, exactly as given. */
async function callRaw(
  url: URL,
  name: string,
  args: Record<string, unknown> | undefined,
  headers: Record<string, string>,
): Promise<Answer> {
  const params = args === undefined ? { name } : { name, arguments: args };
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...params, _meta: rawMeta() } };
  const { status, body } = await post(url, message, undefined, headers);
  return { status, body: body as Answer["body"] };
}

function expectAccepted(answer: Answer): void {
  expect(answer.body.error).toBeUndefined();
  expect(answer.status).toBe(200);
  expect(answer.body.result?.content).toEqual([{ type: "text", text: "routed (stamped)" }]);
}

function expectMismatch(answer: Answer, message: RegExp | string): void {
  expect(answer.status).toBe(400);
  expect(answer.body.error?.code).toBe(-32020);
  if (typeof message === "string") expect(answer.body.error?.message).toBe(message);
  else expect(answer.body.error?.message).toMatch(message);
}

describe("a tool's Mcp-Param headers that agree with its arguments", () => {
  it("are accepted for strings, integers, booleans and nested properties", async () => {
    const { mcp, seen } = routeServer();
    const url = await served(mcp);
    const args = { region: "eu", priority: 42, verbose: true, options: { tier: "gold" }, query: "q" };
    expectAccepted(
      await callRaw(url, "route", args, {
        "Mcp-Param-Region": "eu",
        "Mcp-Param-Priority": "42",
        "Mcp-Param-Verbose": "true",
        "Mcp-Param-Tier": "gold",
      }),
    );
    expect(seen.bodies).toEqual([args]);
  });

  it("are found whatever the case of the header name", async () => {
    const url = await served(routeServer().mcp);
    expectAccepted(await callRaw(url, "route", { region: "eu" }, { "mcp-param-region": "eu" }));
    expectAccepted(await callRaw(url, "route", { region: "eu" }, { "MCP-PARAM-REGION": "eu" }));
  });

  it("are decoded from the base64 sentinel, and a value without the exact wrapper is a literal", async () => {
    const url = await served(routeServer().mcp);
    expectAccepted(
      await callRaw(url, "route", { region: "日本語" }, { "Mcp-Param-Region": "=?base64?5pel5pys6Kqe?=" }),
    );
    expectAccepted(
      await callRaw(url, "route", { region: " us-west1" }, { "Mcp-Param-Region": "=?base64?IHVzLXdlc3Qx?=" }),
    );
    expectAccepted(await callRaw(url, "route", { region: "SGVsbG8=" }, { "Mcp-Param-Region": "SGVsbG8=" }));
    expectAccepted(
      await callRaw(
        url,
        "route",
        { region: "=?base64?SGVsbG8=" },
        { "Mcp-Param-Region": "=?base64?SGVsbG8=" },
      ),
    );
    expectAccepted(
      await callRaw(
        url,
        "route",
        { region: "=?BASE64?SGVsbG8=?=" },
        { "Mcp-Param-Region": "=?BASE64?SGVsbG8=?=" },
      ),
    );
  });

  it("compare integers numerically, so 42.0 and 4.2e1 stand for 42", async () => {
    const url = await served(routeServer().mcp);
    for (const header of ["42", "42.0", "4.2e1"]) {
      expectAccepted(
        await callRaw(
          url,
          "route",
          { region: "eu", priority: 42 },
          { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": header },
        ),
      );
    }
    expectAccepted(
      await callRaw(
        url,
        "route",
        { region: "eu", priority: -7 },
        { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": "-7" },
      ),
    );
  });

  it("are not expected for an absent or null argument, and headers the tool does not annotate are ignored", async () => {
    const url = await served(routeServer().mcp);
    expectAccepted(
      await callRaw(url, "route", { region: "eu", verbose: null }, { "Mcp-Param-Region": "eu" }),
    );
    expectAccepted(
      await callRaw(
        url,
        "route",
        { region: "eu", query: "q" },
        { "Mcp-Param-Region": "eu", "Mcp-Param-Query": "other" },
      ),
    );
  });
});

describe("a tool's Mcp-Param headers that disagree with its arguments answer HTTP 400 with -32020", () => {
  it("when the value differs, naming the header and both values", async () => {
    const { mcp, seen } = routeServer();
    const url = await served(mcp);
    const answer = await callRaw(url, "route", { region: "eu" }, { "Mcp-Param-Region": "us" });
    expectMismatch(
      answer,
      "Header mismatch: Mcp-Param-Region header value 'us' does not match body value 'eu'",
    );
    expect(answer.body.error?.data).toEqual({
      header: "Mcp-Param-Region",
      headerValue: "us",
      bodyValue: "eu",
    });
    expect(seen).toEqual({ bodies: [], resolverRuns: 0 });
  });

  it("without echoing a 100 KB body value in full, in the message or in data", async () => {
    const { mcp, seen } = routeServer();
    const url = await served(mcp);
    const region = "r".repeat(100_000);
    const answer = await callRaw(url, "route", { region }, { "Mcp-Param-Region": "us" });
    const cut = `${"r".repeat(200)}…`;
    expectMismatch(
      answer,
      `Header mismatch: Mcp-Param-Region header value 'us' does not match body value '${cut}'`,
    );
    expect(answer.body.error?.data).toEqual({
      header: "Mcp-Param-Region",
      headerValue: "us",
      bodyValue: cut,
    });
    expect(JSON.stringify(answer.body).length).toBeLessThan(1024);
    expect(seen).toEqual({ bodies: [], resolverRuns: 0 });
  });

  it("without echoing a 100 KB tool name in full when Mcp-Name disagrees", async () => {
    const url = await served(routeServer().mcp);
    const name = "n".repeat(100_000);
    const answer = await callRaw(url, name, {}, { "Mcp-Name": "route" });
    const cut = `${"n".repeat(200)}…`;
    expectMismatch(
      answer,
      `Header mismatch: Mcp-Name header value 'route' does not match body value '${cut}'`,
    );
    expect(answer.body.error?.data).toEqual({ header: "Mcp-Name", headerValue: "route", bodyValue: cut });
    expect(JSON.stringify(answer.body).length).toBeLessThan(1024);
  });

  it("when a present value's header is missing, before the resolvers and the body run", async () => {
    const { mcp, seen } = routeServer();
    const url = await served(mcp);
    const answer = await callRaw(
      url,
      "route",
      { region: "eu", options: { tier: "gold" } },
      { "Mcp-Param-Region": "eu" },
    );
    expectMismatch(
      answer,
      "Header mismatch: required Mcp-Param-Tier header is missing (body value 'gold' of argument options.tier)",
    );
    expect(answer.body.error?.data).toEqual({ header: "Mcp-Param-Tier", bodyValue: "gold" });
    expect(seen).toEqual({ bodies: [], resolverRuns: 0 });
  });

  it("when an integer header is not a decimal of the same number", async () => {
    const url = await served(routeServer().mcp);
    for (const header of ["43", "0x2A", "+42", "042", "42abc", ""]) {
      const answer = await callRaw(
        url,
        "route",
        { region: "eu", priority: 42 },
        { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": header },
      );
      expectMismatch(
        answer,
        `Header mismatch: Mcp-Param-Priority header value '${header}' does not match body value 42`,
      );
    }
  });

  it("when a boolean header is not exactly true or false", async () => {
    const url = await served(routeServer().mcp);
    for (const header of ["TRUE", "1", "false"]) {
      const answer = await callRaw(
        url,
        "route",
        { region: "eu", verbose: true },
        { "Mcp-Param-Region": "eu", "Mcp-Param-Verbose": header },
      );
      expectMismatch(
        answer,
        `Header mismatch: Mcp-Param-Verbose header value '${header}' does not match body value true`,
      );
    }
  });

  it("when the header has invalid characters", async () => {
    const url = await served(routeServer().mcp);
    const answer = await callRaw(url, "route", { region: "café" }, { "Mcp-Param-Region": "caf\u00e9" });
    expectMismatch(answer, "Header mismatch: Mcp-Param-Region header value contains invalid characters");
  });

  it("when a base64 sentinel has bad padding or characters outside the alphabet", async () => {
    const url = await served(routeServer().mcp);
    for (const header of ["=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?="]) {
      const answer = await callRaw(url, "route", { region: "Hello" }, { "Mcp-Param-Region": header });
      expectMismatch(
        answer,
        new RegExp(
          `^Header mismatch: Mcp-Param-Region header value '${header.replace(/[?=!]/g, "\\$&")}' is not valid base64`,
        ),
      );
    }
  });

  it("when a header comes for an absent or null argument (no conforming client sends one)", async () => {
    const { mcp, seen } = routeServer();
    const url = await served(mcp);
    expectMismatch(
      await callRaw(url, "route", { region: "eu" }, { "Mcp-Param-Region": "eu", "Mcp-Param-Priority": "1" }),
      "Header mismatch: Mcp-Param-Priority header value '1' has no body value (argument priority is absent)",
    );
    expectMismatch(
      await callRaw(
        url,
        "route",
        { region: "eu", verbose: null },
        { "Mcp-Param-Region": "eu", "Mcp-Param-Verbose": "false" },
      ),
      "Header mismatch: Mcp-Param-Verbose header value 'false' has no body value (argument verbose is null)",
    );
    expect(seen.bodies).toEqual([]);
  });

  it("when the arguments are missing altogether but a header names one", async () => {
    const url = await served(routeServer().mcp);
    expectMismatch(await callRaw(url, "route", undefined, { "Mcp-Param-Region": "eu" }), /has no body value/);
  });
});

describe("a client and a server agreeing on x-mcp-header", () => {
  it("round-trip annotated arguments, a non-ASCII value and an integer included", async () => {
    const { mcp, seen } = routeServer();
    const client = await Client.connect(await served(mcp));
    onTestFinished(() => client.close());
    await client.listTools();
    const args = { region: "日本語", priority: 42, verbose: false, options: { tier: " gold " }, query: "q" };
    const result = await client.callTool("route", args);
    expect(result.content).toEqual([{ type: "text", text: "routed (stamped)" }]);
    expect(seen.bodies).toEqual([args]);
  });

  it("round-trip even when the client had not listed the tool (it refreshes tools/list and retries)", async () => {
    const { mcp, seen } = routeServer();
    const client = await Client.connect(await served(mcp));
    onTestFinished(() => client.close());
    const result = await client.callTool("route", { region: "eu-west-1", priority: 7 });
    expect(result.content).toEqual([{ type: "text", text: "routed (stamped)" }]);
    expect(seen.bodies).toEqual([{ region: "eu-west-1", priority: 7 }]);
  });

  it("round-trip with a zod schema annotated through .meta()", async () => {
    const mcp = new MCPServer("zod-headers", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool(
      "lookup",
      {
        inputSchema: z.object({
          region: z.string().meta({ "x-mcp-header": "Region" }),
          limit: z.number().int().meta({ "x-mcp-header": "Limit" }).optional(),
        }),
      },
      ({ region, limit }) => `${region}:${limit ?? "-"}`,
    );
    const url = await served(mcp);
    const client = await Client.connect(url);
    onTestFinished(() => client.close());
    await client.listTools();
    expect((await client.callTool("lookup", { region: "Zürich", limit: 3 })).content).toEqual([
      { type: "text", text: "Zürich:3" },
    ]);
    expectMismatch(
      await callRaw(
        url,
        "lookup",
        { region: "eu", limit: 3 },
        { "Mcp-Param-Region": "eu", "Mcp-Param-Limit": "4" },
      ),
      "Header mismatch: Mcp-Param-Limit header value '4' does not match body value 3",
    );
  });

  it("skip the check in memory, where there are no headers", async () => {
    const { mcp, seen } = routeServer();
    const client = await Client.connect(mcp);
    onTestFinished(() => client.close());
    const result = await client.callTool("route", { region: "eu", priority: 1 });
    expect(result.content).toEqual([{ type: "text", text: "routed (stamped)" }]);
    expect(seen.bodies).toHaveLength(1);
  });

  it("leave a tool without annotations alone over HTTP", async () => {
    const url = await served(routeServer().mcp);
    const answer = await callRaw(url, "plain", {}, { "Mcp-Param-Region": "anything" });
    expect(answer.status).toBe(200);
    expect(answer.body.result?.content).toEqual([{ type: "text", text: "plain" }]);
  });
});

describe("registering a tool whose x-mcp-header annotations break the rules", () => {
  const object = (properties: Record<string, unknown>) => ({ type: "object", properties });

  it.each([
    [
      "a number property",
      object({ score: { type: "number", "x-mcp-header": "Score" } }),
      /type "number"; only string, integer and boolean/,
    ],
    [
      "a name that is not a token",
      object({ r: { type: "string", "x-mcp-header": "My Region" } }),
      /not a valid header name/,
    ],
    ["an empty name", object({ r: { type: "string", "x-mcp-header": "" } }), /is empty/],
    [
      "a duplicate name",
      object({
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "REGION" },
      }),
      /duplicates "Region"/,
    ],
    [
      "an annotation under items",
      object({ list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } }),
      /not on a property reachable from the root through "properties" alone/,
    ],
  ])("refuses %s with a TypeError naming the tool and the rule", (_what, inputSchema, rule) => {
    const mcp = new MCPServer("strict", { requestStateSecurity: testRequestStateSecurity() });
    const register = () => mcp.tool("bad_tool", { inputSchema }, () => "never");
    expect(register).toThrow(TypeError);
    expect(register).toThrow(/^tool "bad_tool" inputSchema: x-mcp-header/);
    expect(register).toThrow(rule);
  });

  it("refuses a zod schema whose annotation ends up under anyOf", () => {
    const mcp = new MCPServer("strict", { requestStateSecurity: testRequestStateSecurity() });
    expect(() =>
      mcp.tool(
        "nullable_wrapped",
        { inputSchema: z.object({ flag: z.boolean().meta({ "x-mcp-header": "Flag" }).nullable() }) },
        () => "never",
      ),
    ).toThrow(
      /^tool "nullable_wrapped" inputSchema: x-mcp-header at \/properties\/flag\/anyOf\/0 is not on a property reachable/,
    );
  });

  it("lists nothing after a refusal", async () => {
    const mcp = new MCPServer("strict", { requestStateSecurity: testRequestStateSecurity() });
    expect(() =>
      mcp.tool("bad_tool", { inputSchema: object({ s: { type: "number", "x-mcp-header": "S" } }) }, () => ""),
    ).toThrow(TypeError);
    const client = await Client.connect(mcp);
    onTestFinished(() => client.close());
    expect((await client.listTools()).tools).toEqual([]);
  });
});
