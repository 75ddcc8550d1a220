import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { baseHeaders, post, rawRequest, rpc, SseReader } from "../http-test-fixtures.js";
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
  type ScriptedDispatcher,
  type Served,
  scriptedDispatcher,
  VISIBLE_ASCII,
  webFrontEnd,
} from "./session-test-fixtures.js";

describe.each([
  ["the web handler", webFrontEnd],
  ["the Node adapter", nodeFrontEnd],
] as [string, FrontEnd][])("handshake-era sessions through %s", (_name, frontEnd) => {
  let dispatcher: ScriptedDispatcher;
  let served: Served;

  beforeEach(async () => {
    dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher, { keepAliveMs: 0 });
  });

  afterEach(async () => {
    await served.close();
  });

  it("mints a visible-ASCII session id on initialize and serves later requests on that session", async () => {
    const response = await post(served.url, initializeRequest(), legacyHeaders(undefined, ""));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const sessionId = response.headers.get("mcp-session-id") as string;
    expect(sessionId).toMatch(VISIBLE_ASCII);
    expect(sessionId.length).toBeGreaterThanOrEqual(32);
    expect(await response.json()).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect(await initialize(served.url)).not.toBe(sessionId);

    const notified = await post(
      served.url,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      legacyHeaders(sessionId),
    );
    expect(notified.status).toBe(202);
    expect(await notified.text()).toBe("");
    expect(dispatcher.sessions[0]?.initialized).toBe(true);

    const call = await post(
      served.url,
      legacyRequest(2, "tools/call", { name: "env" }),
      legacyHeaders(sessionId),
    );
    expect(call.status).toBe(200);
    const body = (await call.json()) as { result: { structuredContent: Record<string, unknown> } };
    expect(body.result.structuredContent).toEqual({
      sessionId,
      hasSession: true,
      hasRequest: true,
      hasCloseSseStream: true,
      protocolVersion: "2025-11-25",
    });
  });

  it("answers a failed initialize without a session id", async () => {
    const bad = { jsonrpc: "2.0", id: 1, method: "initialize", params: {} };
    const response = await post(served.url, bad, legacyHeaders(undefined, ""));
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({ error: { code: -32602 } });
  });

  it("answers a 2025-era request without a session id with 400", async () => {
    const response = await post(served.url, legacyRequest(3, "tools/list"), legacyHeaders());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 3, error: { code: -32600 } });
    const bare = await post(served.url, legacyRequest(4, "tools/list"), legacyHeaders(undefined, ""));
    expect(bare.status).toBe(400);
    const get = await fetch(served.url, { method: "GET", headers: { Accept: "text/event-stream" } });
    expect(get.status).toBe(400);
  });

  it("answers an unknown session id with 404, and a deleted session's id with 404", async () => {
    const unknown = await post(served.url, legacyRequest(5, "tools/list"), legacyHeaders("no-such-session"));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ id: 5, error: { code: -32600 } });

    const sessionId = await initialize(served.url);
    const deleted = await fetch(served.url, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } });
    expect(deleted.status).toBe(204);
    expect(dispatcher.sessions[0]?.signal.aborted).toBe(true);
    expect((await callTool(served.url, sessionId, 6, "echo")).status).toBe(404);
    expect((await getStream(served.url, sessionId)).status).toBe(404);
    const again = await fetch(served.url, { method: "DELETE", headers: { "Mcp-Session-Id": sessionId } });
    expect(again.status).toBe(404);
  });

  it("answers an MCP-Protocol-Version other than the negotiated one with 400, and assumes it when absent", async () => {
    const sessionId = await initialize(served.url, "2025-06-18");
    const wrong = await post(
      served.url,
      legacyRequest(7, "tools/call", { name: "echo" }),
      legacyHeaders(sessionId),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      id: 7,
      error: { code: -32022, data: { supported: ["2025-06-18"], requested: "2025-11-25" } },
    });
    const right = await post(
      served.url,
      legacyRequest(8, "tools/call", { name: "echo" }),
      legacyHeaders(sessionId, "2025-06-18"),
    );
    expect(right.status).toBe(200);
    const absent = await post(
      served.url,
      legacyRequest(9, "tools/call", { name: "echo" }),
      legacyHeaders(sessionId, ""),
    );
    expect(await resultText(absent)).toBe("echo");
  });

  it("answers JSON-RPC errors on a session with HTTP 200, as 2025-era clients expect", async () => {
    const sessionId = await initialize(served.url);
    const response = await post(served.url, legacyRequest(10, "nope/nothing"), legacyHeaders(sessionId));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 10, error: { code: -32601 } });
  });

  it("opens the GET stream with a priming event and delivers session-wide notifications on it", async () => {
    const sessionId = await initialize(served.url);
    const session = dispatcher.sessions[0];
    session?.notify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    const response = await getStream(served.url, sessionId);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = new SseReader(response);
    const priming = await reader.next();
    expect(priming?.id).toMatch(VISIBLE_ASCII);
    expect(priming?.data).toBe("");
    // Queued while no GET stream was open:
    const queued = await reader.next();
    expect(JSON.parse(queued?.data ?? "")).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    expect(queued?.id).toMatch(VISIBLE_ASCII);
    session?.notify({ jsonrpc: "2.0", method: "notifications/resources/list_changed" });
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/resources/list_changed",
    });

    expect((await getStream(served.url, sessionId)).status).toBe(409);
    await reader.cancel();
  });

  it("sends session-level requests on the GET stream and settles them with the POSTed response", async () => {
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await getStream(served.url, sessionId));
    await reader.next();
    const pong = dispatcher.sessions[0]?.request?.("ping", undefined);
    const request = await reader.nextMessage();
    expect(request).toMatchObject({ jsonrpc: "2.0", method: "ping" });
    const answered = await post(
      served.url,
      { jsonrpc: "2.0", id: request.id, result: {} },
      legacyHeaders(sessionId),
    );
    expect(answered.status).toBe(202);
    expect(await pong).toEqual({});
    await reader.cancel();
  });

  it("mints a session for an initialize that carries Mcp-Method but no protocol version", async () => {
    const response = await post(served.url, initializeRequest(), {
      ...legacyHeaders(undefined, ""),
      "Mcp-Method": "initialize",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toMatch(VISIBLE_ASCII);
  });

  it("replays the GET stream from its priming event's id: a reconnecting client loses nothing", async () => {
    const sessionId = await initialize(served.url);
    const session = dispatcher.sessions[0];
    session?.notify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    const first = new SseReader(await getStream(served.url, sessionId));
    const priming = await first.next();
    await first.next();
    await first.cancel();
    // Every event is stored before any connection carries it, so whether the server has noticed
    // the cancelled connection yet or not, the next notification is there for Last-Event-ID.
    session?.notify({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" });

    const resumed = await getStream(served.url, sessionId, { "Last-Event-ID": priming?.id as string });
    const reader = new SseReader(resumed);
    expect((await reader.next())?.id).toBe(priming?.id);
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: "2.0",
      method: "notifications/prompts/list_changed",
    });
    await reader.cancel();
  });

  it("refuses a GET stream without text/event-stream in Accept with 406", async () => {
    const sessionId = await initialize(served.url);
    const response = await getStream(served.url, sessionId, { Accept: "application/json" });
    expect(response.status).toBe(406);
  });

  it("streams notifications related to a request on its POST, after a priming event with retry", async () => {
    const sessionId = await initialize(served.url);
    const response = await callTool(served.url, sessionId, 11, "progress");
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events: { id?: string; data: string }[] = [];
    let retry: number | undefined;
    const body = await response.text();
    for (const block of body.split("\n\n").filter((b) => b.trim() !== "")) {
      const fields = Object.fromEntries(
        block
          .split("\n")
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      if (fields.retry !== undefined) retry = Number(fields.retry);
      events.push({ id: fields.id, data: fields.data ?? "" });
    }
    expect(retry).toBe(1000);
    expect(events[0]?.data).toBe("");
    expect(
      events.map((e) => (e.data === "" ? "priming" : (JSON.parse(e.data).method ?? "response"))),
    ).toEqual(["priming", "notifications/progress", "response"]);
    expect(new Set(events.map((e) => e.id)).size).toBe(3);
  });

  it("sends a tool's elicitation on its POST stream and settles it with the response the client POSTs", async () => {
    const sessionId = await initialize(served.url);
    const response = await callTool(served.url, sessionId, 12, "elicit");
    const reader = new SseReader(response);
    expect((await reader.next())?.data).toBe("");
    const request = await reader.nextMessage();
    expect(request).toMatchObject({ method: "elicitation/create", params: { message: "Name?" } });
    const answered = await post(
      served.url,
      { jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { name: "Ada" } } },
      legacyHeaders(sessionId),
    );
    expect(answered.status).toBe(202);
    const final = await reader.nextMessage();
    expect(final).toMatchObject({
      id: 12,
      result: { content: [{ text: '{"action":"accept","content":{"name":"Ada"}}' }] },
    });
    expect(await reader.rest()).toEqual([]);
  });

  it("rejects a back-channel request with the client's error", async () => {
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await callTool(served.url, sessionId, 13, "elicit"));
    await reader.next();
    const request = await reader.nextMessage();
    await post(
      served.url,
      { jsonrpc: "2.0", id: request.id, error: { code: -32042, message: "no" } },
      legacyHeaders(sessionId),
    );
    expect(await reader.nextMessage()).toMatchObject({ result: { content: [{ text: "error -32042" }] } });
  });

  it("aborts the request notifications/cancelled names", async () => {
    const sessionId = await initialize(served.url);
    const pending = callTool(served.url, sessionId, 14, "wait");
    await dispatcher.until(() => dispatcher.envs.some(({ message }) => "id" in message && message.id === 14));
    const cancelled = await post(
      served.url,
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 14, reason: "changed my mind" },
      },
      legacyHeaders(sessionId),
    );
    expect(cancelled.status).toBe(202);
    expect(String(await dispatcher.waitAborted)).toContain("changed my mind");
    await (await pending).text();
  });

  it("resumes a POST stream the server closed: GET with Last-Event-ID gets the rest and the response", async () => {
    const sessionId = await initialize(served.url);
    const response = await callTool(served.url, sessionId, 15, "reconnect");
    const reader = new SseReader(response);
    const first = await reader.rest();
    expect(first[0]?.data).toBe("");
    expect(first.some((event) => event.data.includes('"id":15'))).toBe(false);
    const lastEventId = first.at(-1)?.id as string;
    expect(lastEventId).toMatch(VISIBLE_ASCII);

    const resumed = await getStream(served.url, sessionId, { "Last-Event-ID": first[0]?.id as string });
    expect(resumed.status).toBe(200);
    const rest = await new SseReader(resumed).rest();
    const messages = rest.filter((event) => event.data !== "").map((event) => JSON.parse(event.data));
    expect(messages).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "before" } },
      expect.objectContaining({
        id: 15,
        result: expect.objectContaining({ content: [{ type: "text", text: "after reconnect" }] }),
      }),
    ]);
  });

  it("ends every session when closed", async () => {
    const sessionId = await initialize(served.url);
    await served.close();
    expect(dispatcher.sessions[0]?.signal.aborted).toBe(true);
    served = await frontEnd(dispatcher);
    expect((await callTool(served.url, sessionId, 16, "echo")).status).toBe(404);
  });

  it("leaves 2026-07-28 requests on the stateless path, with no session", async () => {
    await initialize(served.url);
    const response = await post(served.url, rpc(17, "tools/call", { name: "env" }), {
      ...baseHeaders("tools/call"),
      "Mcp-Name": "env",
    });
    expect(response.status).toBe(200);
    const last = dispatcher.envs.at(-1);
    expect(last?.env.session).toBeUndefined();
    expect(last?.env.request).toBeUndefined();
    expect(last?.env.closeSseStream).toBeUndefined();
  });

  it("applies the Host and Origin guards to GET and DELETE, logging each refusal", async () => {
    const logger = recordingLogger();
    await served.close();
    served = await frontEnd(dispatcher, { keepAliveMs: 0, logger });
    const sessionId = await initialize(served.url);
    for (const method of ["GET", "DELETE"]) {
      const foreignHost = await rawRequest(served.url, {
        method,
        headers: { Host: "evil.example", Accept: "text/event-stream", "Mcp-Session-Id": sessionId },
      });
      expect(foreignHost.status).toBe(403);
      const foreignOrigin = await rawRequest(served.url, {
        method,
        headers: { Origin: "http://evil.example", Accept: "text/event-stream", "Mcp-Session-Id": sessionId },
      });
      expect(foreignOrigin.status).toBe(403);
    }
    expect(dispatcher.sessions[0]?.signal.aborted).toBe(false);
    const host = [
      "Streamable HTTP refused a request: Host not allowed (see allowedHosts)",
      { host: "evil.example" },
    ];
    const origin = [
      "Streamable HTTP refused a request: Origin not allowed (see allowedOrigins)",
      { origin: "http://evil.example" },
    ];
    expect(logger.records.map(({ message, fields }) => [message, fields])).toEqual([
      host,
      origin,
      host,
      origin,
    ]);
  });
});
