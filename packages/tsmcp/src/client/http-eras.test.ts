/**
 * `Client.connect` over Streamable HTTP on 127.0.0.1 against a tsmcp `MCPServer` served with
 * `serve` (both eras, 2025-era sessions): the probe adopts 2026-07-28; `"legacy"` opens a session
 * whose back-channel reaches the same callbacks; a handshake-only server makes `"auto"` fall back;
 * an expired session is initialized again once; a refused connection says so.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { deferred } from "../protocol/async.js";
import { methodNotFound } from "../protocol/errors.js";
import { errorResponse } from "../protocol/jsonrpc.js";
import type { LoggingMessageNotificationParams } from "../protocol/schema/methods.js";
import { recordingLogger } from "../server/mcp/mcp-test-fixtures.js";
import { MCPServer } from "../server/mcp/server.js";
import type { Dispatcher } from "../transport/dispatcher.js";
import type { HttpClientTransport } from "../transport/http/client/client.js";
import { type HttpServerHandle, serve } from "../transport/http/node/node.js";
import { TransportError } from "../transport/transport.js";
import { Client } from "./client.js";

/** Resolves with the abort reason of the `wait` tool's last call once the server sees it cancelled. */
let waitCancelled: Promise<unknown> | undefined;
/** Resolved when the `wait` tool's handler runs. */
let waitStarted = deferred<void>();

/** What the servers of this file logged: only the warning that their requestState key is process-local. */
let logged = recordingLogger();

function createServer(): MCPServer {
  const mcp = new MCPServer("http-peer", { version: "1.0.0", logger: logged });
  mcp.tool("wait", { inputSchema: z.object({}) }, async (_args, ctx) => {
    waitCancelled = new Promise((resolve) =>
      ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason)),
    );
    waitStarted.resolve();
    await waitCancelled;
    return "cancelled";
  });
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
  mcp.tool("work", { inputSchema: z.object({}) }, async (_args, ctx) => {
    ctx.sendProgress({ progress: 1, total: 2 });
    ctx.log("info", "halfway");
    ctx.sendProgress({ progress: 2, total: 2 });
    return "done";
  });
  return mcp;
}

/**
 * The same server as a handshake-only peer: a 2026-07-28 request (one without a session) gets
 * -32601, which Streamable HTTP sends with HTTP 404.
 */
function handshakeOnly(mcp: MCPServer): Dispatcher {
  return {
    handle: (message, env) =>
      env.session === undefined && "id" in message
        ? Promise.resolve(errorResponse(message.id, methodNotFound(message.method)))
        : mcp.handle(message, env),
  };
}

function textOf(result: { content: unknown[] }): string {
  return (result.content as { text: string }[]).map((part) => part.text).join("");
}

beforeEach(() => {
  logged = recordingLogger();
});

afterEach(() => {
  const unexpected = logged.records.filter(
    ({ level, message }) =>
      (level === "warn" || level === "error") &&
      !message.startsWith("MCPServer: requestState is sealed with a process-local key"),
  );
  expect(unexpected).toEqual([]);
});

describe("Client.connect over Streamable HTTP", () => {
  let handle: HttpServerHandle;
  const clients: Client[] = [];

  beforeEach(async () => {
    waitCancelled = undefined;
    waitStarted = deferred<void>();
    handle = await serve(createServer(), { keepAliveMs: 0 });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await handle.close();
  });

  async function connect(...args: Parameters<typeof Client.connect>): Promise<Client> {
    const client = await Client.connect(...args);
    clients.push(client);
    return client;
  }

  it("auto mode adopts 2026-07-28 from a server that speaks both eras", async () => {
    const client = await connect(handle.url);
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(textOf(await client.callTool("echo", { text: "hi" }))).toBe("echo: hi");
  });

  it("legacy mode opens a session and answers the server's elicitation with the elicitationCallback", async () => {
    const client = await connect(handle.url, {
      protocolVersion: "legacy",
      elicitationCallback: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect((client.session.transport as HttpClientTransport).sessionId).toBeTypeOf("string");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "wait",
      "echo",
      "ask",
      "work",
    ]);
    expect(textOf(await client.callTool("ask"))).toBe("hello Ada");
  });

  it("legacy mode reports progress and, after setLoggingLevel, log messages", async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    const client = await connect(handle.url, { protocolVersion: "legacy", onLog: (m) => logs.push(m) });
    await client.setLoggingLevel("info");
    const progress: number[] = [];
    expect(textOf(await client.callTool("work", {}, { onProgress: (p) => progress.push(p.progress) }))).toBe(
      "done",
    );
    expect(progress).toEqual([1, 2]);
    expect(logs).toEqual([{ level: "info", data: "halfway" }]);
  });

  it("hands a problem outside any request (a progress receiver that throws) to the client's logger", async () => {
    const clientLog = recordingLogger();
    const client = await connect(handle.url, { logger: clientLog });
    const call = client.callTool(
      "work",
      {},
      {
        onProgress: () => {
          throw new Error("the progress bar broke");
        },
      },
    );
    expect(textOf(await call)).toBe("done");
    expect(clientLog.records.map(({ level, message }) => ({ level, message }))).toEqual([
      {
        level: "warn",
        message:
          "the connection to the server had a problem outside any request: a notification handler threw",
      },
      {
        level: "warn",
        message:
          "the connection to the server had a problem outside any request: a notification handler threw",
      },
    ]);
    const error = clientLog.records[0]?.fields?.error as TransportError;
    expect(error).toBeInstanceOf(TransportError);
    expect((error.cause as Error).message).toBe("the progress bar broke");
  });

  it("reports nothing to the client's logger when a client with a 2025-era session closes", async () => {
    const clientLog = recordingLogger();
    const client = await Client.connect(handle.url, {
      protocolVersion: "legacy",
      logger: clientLog,
      elicitationCallback: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    expect(textOf(await client.callTool("ask"))).toBe("hello Ada");
    await client.setLoggingLevel("info");
    expect(textOf(await client.callTool("work"))).toBe("done");
    await client.close();
    expect(clientLog.records).toEqual([]);
  });

  it("legacy mode cancels a call the caller aborts: the server's handler sees its signal abort", async () => {
    const client = await connect(handle.url, { protocolVersion: "legacy" });
    const controller = new AbortController();
    const call = client.callTool("wait", {}, { signal: controller.signal });
    await waitStarted.promise;
    controller.abort(new Error("the user gave up"));
    await expect(call).rejects.toThrow("the user gave up");
    expect(waitCancelled).toBeDefined();
    await expect(waitCancelled).resolves.toBeDefined();
  });

  it("initializes a new session once when the server forgot the old one, and retries the call", async () => {
    const client = await connect(handle.url, { protocolVersion: "legacy" });
    const transport = client.session.transport as HttpClientTransport;
    const first = transport.sessionId as string;
    const deleted = await fetch(handle.url, {
      method: "DELETE",
      headers: { "mcp-session-id": first, "mcp-protocol-version": "2025-11-25" },
    });
    expect(deleted.ok).toBe(true);
    expect(textOf(await client.callTool("echo", { text: "again" }))).toBe("echo: again");
    expect(transport.sessionId).toBeTypeOf("string");
    expect(transport.sessionId).not.toBe(first);
  });
});

describe("Client.connect over Streamable HTTP to a handshake-only server", () => {
  it("auto mode falls back to initialize when the probe is refused with HTTP 404 and -32601", async () => {
    const handle = await serve(handshakeOnly(createServer()), { keepAliveMs: 0 });
    try {
      const client = await Client.connect(handle.url, {
        elicitationCallback: () => ({ action: "accept", content: { name: "Grace" } }),
      });
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(client.era).toBe("legacy");
      expect(textOf(await client.callTool("ask"))).toBe("hello Grace");
      await client.close();
    } finally {
      await handle.close();
    }
  });
});

it("a refused connection is a TransportError that says so, not an era verdict", async () => {
  const handle = await serve(createServer(), { keepAliveMs: 0 });
  const url = handle.url;
  await handle.close();
  const error = await Client.connect(url).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(TransportError);
  expect((error as Error).message).toMatch(/connection refused/i);
});
