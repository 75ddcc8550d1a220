import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { type RecordingLogger, recordingLogger } from "../../../../../../test/helpers/logs.js";
import { Server } from "../../../server/server.js";
import type { Dispatcher } from "../../dispatcher.js";
import {
  baseHeaders,
  createFixture,
  type Fixture,
  META,
  post,
  rawRequest,
  rpc,
  SseReader,
} from "../http-test-fixtures.js";
import { ENTRIES, type Served } from "../node/entries-test-fixtures.js";
import { DEFAULT_MAX_BODY_BYTES } from "./body.js";
import { DEFAULT_ALLOWED_HOSTS } from "./origin-guard.js";
import { createHttpHandler, DEFAULT_KEEP_ALIVE_MS } from "./server-handler.js";

/** The shared fixture around a real low-level `Server`. */
function newFixture(): Fixture {
  return createFixture((options) => new Server("http-fixture", options));
}

describe.each(ENTRIES)("the Streamable HTTP server through $name", ({ start }) => {
  let fixture: Fixture;
  let handle: Served;
  let logger: RecordingLogger;

  beforeEach(async () => {
    fixture = newFixture();
    logger = recordingLogger();
    handle = await start(fixture.dispatcher, { maxBodyBytes: 1024, logger });
  });

  afterEach(async () => {
    await handle.close();
  });

  const callHeaders = (name: string) => ({ ...baseHeaders("tools/call"), "Mcp-Name": name });

  async function jsonOf(response: Response): Promise<Record<string, unknown>> {
    expect(response.headers.get("content-type")).toBe("application/json");
    return (await response.json()) as Record<string, unknown>;
  }

  async function expectError(response: Response, status: number, code: number) {
    expect(response.status).toBe(status);
    const body = await jsonOf(response);
    expect((body.error as { code: number }).code).toBe(code);
    return body as { id?: unknown; error: { code: number; message: string; data?: unknown } };
  }

  describe("a request answered without notifications", () => {
    it("comes back as application/json with status 200", async () => {
      const response = await post(handle.url, rpc(1, "tools/list"), baseHeaders("tools/list"));
      expect(response.status).toBe(200);
      const body = await jsonOf(response);
      expect(body.id).toBe(1);
      expect((body.result as { tools: unknown[] }).tools).toHaveLength(1);
    });

    it("answers an unknown method with 404 and -32601", async () => {
      await expectError(
        await post(handle.url, rpc(2, "nope/nothing"), baseHeaders("nope/nothing")),
        404,
        -32601,
      );
    });

    it.each(["ping", "initialize"])("answers the removed method %s with 404 and -32601", async (method) => {
      await expectError(await post(handle.url, rpc(3, method), baseHeaders(method)), 404, -32601);
    });

    it("answers a handler failure with 500 and -32603, leaking nothing", async () => {
      const body = await expectError(
        await post(handle.url, rpc(4, "tools/call", { name: "fail" }), callHeaders("fail")),
        500,
        -32603,
      );
      expect(body.id).toBe(4);
      expect(JSON.stringify(body)).not.toContain("hunter2");
    });

    it("answers a missing client capability with 400 and -32021, keeping its data", async () => {
      const body = await expectError(
        await post(
          handle.url,
          rpc(6, "tools/call", { name: "needs-sampling" }),
          callHeaders("needs-sampling"),
        ),
        400,
        -32021,
      );
      expect(body.error.data).toEqual({ requiredCapabilities: { sampling: {} } });
    });

    it("answers an application-defined error code with 200", async () => {
      const response = await post(
        handle.url,
        rpc(5, "tools/call", { name: "app-error" }),
        callHeaders("app-error"),
      );
      const body = await expectError(response, 200, 1234);
      expect(body.error.message).toBe("application says no");
    });
  });

  describe("per-request _meta", () => {
    it.each([
      ["no _meta at all", null],
      ["_meta without protocolVersion", { "io.modelcontextprotocol/clientCapabilities": {} }],
      ["_meta without clientCapabilities", { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }],
    ])("answers %s with 400 and -32602", async (_case, meta) => {
      const body = await expectError(
        await post(handle.url, rpc(10, "server/discover", {}, meta), baseHeaders("server/discover")),
        400,
        -32602,
      );
      expect(body.id).toBe(10);
    });

    it("answers an unsupported version with 400 and -32022 naming the supported and requested versions", async () => {
      const meta = { ...META, "io.modelcontextprotocol/protocolVersion": "v999.0.0" };
      const headers = { ...baseHeaders("server/discover"), "MCP-Protocol-Version": "v999.0.0" };
      const body = await expectError(
        await post(handle.url, rpc(11, "server/discover", {}, meta), headers),
        400,
        -32022,
      );
      expect(body.error.data).toEqual({ supported: ["2026-07-28"], requested: "v999.0.0" });
    });

    it.each([
      ["without Mcp-Method", "tools/list", { "MCP-Protocol-Version": "2025-11-25" }, META],
      [
        "without _meta",
        "tools/list",
        { ...baseHeaders("tools/list"), "MCP-Protocol-Version": "2099-01-01" },
        null,
      ],
      [
        "on initialize",
        "initialize",
        { ...baseHeaders("initialize"), "MCP-Protocol-Version": "2025-11-25" },
        null,
      ],
    ])(
      "answers an unsupported MCP-Protocol-Version header %s with 400 and -32022, before any other check (2026 only)",
      async (_case, method, headers, meta) => {
        const allHeaders = { "Content-Type": "application/json", ...headers };
        const modernOnly = await start(fixture.dispatcher, { legacy: "reject" });
        const response = await post(modernOnly.url, rpc(12, method, {}, meta), allHeaders).finally(() =>
          modernOnly.close(),
        );
        const body = await expectError(response, 400, -32022);
        const requested = (headers as Record<string, string>)["MCP-Protocol-Version"];
        expect(body).toMatchObject({ id: 12, error: { data: { supported: ["2026-07-28"], requested } } });
      },
    );

    it("answers a 2025-era initialize without 2026 headers with 400 and -32022 naming its versions (2026 only)", async () => {
      const modernOnly = await start(fixture.dispatcher, { legacy: "reject" });
      onTestFinished(() => modernOnly.close());
      const initialize = rpc(
        13,
        "initialize",
        {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        },
        null,
      );
      const response = await post(modernOnly.url, initialize, {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      });
      const body = await expectError(response, 400, -32022);
      expect(body.error.data).toEqual({ supported: ["2026-07-28"], requested: "2025-11-25" });
    });
  });

  describe("request-metadata headers", () => {
    const list = rpc(20, "tools/list");
    const echo = rpc(21, "tools/call", { name: "echo", arguments: { text: "hi" } });

    it("refuses a request without Mcp-Method with 400 and -32020", async () => {
      const { "Mcp-Method": _, ...headers } = baseHeaders("tools/list");
      const body = await expectError(await post(handle.url, list, headers), 400, -32020);
      expect(body.id).toBe(20);
      expect(body.error.message).toContain("Mcp-Method");
    });

    it("refuses an Mcp-Method value in the wrong case with 400 and -32020", async () => {
      const headers = { ...baseHeaders("tools/list"), "Mcp-Method": "TOOLS/LIST" };
      await expectError(await post(handle.url, list, headers), 400, -32020);
    });

    it("refuses an Mcp-Method naming another method with 400 and -32020", async () => {
      const headers = { ...baseHeaders("tools/list"), "Mcp-Method": "prompts/list" };
      await expectError(await post(handle.url, list, headers), 400, -32020);
    });

    it("accepts header names in lower and upper case", async () => {
      const headers = {
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "MCP-METHOD": "tools/list",
      };
      expect((await post(handle.url, list, headers)).status).toBe(200);
    });

    it("refuses a request without MCP-Protocol-Version with 400 and -32020", async () => {
      const { "MCP-Protocol-Version": _, ...headers } = baseHeaders("tools/list");
      const body = await expectError(await post(handle.url, list, headers), 400, -32020);
      expect(body.error.message).toContain("MCP-Protocol-Version");
    });

    it("refuses an MCP-Protocol-Version that differs from _meta with 400 and -32020", async () => {
      const other = rpc(
        20,
        "tools/list",
        {},
        { ...META, "io.modelcontextprotocol/protocolVersion": "v999.0.0" },
      );
      await expectError(await post(handle.url, other, baseHeaders("tools/list")), 400, -32020);
    });

    it("refuses a tools/call without Mcp-Name with 400 and -32020", async () => {
      const body = await expectError(await post(handle.url, echo, baseHeaders("tools/call")), 400, -32020);
      expect(body.error.message).toContain("Mcp-Name");
    });

    it("refuses a mismatched Mcp-Name with 400 and -32020 naming both values", async () => {
      const body = await expectError(await post(handle.url, echo, callHeaders("foo")), 400, -32020);
      expect(body.error.message).toBe(
        "Header mismatch: Mcp-Name header value 'foo' does not match body value 'echo'",
      );
    });

    it("accepts an Mcp-Name with whitespace around it", async () => {
      expect((await post(handle.url, echo, callHeaders("  echo  "))).status).toBe(200);
    });

    it("accepts a base64-sentinel Mcp-Name that decodes to the body's name", async () => {
      const request = rpc(22, "tools/call", { name: "日本語" });
      const response = await post(handle.url, request, callHeaders("=?base64?5pel5pys6Kqe?="));
      expect(response.status).toBe(200);
      expect(((await jsonOf(response)).result as { content: unknown[] }).content).toEqual([
        { type: "text", text: "日本語" },
      ]);
    });

    it("refuses a base64-sentinel Mcp-Name with bad base64 with 400 and -32020", async () => {
      const request = rpc(23, "tools/call", { name: "Hello" });
      await expectError(await post(handle.url, request, callHeaders("=?base64?SGVsbG8?=")), 400, -32020);
    });

    it("checks Mcp-Name against params.uri on resources/read", async () => {
      const read = rpc(24, "resources/read", { uri: "test://a" });
      const headers = { ...baseHeaders("resources/read"), "Mcp-Name": "test://a" };
      expect((await post(handle.url, read, headers)).status).toBe(200);
      await expectError(await post(handle.url, read, { ...headers, "Mcp-Name": "test://b" }), 400, -32020);
    });
  });

  describe("HTTP-level refusals", () => {
    it.each(["GET", "DELETE", "PUT"])(
      "answers %s with 405 and Allow: POST when serving 2026 only",
      async (method) => {
        const modernOnly = await start(fixture.dispatcher, { legacy: "reject" });
        const response = await fetch(modernOnly.url, { method }).finally(() => modernOnly.close());
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("POST");
      },
    );

    it.each(["GET", "DELETE"])(
      "answers %s naming the 2026 revision with 405 and Allow: POST",
      async (method) => {
        const response = await fetch(handle.url, {
          method,
          headers: { "MCP-Protocol-Version": "2026-07-28" },
        });
        expect(response.status).toBe(405);
        expect(response.headers.get("allow")).toBe("POST");
      },
    );

    it("answers PUT with 405 and Allow: GET, POST, DELETE when serving sessions", async () => {
      const response = await fetch(handle.url, { method: "PUT" });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
    });

    it("refuses a foreign Host header with 403 (DNS rebinding)", async () => {
      const response = await rawRequest(handle.url, {
        headers: { ...baseHeaders("server/discover"), Host: "evil.example.com" },
        chunks: [JSON.stringify(rpc(30, "server/discover"))],
      });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: "Forbidden: Host not allowed (see allowedHosts)" },
      });
      expect(logger.records).toEqual([
        {
          level: "warn",
          message: "Streamable HTTP refused a request: Host not allowed (see allowedHosts)",
          fields: { host: "evil.example.com" },
        },
      ]);
    });

    it("refuses a foreign Origin with 403 and an id-less -32600", async () => {
      const response = await rawRequest(handle.url, {
        headers: { ...baseHeaders("server/discover"), Origin: "http://evil.example.com" },
        chunks: [JSON.stringify(rpc(31, "server/discover"))],
      });
      expect(response.status).toBe(403);
      const body = JSON.parse(response.body);
      expect(body.id).toBeUndefined();
      expect(body.error).toEqual({
        code: -32600,
        message: "Forbidden: Origin not allowed (see allowedOrigins)",
      });
      expect(logger.records).toEqual([
        {
          level: "warn",
          message: "Streamable HTTP refused a request: Origin not allowed (see allowedOrigins)",
          fields: { origin: "http://evil.example.com" },
        },
      ]);
    });

    it("accepts a loopback Host and Origin on any port", async () => {
      const host = `localhost:${handle.port}`;
      const response = await rawRequest(handle.url, {
        headers: { ...baseHeaders("server/discover"), Host: host, Origin: `http://${host}` },
        chunks: [JSON.stringify(rpc(32, "server/discover"))],
      });
      expect(response.status).toBe(200);
    });

    it("refuses a Content-Type other than application/json with 415", async () => {
      const headers = { ...baseHeaders("tools/list"), "Content-Type": "text/plain" };
      await expectError(await post(handle.url, rpc(33, "tools/list"), headers), 415, -32600);
    });

    it("refuses a body whose Content-Length is over the limit with 413, before reading it", async () => {
      const response = await rawRequest(handle.url, {
        headers: { ...baseHeaders("tools/list"), "Content-Length": "1000000" },
        endBody: false,
      });
      expect(response.status).toBe(413);
      expect(JSON.parse(response.body).error.code).toBe(-32600);
    });

    it("refuses a chunked body that grows over the limit with 413", async () => {
      const response = await rawRequest(handle.url, {
        headers: { ...baseHeaders("tools/list"), "Transfer-Encoding": "chunked" },
        chunks: [
          '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"padding":"',
          "x".repeat(600),
          "x".repeat(600),
        ],
      });
      expect(response.status).toBe(413);
    });

    it("answers a body stream that fails mid-upload without reporting a failure", async () => {
      const reported: unknown[] = [];
      const handler = createHttpHandler(fixture.dispatcher, {
        logger: { error: (_message, fields) => reported.push(fields?.error) },
      });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
          controller.error(new Error("aborted"));
        },
      });
      const request = new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: baseHeaders("server/discover"),
        body,
        duplex: "half",
      } as RequestInit);
      const response = await handler(request);
      expect(response.status).toBe(400);
      expect(reported).toEqual([]);
    });

    it("answers malformed JSON with 400 and -32700", async () => {
      await expectError(await post(handle.url, '{"jsonrpc":', baseHeaders("tools/list")), 400, -32700);
    });

    it("answers an invalid JSON-RPC message with 400 and -32600, echoing its id", async () => {
      const body = await expectError(
        await post(handle.url, { jsonrpc: "1.0", id: 34, method: "tools/list" }, baseHeaders("tools/list")),
        400,
        -32600,
      );
      expect(body.id).toBe(34);
    });

    it("refuses a batch with 400", async () => {
      const body = await expectError(
        await post(handle.url, [rpc(35, "tools/list")], baseHeaders("tools/list")),
        400,
        -32600,
      );
      expect(body.error.message).toContain("batch requests are not supported");
    });

    it("refuses a JSON-RPC response posted by a client with 400 and -32600", async () => {
      const body = await expectError(
        await post(handle.url, { jsonrpc: "2.0", id: 36, result: {} }, baseHeaders("tools/list")),
        400,
        -32600,
      );
      expect(body.id).toBe(36);
    });
  });

  describe("notifications", () => {
    it("are dispatched and answered 202 with an empty body", async () => {
      const dispatched = fixture.nextCall();
      const response = await post(
        handle.url,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        baseHeaders("notifications/initialized"),
      );
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
      expect((await dispatched).message.method).toBe("notifications/initialized");
    });
  });

  describe("SSE responses", () => {
    const progressRequest = rpc(
      40,
      "tools/call",
      { name: "progress", _meta: { ...META, progressToken: "p1" } },
      null,
    );

    it("stream the progress notifications before the result when the handler sends any", async () => {
      const response = await post(handle.url, progressRequest, callHeaders("progress"));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(response.headers.get("cache-control")).toBe("no-cache");
      expect(response.headers.get("x-accel-buffering")).toBe("no");
      const events = await new SseReader(response).rest();
      expect(events.map((event) => event.event)).toEqual(["message", "message", "message"]);
      const messages = events.map((event) => JSON.parse(event.data));
      expect(messages[0]).toEqual({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "p1", progress: 1, total: 2 },
      });
      expect(messages[1].params.progress).toBe(2);
      expect(messages[2].id).toBe(40);
      expect(messages[2].result.content).toEqual([{ type: "text", text: "done" }]);
    });

    it("fall back to JSON, dropping notifications, when Accept lacks text/event-stream", async () => {
      const headers = { ...callHeaders("progress"), Accept: "application/json" };
      const response = await post(handle.url, progressRequest, headers);
      expect(response.status).toBe(200);
      const body = await jsonOf(response);
      expect((body.result as { content: unknown }).content).toEqual([{ type: "text", text: "done" }]);
    });

    it("end with the error response as the last event when the handler fails after notifying", async () => {
      const server = newFixture();
      const failing: Dispatcher = {
        async handle(message, env) {
          env.notify?.({
            jsonrpc: "2.0",
            method: "notifications/progress",
            params: { progressToken: 1, progress: 1 },
          });
          return server.server.handle({ ...message, method: "nope/nothing" }, env);
        },
      };
      const other = await start(failing);
      try {
        const response = await post(other.url, rpc(41, "tools/list"), baseHeaders("tools/list"));
        expect(response.status).toBe(200);
        const messages = (await new SseReader(response).rest()).map((event) => JSON.parse(event.data));
        expect(messages).toHaveLength(2);
        expect(messages[1]).toMatchObject({ id: 41, error: { code: -32601 } });
      } finally {
        await other.close();
      }
    });

    it("abort the handler's signal when the client closes the stream", async () => {
      const request = rpc(42, "tools/call", { name: "wait", _meta: { ...META, progressToken: 7 } }, null);
      const response = await post(handle.url, request, callHeaders("wait"));
      const reader = new SseReader(response);
      expect((await reader.nextMessage()).method).toBe("notifications/progress");
      await reader.cancel();
      await fixture.waitAborted.promise;
      expect(fixture.calls[0]?.env.signal.aborted).toBe(true);
    });

    it("abort the handler's signal when the client disconnects while waiting for JSON", async () => {
      const controller = new AbortController();
      const request = rpc(43, "tools/call", { name: "wait" });
      const pending = post(handle.url, request, callHeaders("wait"), controller.signal).catch(
        (error: unknown) => error,
      );
      await fixture.waitStarted.promise;
      controller.abort();
      await pending;
      await fixture.waitAborted.promise;
      expect(fixture.calls[0]?.env.signal.aborted).toBe(true);
    });
  });

  describe("subscriptions/listen", () => {
    const listen = rpc(50, "subscriptions/listen", { notifications: { toolsListChanged: true } });

    it("acknowledges first, delivers list changes, and ends the subscription when the client closes", async () => {
      const dispatched = fixture.nextCall();
      const response = await post(handle.url, listen, baseHeaders("subscriptions/listen"));
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const reader = new SseReader(response);
      const ack = await reader.nextMessage();
      expect(ack).toEqual({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { toolsListChanged: true },
          _meta: { "io.modelcontextprotocol/subscriptionId": 50 },
        },
      });
      fixture.server.notifyListChanged("tools");
      expect(await reader.nextMessage()).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { "io.modelcontextprotocol/subscriptionId": 50 } },
      });
      const call = await dispatched;
      await reader.cancel();
      await call.result;
      expect(call.env.signal.aborted).toBe(true);
    });

    it("sends the final result and closes when the server ends the subscription", async () => {
      const response = await post(handle.url, listen, baseHeaders("subscriptions/listen"));
      const reader = new SseReader(response);
      await reader.nextMessage();
      fixture.server.close();
      const rest = (await reader.rest()).map((event) => JSON.parse(event.data));
      expect(rest).toHaveLength(1);
      expect(rest[0]).toMatchObject({
        jsonrpc: "2.0",
        id: 50,
        result: { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": 50 } },
      });
      expect(reader.ended).toBe(true);
    });

    it("keeps a quiet stream alive with comment lines", async () => {
      const quick = await start(fixture.dispatcher, { keepAliveMs: 10 });
      try {
        const reader = new SseReader(await post(quick.url, listen, baseHeaders("subscriptions/listen")));
        await reader.nextMessage();
        expect(await reader.nextComment()).toBe("keep-alive");
        await reader.cancel();
      } finally {
        await quick.close();
      }
    });

    it("is refused with 406 when Accept lacks text/event-stream, keeping the request id", async () => {
      const headers = { ...baseHeaders("subscriptions/listen"), Accept: "application/json" };
      const body = await expectError(await post(handle.url, listen, headers), 406, -32600);
      expect(body.id).toBe(50);
      expect(fixture.calls).toHaveLength(0);
    });
  });
});

/** A logger that records its `warn` lines into `lines`. */
function warnings(lines: { message: string; fields: unknown }[]) {
  const logger = {
    error: () => {},
    warn: (message: string, fields?: unknown) => lines.push({ message, fields }),
  };
  return logger;
}

describe("createHttpHandler", () => {
  let fixture: Fixture;
  beforeEach(() => {
    fixture = newFixture();
  });

  it("pins its defaults", () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(4 * 1024 * 1024);
    expect(DEFAULT_KEEP_ALIVE_MS).toBe(15_000);
    expect(DEFAULT_ALLOWED_HOSTS).toEqual(["localhost", "127.0.0.1", "[::1]"]);
  });

  it.each([
    [{ maxBodyBytes: 0 }, RangeError],
    [{ maxBodyBytes: 1.5 }, RangeError],
    [{ keepAliveMs: -1 }, RangeError],
    [{ keepAliveMs: 2 ** 31 }, RangeError],
    [{ allowedHosts: ["localhost:3000"] }, TypeError],
    [{ allowedHosts: ["http://localhost"] }, TypeError],
    [{ allowedOrigins: ["https://app.example.com/path"] }, TypeError],
    [{ allowedOrigins: ["app.example.com"] }, TypeError],
  ])("refuses the options %j at construction", (options, errorClass) => {
    expect(() => createHttpHandler(fixture.dispatcher, options)).toThrow(errorClass);
  });

  it("names allowedHosts in a refusal, logs the refused Host with warn, and never echoes it", async () => {
    const lines: { message: string; fields: unknown }[] = [];
    const handler = createHttpHandler(fixture.dispatcher, {
      allowedHosts: ["notes.example.com"],
      logger: warnings(lines),
    });
    const long = `evil-${"x".repeat(300)}.example.com`;
    for (const host of ["127.0.0.1:3000", long]) {
      const response = await handler(
        new Request(`http://${host}/mcp`, {
          method: "POST",
          headers: baseHeaders("server/discover"),
          body: JSON.stringify(rpc(1, "server/discover")),
        }),
      );
      expect(response.status).toBe(403);
      const text = await response.text();
      expect(JSON.parse(text).error.message).toBe("Forbidden: Host not allowed (see allowedHosts)");
      expect(text).not.toContain("evil");
    }
    expect(lines.map((line) => line.message)).toEqual([
      "Streamable HTTP refused a request: Host not allowed (see allowedHosts)",
      "Streamable HTTP refused a request: Host not allowed (see allowedHosts)",
    ]);
    expect(lines[0]?.fields).toEqual({ host: "127.0.0.1:3000" });
    expect(lines[1]?.fields).toEqual({ host: `${long.slice(0, 200)}…` });
  });

  it("logs a refused Origin with warn, naming allowedOrigins", async () => {
    const lines: { message: string; fields: unknown }[] = [];
    const handler = createHttpHandler(fixture.dispatcher, {
      logger: warnings(lines),
    });
    const response = await handler(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { ...baseHeaders("server/discover"), Origin: "http://evil.example.com" },
        body: JSON.stringify(rpc(1, "server/discover")),
      }),
    );
    expect(response.status).toBe(403);
    expect(lines).toEqual([
      {
        message: "Streamable HTTP refused a request: Origin not allowed (see allowedOrigins)",
        fields: { origin: "http://evil.example.com" },
      },
    ]);
  });

  it("refuses something that is not a dispatcher", () => {
    expect(() => createHttpHandler({} as Dispatcher)).toThrow(TypeError);
  });

  it("does not mutate the options it is given", () => {
    const options = Object.freeze({ allowedHosts: Object.freeze(["::1", "Example.COM"]) });
    expect(() => createHttpHandler(fixture.dispatcher, options)).not.toThrow();
  });

  it("accepts configured hosts on any port and refuses the loopback defaults then", async () => {
    const logger = recordingLogger();
    const handler = createHttpHandler(fixture.dispatcher, { allowedHosts: ["mcp.example.com"], logger });
    const request = (host: string) =>
      new Request("http://mcp.example.com/mcp", {
        method: "POST",
        headers: { ...baseHeaders("server/discover"), Host: host },
        body: JSON.stringify(rpc(60, "server/discover")),
      });
    expect((await handler(request("MCP.example.com:8443"))).status).toBe(200);
    expect((await handler(request("localhost"))).status).toBe(403);
    expect(logger.records.map(({ message, fields }) => [message, fields])).toEqual([
      ["Streamable HTTP refused a request: Host not allowed (see allowedHosts)", { host: "localhost" }],
    ]);
  });

  it("checks Origin against an explicit list", async () => {
    const logger = recordingLogger();
    const handler = createHttpHandler(fixture.dispatcher, {
      allowedOrigins: ["https://app.example.com"],
      logger,
    });
    const request = (origin: string) =>
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: { ...baseHeaders("server/discover"), Origin: origin },
        body: JSON.stringify(rpc(61, "server/discover")),
      });
    expect((await handler(request("https://app.example.com"))).status).toBe(200);
    expect((await handler(request("http://localhost"))).status).toBe(403);
    expect((await handler(request("null"))).status).toBe(403);
    const refused = "Streamable HTTP refused a request: Origin not allowed (see allowedOrigins)";
    expect(logger.records.map(({ message, fields }) => [message, fields])).toEqual([
      [refused, { origin: "http://localhost" }],
      [refused, { origin: "null" }],
    ]);
  });

  it("answers 500 with a bare -32603 when the dispatcher breaks its contract, reporting the cause", async () => {
    const reported: unknown[] = [];
    const broken: Dispatcher = {
      handle: () => Promise.reject(new Error("internal detail")),
    };
    const handler = createHttpHandler(broken, {
      logger: { error: (_message, fields) => reported.push(fields?.error) },
    });
    const response = await handler(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: baseHeaders("tools/list"),
        body: JSON.stringify(rpc(62, "tools/list")),
      }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 62,
      error: { code: -32603, message: "Internal error" },
    });
    expect(reported).toEqual([new Error("internal detail")]);
  });
});
