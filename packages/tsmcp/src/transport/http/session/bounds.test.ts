import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { baseHeaders, META, post, rpc, SseReader } from "../http-test-fixtures.js";
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

  it("evicts a session that never sent a request before a less recently used one that did", async () => {
    served = await frontEnd(scriptedDispatcher(), { maxSessions: 2 });
    const a = await initialize(served.url);
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
    expect((await post(served.url, initialized, legacyHeaders(a))).status).toBe(202);
    expect((await callTool(served.url, a, 1, "echo")).status).toBe(200);
    const b = await initialize(served.url); // more recent than a, but it never sent a request
    const c = await initialize(served.url);
    expect((await callTool(served.url, b, 2, "echo")).status).toBe(404);
    expect((await callTool(served.url, a, 3, "echo")).status).toBe(200);
    expect((await callTool(served.url, c, 4, "echo")).status).toBe(200);
  });

  it("never evicts a session serving a request: initialize gets 503 with Retry-After while every session is busy", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher, { maxSessions: 1 });
    const busy = await initialize(served.url);
    const waiting = callTool(served.url, busy, 1, "wait");
    await dispatcher.until(() => dispatcher.envs.length >= 2);
    const refused = await post(served.url, initializeRequest(7), legacyHeaders(undefined, ""));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(await refused.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32603 } });
    await post(
      served.url,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      legacyHeaders(busy),
    );
    await (await waiting).body?.cancel();
    expect((await post(served.url, initializeRequest(8), legacyHeaders(undefined, ""))).status).toBe(200);
    expect((await callTool(served.url, busy, 2, "echo")).status).toBe(404);
  });

  it("evicts a session whose only activity is an open GET stream when no session is idle, never one serving a request", async () => {
    served = await frontEnd(scriptedDispatcher(), { maxSessions: 1 });
    const streaming = await initialize(served.url);
    const stream = await getStream(served.url, streaming);
    expect(stream.status).toBe(200);
    expect((await post(served.url, initializeRequest(9), legacyHeaders(undefined, ""))).status).toBe(200);
    expect((await callTool(served.url, streaming, 2, "echo")).status).toBe(404);
    await stream.body?.cancel();
  });

  it("ends a session idle for sessionIdleTimeoutMs", async () => {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher, { sessionIdleTimeoutMs: 500 });
    const sessionId = await initialize(served.url);
    expect((await callTool(served.url, sessionId, 1, "echo")).status).toBe(200);
    const session = dispatcher.sessions[0];
    expect(session?.signal.aborted).toBe(false);
    // The session's signal aborts when it ends; nothing else touches it in between.
    await once(session?.signal as AbortSignal, "abort");
    expect((await callTool(served.url, sessionId, 2, "echo")).status).toBe(404);
  });

  it("keeps each session's events in the event store state.events names, keyed by session id", async () => {
    const events = new MemoryEventStore({ maxEventsPerStream: 10 });
    served = await frontEnd(scriptedDispatcher(), { state: { events } });
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await getStream(served.url, sessionId));
    const priming = await reader.next();
    expect(await events.after(sessionId, priming?.id as string)).toEqual({ streamId: "0", events: [] });
    expect(await events.after("another-session", priming?.id as string)).toBeUndefined();
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
