/**
 * `HttpClientTransport` reconnecting to a hostile 2025-era server over real HTTP (a small
 * `node:http` server on 127.0.0.1): a server that answers each GET with a priming event only
 * (`retry: 0`) and closes, one whose `retry:` would overflow a timer, a healthy one that keeps
 * delivering, and the abort listeners a long run of reconnections leaves behind.
 */
import { EventEmitter, getEventListeners, once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { JSONRPCRequest } from "../../../protocol/jsonrpc.js";
import { HttpClientTransport } from "./client.js";
import { fetchAnswer } from "./fetch-sender.js";
import { MAX_SERVER_RETRY_MS, MIN_SERVER_RETRY_MS, reconnectDelay } from "./reconnect.js";
import { readRequestStream } from "./request-stream.js";

const SSE = { "Content-Type": "text/event-stream" };
const CHANGED = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';

/** Told of every GET the hostile server serves and every error or notification a test records. */
const changes = new EventEmitter();

/** Resolves once `condition` holds, checked now and at each change. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await once(changes, "change");
}

function request(id: number, method: string): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method };
}

/** A server answering `initialize` with a session, and each GET with `onGet`; GET times are kept. */
async function hostile(onGet: (n: number, req: IncomingMessage, res: ServerResponse) => void) {
  const gets: number[] = [];
  const server = createServer((req, res) => {
    if (req.method === "GET") {
      gets.push(performance.now());
      onGet(gets.length, req, res);
      changes.emit("change");
      return;
    }
    if (req.method === "DELETE") {
      res.writeHead(405).end();
      return;
    }
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const message = JSON.parse(body) as { id?: number; method?: string };
      if (message.method === "initialize") {
        res.writeHead(200, { "Content-Type": "application/json", "Mcp-Session-Id": "s-1" });
        res.end(
          JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-11-25" } }),
        );
        return;
      }
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, gets };
}

/** Collects the process warnings of one test. */
function warnings(): Error[] {
  const seen: Error[] = [];
  const listener = (warning: Error) => seen.push(warning);
  process.on("warning", listener);
  onTestFinished(() => {
    process.off("warning", listener);
  });
  return seen;
}

/**
 * Records the delay of every timer set from now on (through `setTimeout`, fake or real), telling
 * `changes` of each.
 */
function timerDelays(): number[] {
  const delays: number[] = [];
  const setTimer = globalThis.setTimeout;
  const spy = vi.spyOn(globalThis, "setTimeout").mockImplementation(((handler: () => void, ms?: number) => {
    const timer = setTimer(handler, ms);
    delays.push(ms ?? 0);
    changes.emit("change");
    return timer;
  }) as typeof setTimeout);
  onTestFinished(() => spy.mockRestore());
  return delays;
}

async function legacyTransport(url: string, maxReconnectAttempts: number): Promise<HttpClientTransport> {
  const transport = new HttpClientTransport(url, { maxReconnectAttempts, reconnectDelayMs: 60_000 });
  onTestFinished(() => transport.close());
  await transport.request(request(0, "initialize"));
  transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
  return transport;
}

describe("HttpClientTransport against a hostile server", () => {
  it("gives up on a GET stream of priming events with retry: 0 after maxReconnectAttempts, backing off from the minimum", async () => {
    // Fake timers: each reconnection's wait is run as soon as it is set, and none is left after.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const delays = timerDelays();
    const { url, gets } = await hostile((n, _req, res) => {
      res.writeHead(200, SSE).end(`id: p${n}\nretry: 0\ndata: \n\n`);
    });
    const transport = await legacyTransport(url, 3);
    const errors: Error[] = [];
    transport.onError = (error) => {
      errors.push(error);
      changes.emit("change");
    };
    const gaveUp = () => errors.some((error) => error.message.includes("could not be reopened"));
    while (!gaveUp()) {
      await until(() => gaveUp() || vi.getTimerCount() > 0);
      if (vi.getTimerCount() > 0) await vi.runOnlyPendingTimersAsync();
    }
    // The first GET, then three reconnections that delivered nothing, each after twice the wait.
    expect(gets).toHaveLength(4);
    expect(delays).toEqual([MIN_SERVER_RETRY_MS, 2 * MIN_SERVER_RETRY_MS, 4 * MIN_SERVER_RETRY_MS]);
    // Nothing is scheduled after giving up: no later GET.
    expect(vi.getTimerCount()).toBe(0);
    expect(errors).toHaveLength(1);
  });

  it("clamps a retry: 1e12 (no TimeoutOverflowWarning, no 1 ms retry)", async () => {
    const seen = warnings();
    const delays = timerDelays();
    const { url, gets } = await hostile((n, _req, res) => {
      res.writeHead(200, SSE).end(`id: p${n}\nretry: 1000000000000\ndata: \n\n`);
    });
    await legacyTransport(url, 3);
    await until(() => delays.length === 1);
    expect(delays).toEqual([MAX_SERVER_RETRY_MS]);
    expect(gets).toHaveLength(1);
    expect(seen.map((warning) => warning.name)).not.toContain("TimeoutOverflowWarning");
    expect(reconnectDelay({ maxAttempts: 1, delayMs: 1 }, { lastEventId: "p1", retryMs: 1e12 }, 3)).toBe(
      MAX_SERVER_RETRY_MS,
    );
  });

  it("keeps reconnecting a healthy stream that delivers messages, gathering no abort listeners", async () => {
    const seen = warnings();
    const { url, gets } = await hostile((n, _req, res) => {
      res.writeHead(200, SSE).end(`id: p${n}\nretry: 0\ndata: \n\nid: m${n}\ndata: ${CHANGED}\n\n`);
    });
    const transport = await legacyTransport(url, 1);
    const errors: Error[] = [];
    transport.onError = (error) => errors.push(error);
    let changed = 0;
    transport.onNotification = () => {
      changed++;
      changes.emit("change");
    };
    // More reconnections than the default listener limit (10) of an event target.
    await until(() => changed >= 12);
    expect(gets.length).toBeGreaterThanOrEqual(12);
    expect(errors).toEqual([]);
    expect(seen.map((warning) => warning.name)).not.toContain("MaxListenersExceededWarning");
  });
});

describe("readRequestStream resuming over real HTTP", () => {
  it("gives up after maxAttempts priming-only resumptions, and leaves no abort listener per resumption", async () => {
    const { url, gets } = await hostile((n, _req, res) => {
      res.writeHead(200, SSE).end(`id: p${n}\nretry: 0\ndata: \n\n`);
    });
    const controller = new AbortController();
    const listeners: number[] = [];
    const first = fetchAnswer(new Response(`id: p0\nretry: 0\ndata: \n\n`));
    const failure = await readRequestStream(first, {
      request: request(1, "tools/call"),
      maxEventBytes: 1024,
      reconnect: { maxAttempts: 3, delayMs: 60_000 },
      signal: controller.signal,
      resumable: () => true,
      resume: async (lastEventId, signal) => {
        listeners.push(getEventListeners(controller.signal, "abort").length);
        const response = await fetch(url, { headers: { "Last-Event-ID": lastEventId }, signal });
        return fetchAnswer(response);
      },
      route: () => {},
    }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      "the SSE stream of request 1 ended without its response and could not be resumed after 3 attempts",
    );
    expect(gets).toHaveLength(3);
    // At most the one listener of the connection being opened, never one per past resumption.
    expect(Math.max(...listeners)).toBeLessThanOrEqual(1);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
