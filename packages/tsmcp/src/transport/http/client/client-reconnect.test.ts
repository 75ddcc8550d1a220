/**
 * `HttpClientTransport` reconnecting on a 2025-era session, against a scripted `fetch` (a server
 * that misbehaves on purpose): the bounded resumption of a request's stream, the GET stream's
 * reconnection with `Last-Event-ID`, a server without a GET stream (405), and the new options'
 * checks.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest";
import type { JSONRPCRequest } from "../../../protocol/jsonrpc.js";
import { TransportError } from "../../transport.js";
import { HttpClientTransport } from "./client.js";

const SSE = { "Content-Type": "text/event-stream" };

function request(id: number | string, method: string): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method };
}

interface Call {
  method: string;
  headers: Headers;
  body: unknown;
}

/**
 * A scripted server: `initialize` gets a session id, then `answer` decides the rest; every call is
 * recorded.
 */
function scripted(answer: (call: Call, calls: Call[]) => Response): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const fetchImpl: typeof fetch = async (_input, init) => {
    const call: Call = {
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    if ((call.body as { method?: string })?.method === "initialize") {
      return Response.json(
        { jsonrpc: "2.0", id: (call.body as { id: number }).id, result: { protocolVersion: "2025-11-25" } },
        { headers: { "Mcp-Session-Id": "s-1" } },
      );
    }
    if (call.method === "DELETE") return new Response(null, { status: 405 });
    return answer(call, calls);
  };
  return { fetch: fetchImpl, calls };
}

async function legacyTransport(
  fetchImpl: typeof fetch,
  options: { maxReconnectAttempts?: number } = {},
): Promise<HttpClientTransport> {
  const transport = new HttpClientTransport("http://127.0.0.1:1/mcp", {
    fetch: fetchImpl,
    // A minute: only the server's `retry:` makes these tests reconnect in time.
    reconnectDelayMs: 60_000,
    ...options,
  });
  onTestFinished(() => transport.close());
  await transport.request(request(0, "initialize"));
  transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
  return transport;
}

describe("HttpClientTransport resuming a request's stream", () => {
  it("gives up after maxReconnectAttempts failed GETs in a row, saying so", async () => {
    const { fetch: fetchImpl, calls } = scripted((call) => {
      if (call.method === "POST") return new Response("id: e1\nretry: 1\ndata: \n\n", { headers: SSE });
      return new Response("down", { status: 503 });
    });
    const transport = await legacyTransport(fetchImpl, { maxReconnectAttempts: 2 });
    const failure = await transport.request(request(1, "tools/list")).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toBe(
      "the SSE stream of request 1 ended without its response and could not be resumed after 2 attempts",
    );
    expect(((failure as Error).cause as TransportError).httpStatus).toBe(503);
    const resumes = calls.filter((call) => call.method === "GET" && call.headers.has("last-event-id"));
    expect(resumes).toHaveLength(2);
    expect(resumes.map((call) => call.headers.get("last-event-id"))).toEqual(["e1", "e1"]);
  });

  it("does not resume before the era is legacy (the 2026-07-28 path is unchanged)", async () => {
    const transport = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: async () => new Response("id: e1\nretry: 1\ndata: \n\n", { headers: SSE }),
    });
    onTestFinished(() => transport.close());
    await expect(transport.request(request(1, "tools/list"))).rejects.toThrow(
      "the SSE stream ended without the response to request 1",
    );
  });

  it("resumes from the last event id it saw, through several server closes, until the response", async () => {
    const { fetch: fetchImpl, calls } = scripted((call) => {
      if (call.method === "POST") return new Response("id: e1\nretry: 1\ndata: \n\n", { headers: SSE });
      const last = call.headers.get("last-event-id");
      if (last === "e1") {
        return new Response(
          'id: e2\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n',
          { headers: SSE },
        );
      }
      if (last === "e2") {
        return new Response(
          'id: e3\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n\n',
          {
            headers: SSE,
          },
        );
      }
      // The standalone GET stream: nothing to say.
      return new Response(null, { status: 405 });
    });
    const transport = await legacyTransport(fetchImpl);
    const progress: unknown[] = [];
    const response = await transport.request(request(1, "tools/list"), {
      onNotification: (notification) => progress.push(notification.params?.progress),
    });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect(progress).toEqual([1]);
    const resumes = calls.filter((call) => call.headers.has("last-event-id"));
    expect(
      resumes.map((call) => [call.headers.get("last-event-id"), call.headers.get("mcp-session-id")]),
    ).toEqual([
      ["e1", "s-1"],
      ["e2", "s-1"],
    ]);
  });
});

describe("HttpClientTransport's GET stream", () => {
  it("reconnects with Last-Event-ID after the server's retry when the server closes it, and delivers what follows", async () => {
    let gets = 0;
    const { fetch: fetchImpl, calls } = scripted((call) => {
      if (call.method !== "GET") return new Response(null, { status: 202 });
      gets++;
      if (gets === 1) return new Response("id: g1\nretry: 1\ndata: \n\n", { headers: SSE });
      return new Response(
        'id: g2\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n',
        { headers: SSE },
      );
    });
    const transport = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: fetchImpl,
      reconnectDelayMs: 1,
    });
    onTestFinished(() => transport.close());
    const changed = new Promise<string>((resolve) => {
      transport.onNotification = (notification) => resolve(notification.method);
    });
    await transport.request(request(0, "initialize"));
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
    expect(await changed).toBe("notifications/tools/list_changed");
    const getCalls = calls.filter((call) => call.method === "GET");
    expect(getCalls[0]?.headers.get("last-event-id")).toBeNull();
    expect(getCalls[1]?.headers.get("last-event-id")).toBe("g1");
    expect(getCalls[0]?.headers.get("accept")).toBe("text/event-stream");
  });

  it("leaves a server that offers no GET stream (405) alone, reporting nothing", async () => {
    const { fetch: fetchImpl, calls } = scripted((call) =>
      call.method === "GET"
        ? new Response(null, { status: 405 })
        : Response.json({ jsonrpc: "2.0", id: 1, result: {} }),
    );
    // Fake timers: any reconnection the 405 scheduled is run at once below, however long its delay.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const transport = await legacyTransport(fetchImpl);
    const errors: Error[] = [];
    transport.onError = (error) => errors.push(error);
    await transport.request(request(1, "ping"));
    await vi.runAllTimersAsync();
    expect(calls.filter((call) => call.method === "GET")).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it("is not opened at legacy when the server gave no session id", async () => {
    const calls: string[] = [];
    const transport = new HttpClientTransport("http://127.0.0.1:1/mcp", {
      fetch: async (_input, init) => {
        calls.push(init?.method ?? "GET");
        return Response.json({ jsonrpc: "2.0", id: 0, result: {} });
      },
    });
    await transport.request(request(0, "initialize"));
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
    await transport.close();
    expect(calls).toEqual(["POST"]);
  });
});

describe("HttpClientTransport reconnection options", () => {
  it("refuses a maxReconnectAttempts or reconnectDelayMs that is not a non-negative integer", () => {
    for (const value of [-1, 1.5, Number.NaN]) {
      expect(() => new HttpClientTransport("http://localhost/mcp", { maxReconnectAttempts: value })).toThrow(
        RangeError,
      );
      expect(() => new HttpClientTransport("http://localhost/mcp", { reconnectDelayMs: value })).toThrow(
        RangeError,
      );
    }
    expect(() => new HttpClientTransport("http://localhost/mcp", { reconnectDelayMs: "1" as never })).toThrow(
      TypeError,
    );
  });
});
