import { afterEach, describe, expect, it } from "vitest";
import { baseHeaders, META, post, rpc, SseReader } from "../http-test-fixtures.js";
import { InMemoryEventStore } from "./event-store.js";
import {
  callTool,
  type FrontEnd,
  getStream,
  initialize,
  initializeRequest,
  legacyHeaders,
  legacyRequest,
  nodeFrontEnd,
  resultText,
  type Served,
  scriptedDispatcher,
  webFrontEnd,
} from "./session-test-fixtures.js";

describe.each([
  ["the web handler", webFrontEnd],
  ["the Node adapter", nodeFrontEnd],
] as [string, FrontEnd][])("session bounds and modes through %s", (_name, frontEnd) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("evicts the least recently used session beyond maxSessions; its id then gets 404", async () => {
    served = await frontEnd(scriptedDispatcher(), { maxSessions: 2 });
    const a = await initialize(served.url);
    const b = await initialize(served.url);
    expect((await callTool(served.url, a, 1, "echo")).status).toBe(200); // a is now the most recent
    const c = await initialize(served.url);
    expect((await callTool(served.url, b, 2, "echo")).status).toBe(404);
    expect((await callTool(served.url, a, 3, "echo")).status).toBe(200);
    expect((await callTool(served.url, c, 4, "echo")).status).toBe(200);
  });

  it("ends a session idle for sessionIdleTimeoutMs", async () => {
    served = await frontEnd(scriptedDispatcher(), { sessionIdleTimeoutMs: 500 });
    const sessionId = await initialize(served.url);
    expect((await callTool(served.url, sessionId, 1, "echo")).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await callTool(served.url, sessionId, 2, "echo")).status).toBe(404);
  });

  it("keeps each session's events in the store eventStore builds", async () => {
    const stores: InMemoryEventStore[] = [];
    served = await frontEnd(scriptedDispatcher(), {
      eventStore: () => {
        const store = new InMemoryEventStore(10);
        stores.push(store);
        return store;
      },
    });
    const sessionId = await initialize(served.url);
    expect(stores).toHaveLength(1);
    const reader = new SseReader(await getStream(served.url, sessionId));
    const priming = await reader.next();
    expect(stores[0]?.after(priming?.id as string)).toEqual({ streamId: "0", events: [] });
    await reader.cancel();
  });

  it("times a back-channel request out after backChannelTimeoutMs with -32001", async () => {
    served = await frontEnd(scriptedDispatcher(), { backChannelTimeoutMs: 100 });
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await callTool(served.url, sessionId, 1, "elicit"));
    await reader.next();
    const request = await reader.nextMessage();
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: request.id, reason: "Request timed out" },
    });
    expect(await reader.nextMessage()).toMatchObject({
      id: 1,
      result: { content: [{ text: "error -32001" }] },
    });
  });

  it("in the stateless mode answers initialize without a session id and serves each request alone, without a back-channel", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher, { legacy: "stateless" });
    const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(dispatcher.sessions[0]?.signal.aborted).toBe(true);
    const call = await post(
      served.url,
      legacyRequest(2, "tools/call", { name: "env" }),
      legacyHeaders(undefined, "2025-06-18"),
    );
    const body = (await call.json()) as { result: { structuredContent: Record<string, unknown> } };
    expect(body.result.structuredContent).toEqual({
      sessionId: null,
      hasSession: true,
      hasRequest: false,
      hasCloseSseStream: true,
      protocolVersion: "2025-06-18",
    });
    const elicit = await post(
      served.url,
      legacyRequest(3, "tools/call", { name: "elicit" }),
      legacyHeaders(),
    );
    expect(await resultText(elicit)).toBe("no back-channel");
    const get = await fetch(served.url, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect((await fetch(served.url, { method: "DELETE" })).status).toBe(405);
  });

  it("in the reject mode answers initialize with -32022 and GET with 405", async () => {
    served = await frontEnd(scriptedDispatcher(), { legacy: "reject" });
    const init = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(init.status).toBe(400);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    const get = await fetch(served.url, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  it("serves a 2026-07-28 request with its _meta unchanged in every mode", async () => {
    for (const legacy of ["session", "stateless", "reject"] as const) {
      const dispatcher = scriptedDispatcher();
      const current = await frontEnd(dispatcher, { legacy });
      try {
        const response = await post(current.url, rpc(1, "tools/call", { name: "echo" }), {
          ...baseHeaders("tools/call"),
          "Mcp-Name": "echo",
        });
        expect(response.status).toBe(200);
        expect(dispatcher.envs[0]?.env.session).toBeUndefined();
        expect(dispatcher.envs[0]?.message.params?._meta).toEqual(META);
      } finally {
        await current.close();
      }
    }
  });
});
