import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { McpError } from "../../../protocol/errors.js";
import type { JSONRPCNotification } from "../../../protocol/jsonrpc.js";
import { Server } from "../../../server/server.js";
import { TransportError } from "../../transport.js";
import { createFixture, type Fixture, META, rpc } from "../http-test-fixtures.js";
import { type HttpServerHandle, serve } from "../node/node.js";
import { DEFAULT_MAX_RESPONSE_BYTES, HttpClientTransport } from "./client.js";

/** The shared fixture around a real low-level `Server`. */
function newFixture(): Fixture {
  return createFixture((options) => new Server("http-fixture", options));
}

let fixture: Fixture;
let handle: HttpServerHandle;
let transport: HttpClientTransport;

beforeEach(async () => {
  fixture = newFixture();
  handle = await serve(fixture.dispatcher);
  transport = new HttpClientTransport(handle.url);
});

afterEach(async () => {
  await transport.close();
  await handle.close();
});

/** A stand-in server: answers every POST with `response`. */
function fetchAnswering(response: () => Response): typeof fetch {
  return async () => response();
}

describe("HttpClientTransport against serve()", () => {
  it("resolves a JSON answer with the response", async () => {
    const response = await transport.request(rpc(1, "tools/list"));
    expect(response).toMatchObject({ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "echo" }] } });
  });

  it("sends the request-metadata headers the server checks, encoding a non-ASCII Mcp-Name", async () => {
    const dispatched = fixture.nextCall();
    const response = await transport.request(rpc(2, "tools/call", { name: "日本語" }));
    expect(response).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "日本語" }] } });
    const headers = (await dispatched).env.headers;
    expect(headers?.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(headers?.get("mcp-method")).toBe("tools/call");
    expect(headers?.get("mcp-name")).toBe("=?base64?5pel5pys6Kqe?=");
    expect(headers?.get("accept")).toBe("application/json, text/event-stream");
  });

  it("mirrors params.uri in Mcp-Name for resources/read", async () => {
    const response = await transport.request(rpc(3, "resources/read", { uri: "test://a b" }));
    expect(response).toMatchObject({ id: 3, result: { contents: [{ uri: "test://a b", text: "hello" }] } });
  });

  it("sends its constructor headers and the per-request headers", async () => {
    const withHeaders = new HttpClientTransport(handle.url, { headers: { Authorization: "Bearer t0ken" } });
    const dispatched = fixture.nextCall();
    await withHeaders.request(rpc(4, "tools/list"), { headers: { "Mcp-Param-Region": "eu" } });
    const headers = (await dispatched).env.headers;
    expect(headers?.get("authorization")).toBe("Bearer t0ken");
    expect(headers?.get("mcp-param-region")).toBe("eu");
    await withHeaders.close();
  });

  it("delivers SSE notifications to the request's onNotification before resolving", async () => {
    const seen: JSONRPCNotification[] = [];
    const request = rpc(5, "tools/call", { name: "progress", _meta: { ...META, progressToken: "p" } }, null);
    const response = await transport.request(request, { onNotification: (n) => seen.push(n) });
    expect(seen.map((n) => n.params?.progress)).toEqual([1, 2]);
    expect(response).toMatchObject({ id: 5, result: { content: [{ type: "text", text: "done" }] } });
  });

  it("delivers SSE notifications to the transport's onNotification when the request has none", async () => {
    const seen: JSONRPCNotification[] = [];
    transport.onNotification = (n) => seen.push(n);
    const request = rpc(6, "tools/call", { name: "progress", _meta: { ...META, progressToken: "p" } }, null);
    await transport.request(request);
    expect(seen).toHaveLength(2);
  });

  it("resolves with the error response a 4xx carries", async () => {
    const response = await transport.request(rpc(7, "tools/call", { name: "missing" }));
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "Unknown tool: missing" },
    });
  });

  it("resolves with the error response of an unknown method (404)", async () => {
    const response = await transport.request(rpc(8, "nope/nothing"));
    expect(response).toMatchObject({ id: 8, error: { code: -32601 } });
  });

  it("rejects with a TransportError carrying the status when a non-2xx has no JSON-RPC body", async () => {
    const wrongPath = new HttpClientTransport(new URL("/elsewhere", handle.url));
    const failure = await wrongPath.request(rpc(9, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).httpStatus).toBe(404);
    await wrongPath.close();
  });

  it("cancels through the signal: the request rejects with its reason and the handler's signal aborts", async () => {
    const controller = new AbortController();
    const request = rpc(10, "tools/call", { name: "wait", _meta: { ...META, progressToken: 1 } }, null);
    const pending = transport.request(request, {
      signal: controller.signal,
      onNotification: () => controller.abort(new Error("user gave up")),
    });
    await expect(pending).rejects.toThrow("user gave up");
    await fixture.waitAborted.promise;
    expect(fixture.calls[0]?.env.signal.aborted).toBe(true);
  });

  it("cancels a request that awaits a JSON answer", async () => {
    const controller = new AbortController();
    const pending = transport.request(rpc(11, "tools/call", { name: "wait" }), { signal: controller.signal });
    await fixture.waitStarted.promise;
    controller.abort(new Error("timeout"));
    await expect(pending).rejects.toThrow("timeout");
    await fixture.waitAborted.promise;
  });

  it("rejects at once with the reason of a signal that is already aborted", async () => {
    const reason = new Error("already");
    await expect(
      transport.request(rpc(12, "tools/list"), { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(fixture.calls).toHaveLength(0);
  });

  it("aborts everything in flight on close, then refuses new requests", async () => {
    const pending = transport.request(rpc(13, "tools/call", { name: "wait" }));
    await fixture.waitStarted.promise;
    await transport.close();
    await expect(pending).rejects.toBeInstanceOf(TransportError);
    await fixture.waitAborted.promise;
    await expect(transport.request(rpc(14, "tools/list"))).rejects.toBeInstanceOf(TransportError);
  });

  it("posts a notification and accepts the 202", async () => {
    const dispatched = fixture.nextCall();
    await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await dispatched).env.headers?.get("mcp-method")).toBe("notifications/initialized");
  });

  it("rejects a notification that is not answered 202", async () => {
    const wrongPath = new HttpClientTransport(new URL("/elsewhere", handle.url));
    const failure = await wrongPath
      .notify({ jsonrpc: "2.0", method: "notifications/initialized" })
      .catch((error: unknown) => error);
    expect((failure as TransportError).httpStatus).toBe(404);
    await wrongPath.close();
  });
});

describe("HttpClientTransport against a misbehaving server", () => {
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  const sse = (text: string) => new Response(text, { headers: { "Content-Type": "text/event-stream" } });

  it("rejects a JSON response to another id", async () => {
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchAnswering(() => json({ jsonrpc: "2.0", id: 999, result: {} })),
    });
    await expect(odd.request(rpc(1, "tools/list"))).rejects.toBeInstanceOf(TransportError);
  });

  it("rejects an SSE stream that ends without the response", async () => {
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchAnswering(() =>
        sse('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n'),
      ),
    });
    await expect(odd.request(rpc(1, "tools/list"))).rejects.toThrow(/ended without the response/);
  });

  it("ignores comments, other event types and other ids on an SSE stream", async () => {
    const seen: JSONRPCNotification[] = [];
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchAnswering(() =>
        sse(
          ": keep-alive\r\n\r\n" +
            'event: other\ndata: {"jsonrpc":"2.0","method":"x"}\n\n' +
            'data: {"jsonrpc":"2.0","id":2,"result":{}}\n\n' +
            'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}\n\n' +
            'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n\n',
        ),
      ),
    });
    const response = await odd.request(rpc(1, "tools/list"), { onNotification: (n) => seen.push(n) });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    expect(seen.map((n) => n.method)).toEqual(["notifications/message"]);
  });

  it("rejects with the McpError of an id-less JSON-RPC error that came with a 403, keeping the status", async () => {
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchAnswering(() =>
        json({ jsonrpc: "2.0", error: { code: -32600, message: "Forbidden" } }, 403),
      ),
    });
    const failure = await odd.request(rpc(1, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: -32600, message: "Forbidden", httpStatus: 403 });
  });

  it("rejects with the McpError of an error body whose id is null, with its data and real status", async () => {
    const supported = { supported: ["2025-11-25", "2025-06-18"], requested: "2026-07-28" };
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchAnswering(() =>
        json(
          {
            jsonrpc: "2.0",
            id: null,
            error: { code: -32000, message: "Bad Request: Unsupported protocol version", data: supported },
          },
          400,
        ),
      ),
    });
    const failure = await odd.request(rpc(1, "server/discover")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({
      code: -32000,
      message: "Bad Request: Unsupported protocol version",
      data: supported,
      httpStatus: 400,
    });
  });

  it("says connection refused in the message, keeping the network error as the cause", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = new HttpClientTransport(`http://127.0.0.1:${port}/mcp`);
    const failure = await refused.request(rpc(1, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toBe(
      `connection refused to http://127.0.0.1:${port}/mcp (ECONNREFUSED)`,
    );
    expect((failure as Error).cause).toBeInstanceOf(Error);
    await refused.close();
  });

  it("rejects a 2xx of another content type, with its status", async () => {
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchAnswering(() => new Response("hello", { headers: { "Content-Type": "text/html" } })),
    });
    const failure = await odd.request(rpc(1, "tools/list")).catch((error: unknown) => error);
    expect((failure as TransportError).httpStatus).toBe(200);
  });

  it("wraps a network failure in a TransportError", async () => {
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: () => Promise.reject(new TypeError("fetch failed")),
    });
    const failure = await odd.request(rpc(1, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).cause).toBeInstanceOf(TypeError);
  });

  it("names the reason a bare 'fetch failed' hides in its cause", async () => {
    const odd = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: () => Promise.reject(new TypeError("fetch failed", { cause: new Error("bad port") })),
    });
    await expect(odd.request(rpc(1, "tools/list"))).rejects.toThrow(
      "HTTP request to http://127.0.0.1:1/mcp failed: fetch failed: bad port",
    );
  });

  it("says the host was not found when DNS fails, keeping the cause", async () => {
    const dnsFailure = Object.assign(new Error("getaddrinfo ENOTFOUND mcp.invalid"), { code: "ENOTFOUND" });
    const odd = new HttpClientTransport("http://mcp.invalid/mcp", {
      fetch: () => Promise.reject(new TypeError("fetch failed", { cause: dnsFailure })),
    });
    const failure = await odd.request(rpc(1, "tools/list")).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      "host not found (DNS lookup failed) for http://mcp.invalid/mcp (ENOTFOUND)",
    );
    expect(((failure as Error).cause as Error).cause).toBe(dnsFailure);
  });
});

/** A real `node:http` server on 127.0.0.1 answering every request with `answer`; closed after the test. */
async function listening(
  answer: Parameters<typeof createServer>[1],
): Promise<{ url: URL; server: NodeServer }> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  server.unref();
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), server };
}

describe("HttpClientTransport against a server that redirects or answers too much", () => {
  it.each([302, 307, 308])(
    "does not follow a %i redirect, so the request and its answers are never resent elsewhere",
    async (status) => {
      const elsewhere: string[] = [];
      const other = await listening((request, response) => {
        elsewhere.push(`${request.method} ${request.headers["x-api-key"]}`);
        response
          .writeHead(200, { "Content-Type": "application/json" })
          .end('{"jsonrpc":"2.0","id":1,"result":{}}');
      });
      const redirecting = await listening((_request, response) => {
        response.writeHead(status, { Location: other.url.href }).end();
      });
      const client = new HttpClientTransport(redirecting.url, { headers: { "X-Api-Key": "KEY123" } });
      const failure = await client.request(rpc(1, "tools/list")).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(TransportError);
      expect((failure as TransportError).httpStatus).toBe(status);
      expect((failure as TransportError).message).toContain(`redirects to ${other.url.href}`);
      expect(elsewhere).toEqual([]);
    },
  );

  it("refuses a JSON body over maxResponseBytes without reading it all", async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
    const big = `{"jsonrpc":"2.0","id":1,"result":{"pad":"${"x".repeat(10_000)}"}}`;
    const { url } = await listening((_request, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      // Chunked (no Content-Length): the limit must hold while streaming, not only on the header.
      response.write(big.slice(0, 5_000));
      response.end(big.slice(5_000));
    });
    const small = new HttpClientTransport(url, { maxResponseBytes: 4_096 });
    await expect(small.request(rpc(1, "tools/list"))).rejects.toThrow(
      /exceeds maxResponseBytes \(4096 bytes\)/,
    );
    const roomy = new HttpClientTransport(url, { maxResponseBytes: 20_000 });
    await expect(roomy.request(rpc(1, "tools/list"))).resolves.toMatchObject({ id: 1 });
  });

  it("refuses an SSE event over maxResponseBytes, while a long stream of small events is fine", async () => {
    const note = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n';
    const { url } = await listening((request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      if (request.headers["x-case"] === "commented") {
        // One event that never ends, growing behind comment lines: the client must stop buffering it.
        response.write(`data: ${"x".repeat(900)}\n: keep-alive\n`.repeat(50));
      } else if (request.headers["x-case"] === "heartbeats") {
        response.end(`${"event: ping\n\n".repeat(1_000)}data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
      } else if (request.headers["x-case"] === "many") {
        response.end(`${note.repeat(200)}data: {"jsonrpc":"2.0","id":1,"result":{}}\n\n`);
      } else {
        response.end(`data: {"jsonrpc":"2.0","id":1,"result":{"pad":"${"x".repeat(10_000)}"}}\n\n`);
      }
    });
    const client = new HttpClientTransport(url, { maxResponseBytes: 4_096 });
    await expect(client.request(rpc(1, "tools/list"))).rejects.toThrow(/SSE event exceeds maxResponseBytes/);
    // Comment lines inside an event do not end it, so they must not reset its size.
    await expect(
      client.request(rpc(1, "tools/list"), { headers: { "X-Case": "commented" } }),
    ).rejects.toThrow(/SSE event exceeds maxResponseBytes/);
    // Events without data (heartbeats) never add up to a too-large event.
    await expect(
      client.request(rpc(1, "tools/list"), { headers: { "X-Case": "heartbeats" } }),
    ).resolves.toMatchObject({ id: 1 });
    await expect(
      client.request(rpc(1, "tools/list"), { headers: { "X-Case": "many" } }),
    ).resolves.toMatchObject({ id: 1 });
  });
});

describe("HttpClientTransport construction", () => {
  it("refuses a URL that is not http(s)", () => {
    expect(() => new HttpClientTransport("ftp://example.com/mcp")).toThrow(TypeError);
    expect(() => new HttpClientTransport("not a url")).toThrow(TypeError);
  });

  it("refuses an invalid header", () => {
    expect(() => new HttpClientTransport("http://localhost/mcp", { headers: { "Bad Header": "x" } })).toThrow(
      TypeError,
    );
  });

  it("refuses a maxResponseBytes that is not a positive integer", () => {
    for (const maxResponseBytes of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => new HttpClientTransport("http://localhost/mcp", { maxResponseBytes })).toThrow(RangeError);
    }
  });

  it("does not mutate the headers it is given", () => {
    const headers = Object.freeze({ Authorization: "Bearer x" });
    expect(() => new HttpClientTransport("http://localhost/mcp", { headers })).not.toThrow();
  });
});
