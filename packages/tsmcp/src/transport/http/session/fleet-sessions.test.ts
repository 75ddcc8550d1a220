/**
 * Handshake-era sessions across the replicas of a fleet: three `serve` handlers on 127.0.0.1
 * sharing in-memory stores and a bus, each with its own `MCPServer`, reached round-robin (no
 * session affinity) by real clients: tsmcp's `HttpClientTransport` and the official 1.x
 * `StreamableHTTPClientTransport`.
 */

import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { type Replicas, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import type { JSONRPCRequest, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import type { HttpClientTransport } from "../client/client.js";
import type { HttpHandlerOptions } from "../server/server-handler.js";

/** Where each replica's tools ran, and the `wait` tool's aborts. */
interface Seen {
  readonly ranOn: number[];
  readonly aborted: { replica: number; reason: string }[];
  waiting?: () => void;
  onAbort?: () => void;
}

function replicaServer(index: number, seen: Seen): MCPServer {
  const mcp = new MCPServer("fleet-peer", {
    version: "1.0.0",
    logger: silentLogger,
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.tool("where", { inputSchema: z.object({}) }, () => {
    seen.ranOn.push(index);
    return `replica ${index}`;
  });
  mcp.tool("ask", { inputSchema: z.object({}) }, async (_args, ctx) => {
    seen.ranOn.push(index);
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return answer.action === "accept" ? `hello ${String(answer.content?.name)} from ${index}` : "declined";
  });
  mcp.tool("log", { inputSchema: z.object({}) }, (_args, ctx) => {
    ctx.log("info", `logged on ${index}`);
    return `replica ${index}`;
  });
  mcp.tool("wait", { inputSchema: z.object({}) }, async (_args, ctx) => {
    seen.ranOn.push(index);
    seen.waiting?.();
    const reason = await new Promise<unknown>((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason), { once: true });
    });
    seen.aborted.push({ replica: index, reason: String((reason as Error)?.message ?? reason) });
    seen.onAbort?.();
    return "cancelled";
  });
  return mcp;
}

function request(id: number | string, method: string, params?: Record<string, unknown>): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
}

function textOf(response: JSONRPCResponse): string {
  if (!("result" in response)) throw new Error(`error response: ${JSON.stringify(response)}`);
  return (response.result.content as { text: string }[]).map((part) => part.text).join("");
}

/** The 2025-era handshake on a tsmcp transport. */
async function initialize(transport: HttpClientTransport): Promise<void> {
  const response = await transport.request(
    request("init", "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: "fleet-test", version: "1" },
    }),
  );
  if (!("result" in response)) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
  transport.setProtocolEra({ kind: "legacy", protocolVersion: String(response.result.protocolVersion) });
  await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
}

/** The headers of a raw request on session `sessionId`. */
function sessionHeaders(sessionId: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "Mcp-Session-Id": sessionId,
    "MCP-Protocol-Version": "2025-11-25",
  };
}

describe("handshake-era sessions across three replicas sharing state", () => {
  let fleet: Replicas;
  let transport: HttpClientTransport | undefined;
  const seen: Seen = { ranOn: [], aborted: [] };

  async function start(http: HttpHandlerOptions = {}): Promise<Replicas> {
    seen.ranOn.length = 0;
    seen.aborted.length = 0;
    fleet = await startReplicas(3, (index) => replicaServer(index, seen), {
      http: { keepAliveMs: 0, retryMs: 50, ...http },
    });
    return fleet;
  }

  afterEach(async () => {
    await transport?.close();
    transport = undefined;
    await fleet.close();
  });

  it("serves a session initialized on one replica on every other, round-robin", async () => {
    await start();
    transport = fleet.transport();
    await initialize(transport);
    const texts: string[] = [];
    for (let id = 1; id <= 6; id++) {
      texts.push(
        textOf(await transport.request(request(id, "tools/call", { name: "where", arguments: {} }))),
      );
    }
    expect(new Set(texts)).toEqual(new Set(["replica 0", "replica 1", "replica 2"]));
    expect(fleet.hits.every((hits) => hits >= 2)).toBe(true);
  });

  it("serves the official 1.x client's session on every replica", async () => {
    await start();
    const client = new ClientV1({ name: "fleet-v1", version: "1.0.0" }, { capabilities: {} });
    const v1 = new StreamableHTTPClientTransport(fleet.url, { fetch: fleet.fetch });
    await client.connect(v1);
    try {
      expect(v1.sessionId).toBeDefined();
      const ran = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool({ name: "where", arguments: {} });
        ran.add((result.content as { text: string }[])[0]?.text as string);
      }
      expect(ran).toEqual(new Set(["replica 0", "replica 1", "replica 2"]));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("ask");
    } finally {
      await client.close();
    }
  });

  it("settles an elicitation asked on replica A with the answer POSTed to replica C", async () => {
    await start();
    transport = fleet.transport();
    await initialize(transport);
    fleet.pin(0);
    const before = fleet.hits[2] as number;
    transport.onRequest = async (incoming) => {
      expect(incoming.id).toMatch(/^[^-]+-\d+$/);
      fleet.pin(2);
      return { action: "accept", content: { name: "Ada" } };
    };
    const response = await transport.request(request(7, "tools/call", { name: "ask", arguments: {} }));
    expect(textOf(response)).toBe("hello Ada from 0");
    expect(seen.ranOn).toEqual([0]);
    expect(fleet.hits[2]).toBe(before + 1);
  });

  it("settles the official 1.x client's elicitation answer on the replica that asked", async () => {
    await start();
    const client = new ClientV1(
      { name: "fleet-v1", version: "1.0.0" },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => {
      fleet.pin(1);
      return { action: "accept", content: { name: "Grace" } };
    });
    const v1 = new StreamableHTTPClientTransport(fleet.url, { fetch: fleet.fetch });
    await client.connect(v1);
    try {
      fleet.pin(2);
      const before = fleet.hits[1] as number;
      const result = await client.callTool({ name: "ask", arguments: {} });
      expect((result.content as { text: string }[])[0]?.text).toBe("hello Grace from 2");
      expect(fleet.hits[1]).toBe(before + 1);
    } finally {
      fleet.pin(null);
      await client.close();
    }
  });

  it("aborts a request running on replica A when notifications/cancelled lands on replica B", async () => {
    await start();
    transport = fleet.transport();
    await initialize(transport);
    const sessionId = transport.sessionId as string;
    fleet.pin(0);
    const running = new Promise<void>((resolve) => {
      seen.waiting = resolve;
    });
    const call = transport.request(request(9, "tools/call", { name: "wait", arguments: {} }));
    await running;
    const aborted = new Promise<void>((resolve) => {
      seen.onAbort = resolve;
    });
    fleet.pin(1);
    const cancelled = await fleet.fetch(fleet.url, {
      method: "POST",
      headers: sessionHeaders(sessionId),
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 9, reason: "changed my mind" },
      }),
    });
    expect(cancelled.status).toBe(202);
    await aborted;
    expect(seen.aborted).toEqual([{ replica: 0, reason: "changed my mind" }]);
    void call.catch(() => {});
  });

  it("ends a session everywhere when DELETE lands on replica B: replica A then answers 404", async () => {
    await start();
    transport = fleet.transport();
    fleet.pin(0);
    await initialize(transport);
    const sessionId = transport.sessionId as string;
    fleet.pin(1);
    const deleted = await fleet.fetch(fleet.url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(deleted.status).toBe(204);
    for (const replica of [0, 2]) {
      fleet.pin(replica);
      const call = await fleet.fetch(fleet.url, {
        method: "POST",
        headers: sessionHeaders(sessionId),
        body: JSON.stringify(request(10, "tools/call", { name: "where", arguments: {} })),
      });
      expect(call.status).toBe(404);
    }
    expect(seen.ranOn).toEqual([]);
  });

  it("answers 404 on another replica to another principal than the one that opened the session, and 400 to another protocol version", async () => {
    await start({
      authenticate: (incoming) => ({ token: "t", clientId: incoming.headers.get("x-user") ?? "nobody" }),
    });
    fleet.pin(0);
    const init = await fleet.fetch(fleet.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-User": "ada" },
      body: JSON.stringify(
        request(1, "initialize", {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "fleet-test", version: "1" },
        }),
      ),
    });
    const sessionId = init.headers.get("mcp-session-id") as string;
    const where = (replica: number, headers: Record<string, string>) => {
      fleet.pin(replica);
      return fleet.fetch(fleet.url, {
        method: "POST",
        headers: { ...sessionHeaders(sessionId), ...headers },
        body: JSON.stringify(request(2, "tools/call", { name: "where", arguments: {} })),
      });
    };
    expect((await where(1, { "X-User": "bob" })).status).toBe(404);
    expect((await where(2, {})).status).toBe(404);
    const otherVersion = await where(2, { "X-User": "ada", "MCP-Protocol-Version": "2025-06-18" });
    expect(otherVersion.status).toBe(400);
    expect(await otherVersion.json()).toMatchObject({ id: 2, error: { code: -32022 } });
    expect((await where(1, { "X-User": "ada" })).status).toBe(200);
    expect(seen.ranOn).toEqual([1]);
  });

  it("writes back the log level set on one replica: a tool on another replica logs at it", async () => {
    await start();
    transport = fleet.transport();
    fleet.pin(0);
    await initialize(transport);
    fleet.pin(1);
    expect(await transport.request(request(2, "logging/setLevel", { level: "info" }))).toMatchObject({
      result: {},
    });
    fleet.pin(2);
    const logged: unknown[] = [];
    const response = await transport.request(request(3, "tools/call", { name: "log", arguments: {} }), {
      onNotification: (notification) => logged.push(notification.params?.data),
    });
    expect(textOf(response)).toBe("replica 2");
    expect(logged).toEqual(["logged on 2"]);
  });

  it("keeps serving a session whose local view a replica evicted for room: the shared store still holds it", async () => {
    await start({ maxSessions: 1 });
    const open = async () => {
      fleet.pin(0);
      const init = await fleet.fetch(fleet.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(
          request(1, "initialize", {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "fleet-test", version: "1" },
          }),
        ),
      });
      return init.headers.get("mcp-session-id") as string;
    };
    const first = await open();
    const second = await open();
    for (const sessionId of [first, second, first]) {
      const call = await fleet.fetch(fleet.url, {
        method: "POST",
        headers: sessionHeaders(sessionId),
        body: JSON.stringify(request(2, "tools/call", { name: "where", arguments: {} })),
      });
      expect(call.status).toBe(200);
    }
    expect(seen.ranOn).toEqual([0, 0, 0]);
  });
});
