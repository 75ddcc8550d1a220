import { afterEach, describe, expect, it } from "vitest";
import { McpError } from "../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../protocol/jsonrpc.js";
import type { Tool } from "../protocol/schema/content.js";
import { environmentOf } from "../server/context.js";
import { elicitationRequest, inputRequired } from "../server/input-required.js";
import { Server } from "../server/server.js";
import { HttpClientTransport } from "../transport/http/client/client.js";
import type { HttpServerHandle } from "../transport/http/node/node.js";
import { serve } from "../transport/http/node/node.js";
import type { Transport, TransportRequestOptions } from "../transport/transport.js";
import { Client } from "./client.js";
import type { ClientLogger } from "./logger.js";

const TOOLS: Tool[] = [
  {
    name: "route",
    inputSchema: {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        priority: { type: "integer", "x-mcp-header": "Priority" },
        verbose: { type: "boolean", "x-mcp-header": "Verbose" },
        query: { type: "string" },
      },
    },
  },
  {
    name: "broken",
    inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } },
  },
  { name: "plain", inputSchema: { type: "object" } },
];

const ASK = elicitationRequest({
  message: "Sure?",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
});

/** A server that lists {@link TOOLS} and records the Mcp-Param-* headers of every tools/call leg. */
function recordingServer() {
  const seen: Record<string, string>[] = [];
  const server = new Server("headers", {
    onListTools: () => ({ tools: TOOLS }),
    onCallTool: (ctx, params) => {
      const headers: Record<string, string> = {};
      environmentOf(ctx).headers?.forEach((value, name) => {
        if (name.startsWith("mcp-param-")) headers[name] = value;
      });
      seen.push(headers);
      if (params.arguments?.confirm === true && params.inputResponses === undefined) {
        return inputRequired({ inputRequests: { ok: ASK }, requestState: "s1" });
      }
      return { content: [{ type: "text", text: "ok" }] };
    },
  });
  return { server, seen };
}

function recordingLogger(): ClientLogger & { warnings: { message: string; fields: unknown }[] } {
  const warnings: { message: string; fields: unknown }[] = [];
  return { warnings, warn: (message, fields) => void warnings.push({ message, fields }) };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const handle of open.splice(0)) await handle.close();
});

async function served(server: Server): Promise<HttpServerHandle> {
  const handle = await serve(server);
  open.push(handle);
  return handle;
}

describe("x-mcp-header over Streamable HTTP", () => {
  it("drops a tool whose annotations break the rules from tools/list and warns naming it and why", async () => {
    const { server } = recordingServer();
    const logger = recordingLogger();
    const client = await Client.connect((await served(server)).url, { logger });
    open.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["route", "plain"]);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]?.message).toMatch(/"broken"/);
    expect(logger.warnings[0]?.message).toMatch(/type "number"/);
  });

  it("mirrors annotated arguments into Mcp-Param headers with the spec's encoding", async () => {
    const { server, seen } = recordingServer();
    const client = await Client.connect((await served(server)).url, { logger: recordingLogger() });
    open.push(client);
    await client.listTools();
    await client.callTool("route", { region: " us-west1", priority: 42, verbose: false, query: "SELECT 1" });
    await client.callTool("route", { region: "日本語", priority: 1, verbose: null, query: "q" });
    expect(seen).toEqual([
      {
        "mcp-param-region": "=?base64?IHVzLXdlc3Qx?=",
        "mcp-param-priority": "42",
        "mcp-param-verbose": "false",
      },
      { "mcp-param-region": "=?base64?5pel5pys6Kqe?=", "mcp-param-priority": "1" },
    ]);
  });

  it("sends the headers on every leg of a multi-round call", async () => {
    const { server, seen } = recordingServer();
    const client = await Client.connect((await served(server)).url, {
      logger: recordingLogger(),
      elicitationCallback: () => ({ action: "accept", content: { ok: true } }),
    });
    open.push(client);
    await client.listTools();
    await client.callTool("route", { region: "eu", confirm: true });
    expect(seen).toEqual([{ "mcp-param-region": "eu" }, { "mcp-param-region": "eu" }]);
  });

  it("sends no Mcp-Param headers for a tool whose schema it never listed", async () => {
    const { server, seen } = recordingServer();
    const client = await Client.connect((await served(server)).url);
    open.push(client);
    await client.callTool("route", { region: "eu" });
    expect(seen).toEqual([{}]);
  });

  it("refuses locally to send a value it cannot mirror", async () => {
    const { server, seen } = recordingServer();
    const client = await Client.connect((await served(server)).url, { logger: recordingLogger() });
    open.push(client);
    await client.listTools();
    await expect(client.callTool("route", { priority: 1.5 })).rejects.toThrow(/argument priority/);
    expect(seen).toEqual([]);
  });
});

/** A transport that counts the requests it passes to the one it wraps, as a logging wrapper would. */
class CountingTransport implements Transport {
  count = 0;
  constructor(readonly inner: Transport) {}
  get sendsHttpHeaders(): boolean {
    return this.inner.sendsHttpHeaders;
  }
  request(request: JSONRPCRequest, options?: TransportRequestOptions): Promise<JSONRPCResponse> {
    this.count += 1;
    return this.inner.request(request, options);
  }
  notify(notification: JSONRPCNotification): Promise<void> {
    return this.inner.notify(notification);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

describe("x-mcp-header through a transport that wraps Streamable HTTP", () => {
  it("mirrors the headers and applies the annotation rules, as over HTTP itself", async () => {
    const { server, seen } = recordingServer();
    const wrapper = new CountingTransport(new HttpClientTransport((await served(server)).url));
    expect(wrapper.sendsHttpHeaders).toBe(true);
    const client = await Client.connect(wrapper, { logger: recordingLogger() });
    open.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["route", "plain"]);
    await client.callTool("route", { region: "eu", priority: 7 });
    expect(seen).toEqual([{ "mcp-param-region": "eu", "mcp-param-priority": "7" }]);
    expect(wrapper.count).toBe(3);
  });

  it("answers a tool that requires its header instead of failing with -32020", async () => {
    const annotated: Tool = {
      name: "scoped",
      inputSchema: {
        type: "object",
        properties: { tenant: { type: "string", "x-mcp-header": "Tenant" } },
        required: ["tenant"],
      },
    };
    const server = new Server("scoped", {
      onListTools: () => ({ tools: [annotated] }),
      onCallTool: (ctx) => {
        const tenant = environmentOf(ctx).headers?.get("mcp-param-tenant");
        if (tenant === null || tenant === undefined) throw new McpError(-32020, "Header mismatch");
        return { content: [{ type: "text", text: `tenant ${tenant}` }] };
      },
    });
    const wrapper = new CountingTransport(new HttpClientTransport((await served(server)).url));
    const client = await Client.connect(wrapper, { logger: recordingLogger() });
    open.push(client);
    await client.listTools();
    expect((await client.callTool("scoped", { tenant: "acme" })).content).toEqual([
      { type: "text", text: "tenant acme" },
    ]);
  });
});

describe("a HeaderMismatch on Mcp-Param headers", () => {
  /**
   * A server whose tool gained an x-mcp-header annotation after the client listed it: it refuses a
   * call without the header (-32020, before running anything) and counts what reached it.
   */
  function evolvingServer() {
    let annotated = false;
    let rejectAll = false;
    const calls: (string | null)[] = [];
    const lists = { count: 0 };
    const server = new Server("evolving", {
      onListTools: () => {
        lists.count += 1;
        const region = annotated ? { type: "string", "x-mcp-header": "Region" } : { type: "string" };
        return { tools: [{ name: "route", inputSchema: { type: "object", properties: { region } } }] };
      },
      onCallTool: (ctx) => {
        const header = environmentOf(ctx).headers?.get("mcp-param-region") ?? null;
        calls.push(header);
        if ((annotated && header === null) || rejectAll) {
          throw new McpError(-32020, "Header mismatch: required Mcp-Param-Region header is missing", {
            header: "Mcp-Param-Region",
          });
        }
        return { content: [{ type: "text", text: "routed" }] };
      },
    });
    return {
      server,
      calls,
      lists,
      annotate: () => {
        annotated = true;
      },
      rejectAll: () => {
        rejectAll = true;
      },
    };
  }

  it("refreshes tools/list and retries the call once with the headers of the new schema", async () => {
    const { server, calls, lists, annotate } = evolvingServer();
    const client = await Client.connect((await served(server)).url, { logger: recordingLogger() });
    open.push(client);
    await client.listTools();
    annotate();
    const result = await client.callTool("route", { region: "eu" });
    expect(result.content).toEqual([{ type: "text", text: "routed" }]);
    expect(calls).toEqual([null, "eu"]);
    expect(lists.count).toBe(2);
  });

  it("retries once only, and a single leg on the session never retries", async () => {
    const { server, calls, annotate, rejectAll } = evolvingServer();
    const client = await Client.connect((await served(server)).url, { logger: recordingLogger() });
    open.push(client);
    await client.listTools();
    annotate();
    rejectAll();
    await expect(client.callTool("route", { region: "eu" })).rejects.toMatchObject({ code: -32020 });
    expect(calls).toEqual([null, "eu"]);
    await expect(client.session.callTool("route", { region: "eu" })).rejects.toMatchObject({ code: -32020 });
    expect(calls).toEqual([null, "eu", "eu"]);
  });

  it("does not retry a HeaderMismatch about another header", async () => {
    const server = new Server("strict", {
      onCallTool: () => {
        throw new McpError(-32020, "Header mismatch: Mcp-Name", { header: "Mcp-Name" });
      },
    });
    let calls = 0;
    server.use(async (request, next) => {
      if (request.method === "tools/call") calls += 1;
      return next(request);
    });
    const client = await Client.connect((await served(server)).url);
    open.push(client);
    await expect(client.callTool("route", {})).rejects.toMatchObject({ code: -32020 });
    expect(calls).toBe(1);
  });
});

describe("x-mcp-header over other transports", () => {
  it("keeps every tool and sends no headers in memory, where annotations may be ignored", async () => {
    const { server } = recordingServer();
    const logger = recordingLogger();
    const client = await Client.connect(server, { logger });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["route", "broken", "plain"]);
    expect(logger.warnings).toEqual([]);
  });
});
