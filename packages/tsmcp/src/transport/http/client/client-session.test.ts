/**
 * `HttpClientTransport` on a 2025-era session, driven directly (initialize, then
 * `setProtocolEra`), against a tsmcp `MCPServer` served with `serve` on 127.0.0.1 in session mode:
 * the session headers, server requests over the POST stream and the GET stream answered through
 * `onRequest`, the GET stream's notifications, resumption after the server closes a stream, 404 as
 * `SessionExpiredError`, and DELETE on close.
 */
import type { IncomingMessage, RequestOptions } from "node:http";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { McpError } from "../../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { SessionExpiredError } from "../../transport.js";
import { type HttpServerHandle, serve } from "../node/node.js";
import { HttpClientTransport } from "./client.js";

const CAPABILITIES = { elicitation: { form: {} }, roots: {} };

function request(id: number | string, method: string, params?: Record<string, unknown>): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
}

/** The 2025-era handshake, driven on the transport as a session would. */
async function initialize(
  transport: HttpClientTransport,
  id: number | string = "init",
): Promise<JSONRPCResponse> {
  const response = await transport.request(
    request(id, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: CAPABILITIES,
      clientInfo: { name: "raw", version: "1" },
    }),
  );
  if (!("result" in response)) throw new Error(`initialize failed: ${JSON.stringify(response)}`);
  transport.setProtocolEra({ kind: "legacy", protocolVersion: String(response.result.protocolVersion) });
  await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
  return response;
}

function textOf(response: JSONRPCResponse): string {
  if (!("result" in response)) throw new Error(`error response: ${JSON.stringify(response)}`);
  const content = response.result.content as { text: string }[];
  return content.map((part) => part.text).join("");
}

/** Resolves with the first value `take` returns for a notification the transport receives. */
function nextNotification(transport: HttpClientTransport, method: string): Promise<JSONRPCNotification> {
  return new Promise((resolve) => {
    const previous = transport.onNotification;
    transport.onNotification = (notification) => {
      previous?.(notification);
      if (notification.method === method) resolve(notification);
    };
  });
}

/** Records every request the server receives (method, headers), through the sender used. */
interface Seen {
  method: string;
  sessionId: string | null;
  protocolVersion: string | null;
  lastEventId: string | null;
  body: unknown;
}

function recordingFetch(seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    seen.push({
      method: init?.method ?? "GET",
      sessionId: headers.get("mcp-session-id"),
      protocolVersion: headers.get("mcp-protocol-version"),
      lastEventId: headers.get("last-event-id"),
      body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined,
    });
    return fetch(input, init);
  };
}

/**
 * Records the same through `node:http`'s `request`, which the default sender calls on Node.js
 * (installed before the transport is built, which takes `request` then); returns the undo.
 */
function recordingNodeHttp(seen: Seen[]): () => void {
  const http = process.getBuiltinModule("node:http");
  const original = http.request;
  const spy = vi.spyOn(http, "request").mockImplementation(((
    options: RequestOptions,
    callback?: (response: IncomingMessage) => void,
  ) => {
    const headers = (options.headers ?? {}) as Record<string, string>;
    const entry: Seen = {
      method: options.method ?? "GET",
      sessionId: headers["mcp-session-id"] ?? null,
      protocolVersion: headers["mcp-protocol-version"] ?? null,
      lastEventId: headers["last-event-id"] ?? null,
      body: undefined,
    };
    seen.push(entry);
    const request = original(options, callback);
    const end = request.end.bind(request);
    request.end = ((chunk?: unknown) => {
      if (typeof chunk === "string") entry.body = JSON.parse(chunk);
      return end(chunk as string);
    }) as typeof request.end;
    return request;
  }) as typeof http.request);
  return () => spy.mockRestore();
}

/** The two ways a transport sends: given a `fetch`, or by default (`node:http` on Node.js). */
const SENDERS = [
  {
    sender: "a given fetch",
    create: (url: URL, seen: Seen[]) =>
      new HttpClientTransport(url, { fetch: recordingFetch(seen), reconnectDelayMs: 50 }),
  },
  {
    sender: "the default node:http sender",
    create: (url: URL, seen: Seen[]) => {
      const undo = recordingNodeHttp(seen);
      onTestFinished(undo);
      return new HttpClientTransport(url, { reconnectDelayMs: 50 });
    },
  },
] as const;

interface Hooks {
  release: () => void;
  cancelled: (reason: unknown) => void;
}

function createServer(): { mcp: MCPServer; released: Hooks } {
  const mcp = new MCPServer("session-peer", {
    version: "1.0.0",
    requestStateSecurity: testRequestStateSecurity(),
  });
  const released: Hooks = { release: () => {}, cancelled: () => {} };
  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => `echo: ${text}`);
  mcp.tool("ask", { inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return answer.action === "accept"
      ? `hello ${String(answer.content?.name)}`
      : `declined: ${answer.action}`;
  });
  mcp.tool("poll", { inputSchema: z.object({}) }, async (_args, ctx) => {
    ctx.sendProgress({ progress: 1 });
    ctx.closeSseStream();
    await new Promise<void>((resolve) => {
      released.release = resolve;
    });
    ctx.sendProgress({ progress: 2 });
    return "after the reconnection";
  });
  mcp.tool("wait", { inputSchema: z.object({}) }, async (_args, ctx) => {
    ctx.sendProgress({ progress: 0 });
    const reason = await new Promise<unknown>((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason), { once: true });
    });
    released.cancelled(reason);
    return "cancelled";
  });
  mcp.tool("roots", { inputSchema: z.object({}) }, async (_args, ctx) => {
    try {
      const { roots } = await ctx.listRoots();
      return roots.map((root) => root.uri).join(",");
    } catch (error) {
      return `error ${(error as McpError).code}: ${(error as Error).message}`;
    }
  });
  return { mcp, released };
}

describe.each(SENDERS)(
  "HttpClientTransport on a 2025-era session against a tsmcp server, through $sender",
  ({ create }) => {
    let handle: HttpServerHandle;
    let server: ReturnType<typeof createServer>;
    let seen: Seen[];
    let transport: HttpClientTransport;

    beforeEach(async () => {
      server = createServer();
      handle = await serve(server.mcp, { keepAliveMs: 0, retryMs: 50 });
      seen = [];
      transport = create(handle.url, seen);
    });

    afterEach(async () => {
      await transport.close();
      await handle.close();
    });

    it("keeps the initialize response's Mcp-Session-Id and sends it with MCP-Protocol-Version on every later request", async () => {
      const init = await initialize(transport);
      expect(init).toMatchObject({
        result: { protocolVersion: "2025-11-25", serverInfo: { name: "session-peer" } },
      });
      const sessionId = transport.sessionId as string;
      expect(sessionId).toMatch(/^[\x21-\x7e]{16,}$/);
      expect(
        textOf(
          await transport.request(request(2, "tools/call", { name: "echo", arguments: { text: "hi" } })),
        ),
      ).toBe("echo: hi");
      const posts = seen.filter((entry) => entry.method === "POST");
      expect(posts[0]).toMatchObject({ sessionId: null, protocolVersion: null });
      expect(posts.slice(1).map((entry) => [entry.sessionId, entry.protocolVersion])).toEqual([
        [sessionId, "2025-11-25"],
        [sessionId, "2025-11-25"],
      ]);
    });

    it("answers an elicitation the server sends on the POST stream through onRequest, and POSTs the answer back", async () => {
      await initialize(transport);
      const asked: JSONRPCRequest[] = [];
      transport.onRequest = async (incoming) => {
        asked.push(incoming);
        return { action: "accept", content: { name: "Ada" } };
      };
      const response = await transport.request(request(3, "tools/call", { name: "ask", arguments: {} }));
      expect(textOf(response)).toBe("hello Ada");
      expect(asked.map((entry) => entry.method)).toEqual(["elicitation/create"]);
      expect(asked[0]?.params).toMatchObject({ message: "Your name?" });
      const answer = seen.find((entry) => (entry.body as { result?: unknown })?.result !== undefined);
      expect(answer).toMatchObject({
        method: "POST",
        sessionId: transport.sessionId,
        body: { jsonrpc: "2.0", id: asked[0]?.id, result: { action: "accept", content: { name: "Ada" } } },
      });
    });

    it("sends the McpError a handler throws back as the JSON-RPC error, and -32601 when nothing answers", async () => {
      await initialize(transport);
      transport.onRequest = async () => {
        throw new McpError(-32602, "no roots today", { why: "test" });
      };
      expect(
        textOf(await transport.request(request(4, "tools/call", { name: "roots", arguments: {} }))),
      ).toBe("error -32602: no roots today");
      transport.onRequest = undefined;
      expect(
        textOf(await transport.request(request(5, "tools/call", { name: "roots", arguments: {} }))),
      ).toBe("error -32601: Method not found: roots/list");
    });

    it("opens the GET stream after the handshake and delivers the server's list_changed on it", async () => {
      await initialize(transport);
      const changed = nextNotification(transport, "notifications/tools/list_changed");
      server.mcp.tool("late", { inputSchema: z.object({}) }, () => "late");
      expect(await changed).toMatchObject({ method: "notifications/tools/list_changed" });
      const get = seen.find((entry) => entry.method === "GET");
      expect(get).toMatchObject({ sessionId: transport.sessionId, protocolVersion: "2025-11-25" });
    });

    it("resumes a POST stream the server closed with GET and Last-Event-ID, getting the rest and the response", async () => {
      await initialize(transport);
      const progress: unknown[] = [];
      const pending = transport.request(
        request(6, "tools/call", { name: "poll", arguments: {}, _meta: { progressToken: "p" } }),
        { onNotification: (notification) => progress.push(notification.params?.progress) },
      );
      await expect
        .poll(() => seen.some((entry) => entry.method === "GET" && entry.lastEventId !== null))
        .toBe(true);
      server.released.release();
      expect(textOf(await pending)).toBe("after the reconnection");
      expect(progress).toEqual([1, 2]);
      const resumed = seen.find((entry) => entry.method === "GET" && entry.lastEventId !== null);
      expect(resumed).toMatchObject({ sessionId: transport.sessionId, protocolVersion: "2025-11-25" });
    });

    it("sends notifications/cancelled when the caller aborts, which aborts the server's handler", async () => {
      await initialize(transport);
      const cancelled = new Promise<unknown>((resolve) => {
        server.released.cancelled = resolve;
      });
      const controller = new AbortController();
      const pending = transport.request(
        request(10, "tools/call", { name: "wait", arguments: {}, _meta: { progressToken: "w" } }),
        { signal: controller.signal, onNotification: () => controller.abort(new Error("user gave up")) },
      );
      await expect(pending).rejects.toThrow("user gave up");
      expect(String(await cancelled)).toContain("user gave up");
      expect(seen.at(-1)).toMatchObject({
        method: "POST",
        sessionId: transport.sessionId,
        body: { method: "notifications/cancelled", params: { requestId: 10, reason: "user gave up" } },
      });
    });

    it("rejects with SessionExpiredError on the 404 that follows the session's DELETE, and initializes anew without the old id", async () => {
      await initialize(transport);
      const old = transport.sessionId as string;
      const deleted = await fetch(handle.url, {
        method: "DELETE",
        headers: { "Mcp-Session-Id": old, "MCP-Protocol-Version": "2025-11-25" },
      });
      expect(deleted.status).toBe(204);
      const failure = await transport.request(request(7, "tools/list")).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(SessionExpiredError);
      expect((failure as SessionExpiredError).httpStatus).toBe(404);
      expect(transport.sessionId).toBeUndefined();
      await initialize(transport, "again");
      expect(transport.sessionId).not.toBe(old);
      expect(seen.filter((entry) => entry.method === "POST").at(-2)).toMatchObject({
        sessionId: null,
        body: { method: "initialize" },
      });
      expect(await transport.request(request(8, "tools/list"))).toMatchObject({ id: 8, result: {} });
    });

    it("sends DELETE with the session id on close, and the server forgets the session", async () => {
      await initialize(transport);
      const sessionId = transport.sessionId as string;
      await transport.close();
      expect(seen.at(-1)).toMatchObject({ method: "DELETE", sessionId, protocolVersion: "2025-11-25" });
      const after = await fetch(handle.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Session-Id": sessionId,
        },
        body: JSON.stringify(request(9, "tools/list")),
      });
      expect(after.status).toBe(404);
    });
  },
);

describe("HttpClientTransport when a session is evicted", () => {
  it("rejects with SessionExpiredError after the server evicts the session for a newer one", async () => {
    const { mcp } = createServer();
    const handle = await serve(mcp, { keepAliveMs: 0, maxSessions: 1 });
    onTestFinished(() => handle.close());
    const first = new HttpClientTransport(handle.url);
    const second = new HttpClientTransport(handle.url);
    onTestFinished(() => first.close());
    onTestFinished(() => second.close());
    await initialize(first);
    await initialize(second);
    await expect(first.request(request(1, "tools/list"))).rejects.toBeInstanceOf(SessionExpiredError);
    expect(await second.request(request(1, "tools/list"))).toMatchObject({ id: 1, result: {} });
  });
});
