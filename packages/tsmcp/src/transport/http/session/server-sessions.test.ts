/**
 * End to end with a real low-level `Server`: a 2025-era client's session through both front ends,
 * from `initialize` to the tool that asks the client back and the stream it resumes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Server } from "../../../server/server.js";
import { post, SseReader } from "../http-test-fixtures.js";
import {
  type FrontEnd,
  initializeRequest,
  legacyHeaders,
  legacyRequest,
  nodeFrontEnd,
  type Served,
  webFrontEnd,
} from "./session-test-fixtures.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A server whose `poll` tool closes its SSE stream, then answers once `resumed` resolves. */
function newServer(resumed: Promise<void>): Server {
  return new Server("sessions-e2e", {
    logger: silent,
    capabilities: { tools: { listChanged: true } },
    onListTools: () => ({ tools: [{ name: "ask", inputSchema: { type: "object" } }] }),
    onCallTool: async (ctx, params) => {
      if (params.name === "ask") {
        const answer = await ctx.elicit({
          message: "Your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        });
        return { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] };
      }
      ctx.closeSseStream();
      await resumed;
      return { content: [{ type: "text", text: "polled" }] };
    },
  });
}

describe.each([
  ["the web handler", webFrontEnd],
  ["the Node adapter", nodeFrontEnd],
] as [string, FrontEnd][])("a real Server's 2025-era session through %s", (_name, frontEnd) => {
  let server: Server;
  let served: Served;
  let sessionId: string;
  let resume: () => void;

  beforeEach(async () => {
    server = newServer(
      new Promise((resolve) => {
        resume = resolve;
      }),
    );
    served = await frontEnd(server, { keepAliveMs: 0 });
    const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(init.status).toBe(200);
    expect(await init.json()).toMatchObject({
      result: { protocolVersion: "2025-11-25", serverInfo: { name: "sessions-e2e" } },
    });
    sessionId = init.headers.get("mcp-session-id") as string;
    const initialized = await post(
      served.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      legacyHeaders(sessionId),
    );
    expect(initialized.status).toBe(202);
  });

  afterEach(async () => {
    resume();
    await served.close();
    server.close();
  });

  it("lists tools on the session", async () => {
    const response = await post(served.url, legacyRequest(2, "tools/list"), legacyHeaders(sessionId));
    expect(await response.json()).toMatchObject({ id: 2, result: { tools: [{ name: "ask" }] } });
  });

  it("delivers notifyListChanged on the GET stream", async () => {
    const stream = await fetch(served.url, {
      headers: {
        Accept: "text/event-stream",
        "Mcp-Session-Id": sessionId,
        "MCP-Protocol-Version": "2025-11-25",
      },
    });
    expect(stream.status).toBe(200);
    const reader = new SseReader(stream);
    expect((await reader.next())?.data).toBe("");
    server.notifyListChanged("tools");
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    await reader.cancel();
  });

  it("answers a tool's ctx.elicit with the response the client POSTs", async () => {
    const call = await post(
      served.url,
      legacyRequest(3, "tools/call", { name: "ask", arguments: {} }),
      legacyHeaders(sessionId),
    );
    const reader = new SseReader(call);
    await reader.next();
    const request = await reader.nextMessage();
    expect(request).toMatchObject({ method: "elicitation/create", params: { message: "Your name?" } });
    const answered = await post(
      served.url,
      { jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { name: "Ada" } } },
      legacyHeaders(sessionId),
    );
    expect(answered.status).toBe(202);
    expect(await reader.nextMessage()).toMatchObject({
      id: 3,
      result: { content: [{ type: "text", text: "hello Ada" }] },
    });
  });

  it("resumes a stream closed by ctx.closeSseStream with Last-Event-ID (SSE polling)", async () => {
    const call = await post(
      served.url,
      legacyRequest(4, "tools/call", { name: "poll", arguments: {} }),
      legacyHeaders(sessionId),
    );
    expect(call.headers.get("content-type")).toBe("text/event-stream");
    const first = await new SseReader(call).rest();
    expect(first).toHaveLength(1);
    expect(first[0]?.data).toBe("");
    const resumed = await fetch(served.url, {
      headers: {
        Accept: "text/event-stream",
        "Mcp-Session-Id": sessionId,
        "MCP-Protocol-Version": "2025-11-25",
        "Last-Event-ID": first[0]?.id as string,
      },
    });
    expect(resumed.status).toBe(200);
    resume();
    const rest = (await new SseReader(resumed).rest()).filter((event) => event.data !== "");
    expect(rest.map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "polled" }] } },
    ]);
  });
});
