import { connect, type Socket } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CallToolRequestParams } from "../../../protocol/schema/methods.js";
import { Server } from "../../../server/server.js";
import type { Dispatcher } from "../../dispatcher.js";
import { baseHeaders, deferred, post, rpc, SseReader } from "../http-test-fixtures.js";
import { getStream, initialize, scriptedDispatcher } from "../session/session-test-fixtures.js";
import {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS,
  type HttpServerHandle,
  type ServeOptions,
  serve,
} from "./node.js";

/**
 * A server with a `slow` tool that answers once the test releases it, and a `stubborn` one that
 * answers only when its signal aborts (with the abort reason's message).
 */
function slowServer() {
  const started = deferred<void>();
  const release = deferred<void>();
  const aborted = deferred<unknown>();
  const server = new Server("drain", {
    onListTools: () => ({ tools: [] }),
    onCallTool: async (ctx, params: CallToolRequestParams) => {
      started.resolve();
      if (params.name === "slow") {
        await release.promise;
        return { content: [{ type: "text", text: "finished" }] };
      }
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
      aborted.resolve(ctx.signal.reason);
      return { content: [{ type: "text", text: "aborted" }] };
    },
  });
  return { server, started, release, aborted };
}

async function start(dispatcher: Dispatcher, options: ServeOptions = {}): Promise<HttpServerHandle> {
  const handle = await serve(dispatcher, options);
  onTestFinished(() => handle.close());
  return handle;
}

const call = (url: URL, name: string) =>
  post(url, rpc(1, "tools/call", { name }), { ...baseHeaders("tools/call"), "Mcp-Name": name });

/** A raw connection to `port`, collecting what the server sends until it closes. */
function rawConnection(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, "127.0.0.1");
  let raw = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => {
    raw += chunk;
  });
  socket.on("error", () => {});
  onTestFinished(() => {
    socket.destroy();
  });
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, received: () => raw, closed };
}

describe("serve's graceful close", () => {
  it("pins its defaults", () => {
    expect(DEFAULT_DRAIN_TIMEOUT_MS).toBe(10_000);
    expect(DEFAULT_HEADERS_TIMEOUT_MS).toBe(30_000);
    expect(DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS).toBe(60_000);
    expect(DEFAULT_KEEP_ALIVE_TIMEOUT_MS).toBe(5_000);
    expect(DEFAULT_MAX_CONNECTIONS).toBe(1_000);
    expect(DEFAULT_MAX_HEADER_BYTES).toBe(16_384);
  });

  it("lets an in-flight call finish and answer, while refusing new connections", async () => {
    const { server, started, release } = slowServer();
    const handle = await start(server);
    const answer = call(handle.url, "slow");
    await started.promise;
    const closed = handle.close();
    await expect(call(handle.url, "slow")).rejects.toThrow();
    release.resolve();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toMatchObject({ result: { content: [{ text: "finished" }] } });
    await closed;
  });

  it("aborts a call still running at the drain timeout through its signal, and ends its connection", async () => {
    const { server, started, aborted } = slowServer();
    const handle = await start(server, { drainTimeoutMs: 50 });
    const answer = call(handle.url, "stubborn");
    await started.promise;
    await handle.close();
    expect(String(await aborted.promise)).toMatch(/shutting down/);
    // The handler answered once aborted, within the grace the close gives it: that answer is sent.
    const response = await answer;
    expect(response.status).toBe(200);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toMatchObject({ result: { content: [{ text: "aborted" }] } });
  });

  it("with drainTimeoutMs 0 aborts in-flight calls at once", async () => {
    const { server, started, aborted } = slowServer();
    const handle = await start(server, { drainTimeoutMs: 0 });
    const answer = call(handle.url, "stubborn");
    await started.promise;
    await handle.close();
    expect(String(await aborted.promise)).toMatch(/shutting down/);
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { content: [{ text: "aborted" }] } });
  });

  it("ends a subscriptions/listen stream at once while a call drains", async () => {
    const { server, started, release } = slowServer();
    const handle = await start(server);
    const listen = await post(
      handle.url,
      rpc(7, "subscriptions/listen", { notifications: { toolsListChanged: true } }),
      baseHeaders("subscriptions/listen"),
    );
    const stream = new SseReader(listen);
    await stream.nextMessage();
    const answer = call(handle.url, "slow");
    await started.promise;
    const closed = handle.close();
    const rest = await stream.rest();
    expect(JSON.parse(rest.at(-1)?.data ?? "{}")).toMatchObject({ id: 7 });
    release.resolve();
    expect((await answer).status).toBe(200);
    await closed;
  });

  it("ends a session's GET stream at once, not at the drain deadline", async () => {
    const handle = await start(scriptedDispatcher(), { drainTimeoutMs: 600_000 });
    const sessionId = await initialize(handle.url);
    const get = await getStream(handle.url, sessionId);
    expect(get.status).toBe(200);
    const stream = new SseReader(get);
    await stream.next();
    await handle.close();
    await stream.rest();
    expect(stream.ended).toBe(true);
  });

  it("closes idle keep-alive connections at once", async () => {
    const { server } = slowServer();
    const handle = await start(server, { keepAliveTimeoutMs: 600_000 });
    const connection = rawConnection(handle.port);
    const body = JSON.stringify(rpc(1, "tools/list"));
    const head = Object.entries({ ...baseHeaders("tools/list"), Host: `127.0.0.1:${handle.port}` })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    connection.socket.write(`POST /mcp HTTP/1.1\r\n${head}Content-Length: ${body.length}\r\n\r\n${body}`);
    await new Promise<void>((resolve) => connection.socket.once("data", () => resolve()));
    await handle.close();
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

/** The raw answer carries a JSON-RPC error (-32600) as its JSON body, and closes the connection. */
function expectJsonRpcRefusal(raw: string): void {
  const [head, body] = raw.split("\r\n\r\n", 2) as [string, string];
  expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
  expect(head).toMatch(/\r\nconnection: close/i);
  expect(JSON.parse(body)).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
}

describe("serve's connection limits", () => {
  it("cuts a client that sends its headers too slowly (headersTimeoutMs)", async () => {
    const handle = await start(slowServer().server, { headersTimeoutMs: 100, requestTimeoutMs: 100 });
    const connection = rawConnection(handle.port);
    connection.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n`);
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    expectJsonRpcRefusal(connection.received());
  });

  it("keeps an idle connection for keepAliveTimeoutMs, and says so in Keep-Alive", async () => {
    const announced = await start(slowServer().server, { keepAliveTimeoutMs: 7_000 });
    const response = await post(announced.url, rpc(1, "tools/list"), baseHeaders("tools/list"));
    expect(response.headers.get("keep-alive")).toBe("timeout=7");
    const handle = await start(slowServer().server, { keepAliveTimeoutMs: 50 });
    const connection = rawConnection(handle.port);
    connection.socket.write(`GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\n\r\n`);
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 404 /);
  });

  it("refuses a head larger than maxHeaderBytes with 431", async () => {
    const handle = await start(slowServer().server, { maxHeaderBytes: 1024 });
    const connection = rawConnection(handle.port);
    connection.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${handle.port}\r\nX-Pad: ${"a".repeat(2048)}\r\n\r\n`,
    );
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 431 /);
    expectJsonRpcRefusal(connection.received());
  });

  it("answers bytes that are not HTTP/1.1 with a JSON-RPC 400, not an empty body", async () => {
    const handle = await start(slowServer().server);
    const connection = rawConnection(handle.port);
    connection.socket.write("NOT HTTP AT ALL\r\n\r\n");
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 400 /);
    expectJsonRpcRefusal(connection.received());
  });

  it("drops connections past maxConnections", async () => {
    const handle = await start(slowServer().server, { maxConnections: 1 });
    const first = rawConnection(handle.port);
    await new Promise<void>((resolve) => first.socket.once("connect", () => resolve()));
    const second = rawConnection(handle.port);
    await second.closed;
    expect(second.received()).toBe("");
    expect(first.socket.destroyed).toBe(false);
  });

  it.each([
    [{ drainTimeoutMs: -1 }, RangeError],
    [{ headersTimeoutMs: 0 }, RangeError],
    [{ requestTimeoutMs: 1.5 }, RangeError],
    [{ keepAliveTimeoutMs: 0 }, RangeError],
    [{ maxConnections: 0 }, RangeError],
    [{ maxHeaderBytes: "big" }, TypeError],
    [{ headersTimeoutMs: 2_000, requestTimeoutMs: 1_000 }, RangeError],
  ])("refuses %j before listening", (options, errorClass) => {
    expect(() => serve(slowServer().server, options as ServeOptions)).toThrow(errorClass);
  });
});
