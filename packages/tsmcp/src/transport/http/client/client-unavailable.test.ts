import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deferred } from "../../../protocol/async.js";
import { McpError } from "../../../protocol/errors.js";
import type { JSONRPCNotification } from "../../../protocol/jsonrpc.js";
import { TransportError } from "../../transport.js";
import { rpc } from "../http-test-fixtures.js";
import {
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES,
  HttpClientTransport,
  type HttpClientTransportOptions,
} from "./client.js";

/** One request the scripted server received. */
interface Seen {
  readonly method: string;
  readonly body: string;
  readonly headers: IncomingMessage["headers"];
}

type Script = (seen: Seen, index: number, res: ServerResponse) => void;

/** What a state engine that is briefly unreachable makes the server say: an id-less -32603. */
const UNAVAILABLE_BODY = JSON.stringify({
  jsonrpc: "2.0",
  id: null,
  error: { code: -32603, message: "Service Unavailable: the state engine is unreachable" },
});

function unavailable(res: ServerResponse, retryAfter?: string): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (retryAfter !== undefined) headers["retry-after"] = retryAfter;
  res.writeHead(503, headers).end(UNAVAILABLE_BODY);
}

function json(res: ServerResponse, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", ...headers }).end(JSON.stringify(value));
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A `node:http` server on 127.0.0.1 that answers each request as `script` says, and a transport to it. */
async function scripted(
  script: Script,
  options: HttpClientTransportOptions = {},
): Promise<{ seen: Seen[]; transport: HttpClientTransport }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const one = {
        method: req.method ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
        headers: req.headers,
      };
      seen.push(one);
      script(one, seen.length - 1, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const transport = new HttpClientTransport(`http://127.0.0.1:${port}/mcp`, options);
  cleanups.push(async () => {
    await transport.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { seen, transport };
}

/** The error a promise rejects with. */
async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("expected a rejection"),
    (error: unknown) => error,
  );
}

/** Expects the failure a 503 with the id-less body has always surfaced as. */
function expectUnavailable(failure: unknown): void {
  expect(failure).toBeInstanceOf(McpError);
  expect(failure).toMatchObject({
    code: -32603,
    httpStatus: 503,
    message: "Service Unavailable: the state engine is unreachable",
  });
}

describe("HttpClientTransport and 503 Service Unavailable with Retry-After", () => {
  it("sends a request again after Retry-After: 0 until it succeeds, with the same body each time", async () => {
    const { seen, transport } = await scripted((_one, index, res) => {
      if (index < 2) return unavailable(res, "0");
      json(res, { jsonrpc: "2.0", id: 1, result: { tools: [] } });
    });
    const response = await transport.request(rpc(1, "tools/list"));
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect(seen).toHaveLength(3);
    expect(seen.map((one) => one.method)).toEqual(["POST", "POST", "POST"]);
    expect(new Set(seen.map((one) => one.body)).size).toBe(1);
    expect(JSON.parse(seen[0]?.body ?? "")).toMatchObject({ id: 1, method: "tools/list" });
  });

  it("fails at once on a 503 without Retry-After", async () => {
    const { seen, transport } = await scripted((_one, _index, res) => unavailable(res));
    expectUnavailable(await failureOf(transport.request(rpc(2, "tools/list"))));
    expect(seen).toHaveLength(1);
  });

  it("fails at once on a Retry-After longer than maxRetryAfterMs, in seconds or as an HTTP-date", async () => {
    const { seen, transport } = await scripted(
      (_one, index, res) => unavailable(res, index === 0 ? "2" : new Date(Date.now() + 60_000).toUTCString()),
      { maxRetryAfterMs: 1000 },
    );
    expectUnavailable(await failureOf(transport.request(rpc(3, "tools/list"))));
    expect(seen).toHaveLength(1);
    expectUnavailable(await failureOf(transport.request(rpc(4, "tools/list"))));
    expect(seen).toHaveLength(2);
  });

  it("fails at once on a Retry-After that is neither delta-seconds nor an HTTP-date", async () => {
    const { seen, transport } = await scripted((_one, _index, res) => unavailable(res, "soon"));
    expectUnavailable(await failureOf(transport.request(rpc(5, "tools/list"))));
    expect(seen).toHaveLength(1);
  });

  it("retries a Retry-After given as an HTTP-date in the past at once", async () => {
    const { seen, transport } = await scripted((_one, index, res) => {
      if (index === 0) return unavailable(res, "Sun, 06 Nov 1994 08:49:37 GMT");
      json(res, { jsonrpc: "2.0", id: 6, result: {} });
    });
    expect(await transport.request(rpc(6, "ping"))).toEqual({ jsonrpc: "2.0", id: 6, result: {} });
    expect(seen).toHaveLength(2);
  });

  it("surfaces the 503 as before once maxServiceUnavailableRetries re-sends were refused", async () => {
    const { seen, transport } = await scripted((_one, _index, res) => unavailable(res, "0"));
    expectUnavailable(await failureOf(transport.request(rpc(7, "tools/list"))));
    expect(seen).toHaveLength(1 + DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES);
  });

  it("does not retry when maxServiceUnavailableRetries is 0", async () => {
    const { seen, transport } = await scripted((_one, _index, res) => unavailable(res, "0"), {
      maxServiceUnavailableRetries: 0,
    });
    expectUnavailable(await failureOf(transport.request(rpc(8, "tools/list"))));
    expect(seen).toHaveLength(1);
  });

  it("rejects with the signal's reason when the request is aborted during the wait, sending nothing more", async () => {
    const waiting = watchTimer(600_000);
    const { seen, transport } = await scripted((_one, _index, res) => unavailable(res, "600"), {
      maxRetryAfterMs: 600_000,
    });
    const controller = new AbortController();
    const pending = transport.request(rpc(9, "tools/list"), { signal: controller.signal });
    await waiting;
    const reason = new Error("user gave up");
    controller.abort(reason);
    expect(await failureOf(pending)).toBe(reason);
    expect(seen).toHaveLength(1);
  });

  it("rejects with a TransportError when the transport closes during the wait", async () => {
    const waiting = watchTimer(600_000);
    const { seen, transport } = await scripted((_one, _index, res) => unavailable(res, "600"), {
      maxRetryAfterMs: 600_000,
    });
    const pending = transport.request(rpc(10, "tools/list"));
    await waiting;
    await transport.close();
    const failure = await failureOf(pending);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as TransportError).message).toContain("transport closed");
    expect(seen).toHaveLength(1);
  });

  it("sends a notification again after a 503 with Retry-After", async () => {
    const { seen, transport } = await scripted((_one, index, res) => {
      if (index === 0) return unavailable(res, "0");
      res.writeHead(202).end();
    });
    await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.body).toBe(seen[0]?.body);
  });

  it("sends its answer to a server request again after a 503 with Retry-After", async () => {
    const answered = deferred<void>();
    let stream: ServerResponse | undefined;
    const { seen, transport } = await scripted((one, _index, res) => {
      const message = JSON.parse(one.body) as { id?: unknown; method?: string; result?: unknown };
      if (message.method === "tools/call") {
        stream = res;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ jsonrpc: "2.0", id: "s1", method: "roots/list" })}\n\n`);
        return;
      }
      const answers = seen.filter((s) => s.body === one.body);
      if (answers.length === 1) return unavailable(res, "0");
      res.writeHead(202).end();
      stream?.end(
        `data: ${JSON.stringify({ jsonrpc: "2.0", id: 11, result: { content: [], roots: message.result } })}\n\n`,
      );
      answered.resolve();
    });
    const errors: Error[] = [];
    transport.onError = (error) => errors.push(error);
    transport.onRequest = async () => ({ roots: [{ uri: "file:///w" }] });
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
    const response = await transport.request(rpc(11, "tools/call", { name: "ask" }, null));
    await answered.promise;
    expect(response).toMatchObject({ id: 11, result: { roots: { roots: [{ uri: "file:///w" }] } } });
    const posts = seen.slice(1);
    expect(posts).toHaveLength(2);
    expect(JSON.parse(posts[0]?.body ?? "")).toEqual({
      jsonrpc: "2.0",
      id: "s1",
      result: { roots: [{ uri: "file:///w" }] },
    });
    expect(posts[1]?.body).toBe(posts[0]?.body);
    expect(errors).toEqual([]);
  });

  it("opens the GET stream of a 2025-era session after a 503 with Retry-After", async () => {
    const seenNotification = deferred<JSONRPCNotification>();
    const { seen, transport } = await scripted((one, _index, res) => {
      if (one.method === "POST") {
        return json(
          res,
          { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: {} } },
          { "mcp-session-id": "s-1" },
        );
      }
      if (seen.filter((s) => s.method === "GET").length === 1) return unavailable(res, "0");
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" })}\n\n`,
      );
    });
    transport.onNotification = (notification) => seenNotification.resolve(notification);
    await transport.request(rpc(0, "initialize", { protocolVersion: "2025-11-25" }, null));
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
    expect((await seenNotification.promise).method).toBe("notifications/tools/list_changed");
    const gets = seen.filter((one) => one.method === "GET");
    expect(gets).toHaveLength(2);
    expect(gets[1]?.headers["mcp-session-id"]).toBe("s-1");
  });
});

describe("HttpClientTransport 503 retry options", () => {
  it("defaults to 3 re-sends and waits of at most 5000 ms", () => {
    expect(DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES).toBe(3);
    expect(DEFAULT_MAX_RETRY_AFTER_MS).toBe(5000);
  });

  it("refuses a maxServiceUnavailableRetries or maxRetryAfterMs that is not a non-negative integer", () => {
    const url = "http://127.0.0.1/mcp";
    for (const option of ["maxServiceUnavailableRetries", "maxRetryAfterMs"] as const) {
      for (const value of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => new HttpClientTransport(url, { [option]: value })).toThrow(RangeError);
      }
      expect(() => new HttpClientTransport(url, { [option]: "3" as unknown as number })).toThrow(TypeError);
      expect(() => new HttpClientTransport(url, { [option]: 0 })).not.toThrow();
    }
  });
});

/**
 * Resolves once a timer of `ms` milliseconds is set: the transport has started waiting out a
 * `Retry-After` of that length. The timer itself runs as usual.
 */
function watchTimer(ms: number): Promise<void> {
  const set = deferred<void>();
  const original = globalThis.setTimeout;
  vi.spyOn(globalThis, "setTimeout").mockImplementation(((
    callback: (...args: unknown[]) => void,
    delay?: number,
    ...args: unknown[]
  ) => {
    if (delay === ms) set.resolve();
    return original(callback, delay, ...args);
  }) as typeof setTimeout);
  return set.promise;
}
