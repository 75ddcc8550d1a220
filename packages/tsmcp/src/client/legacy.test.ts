/**
 * A `Client` on a 2025-era session with a real `Server` in this process: the handshake, the same
 * API as at 2026-07-28, and the server's back-channel requests answered by the same callbacks the
 * multi-round-trip loop uses.
 */
import { describe, expect, it } from "vitest";
import { McpError } from "../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../protocol/jsonrpc.js";
import type { LoggingMessageNotificationParams } from "../protocol/schema/methods.js";
import { elicitationRequest, inputRequired } from "../server/input-required.js";
import { Server } from "../server/server.js";
import { InMemoryTransport } from "../transport/memory.js";
import {
  type ProtocolEra,
  SessionExpiredError,
  type Transport,
  type TransportRequestOptions,
} from "../transport/transport.js";
import type { InputRequestContext } from "./callbacks.js";
import { Client } from "./client.js";
import { MethodNotInEraError } from "./errors.js";

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

/** A server whose tools reach the client over the 2025-era back-channel. */
function backChannelServer() {
  return new Server("back-channel", {
    capabilities: { tools: {}, logging: {} },
    onListTools: () => ({ tools: [] }),
    onCallTool: async (ctx, params) => {
      switch (params.name) {
        case "ask": {
          const answer = await ctx.elicit({
            message: "Which region?",
            requestedSchema: { type: "object", properties: { region: { type: "string" } } },
          });
          return text(`${answer.action}:${JSON.stringify(answer.content ?? null)}`);
        }
        case "sample": {
          const reply = await ctx.createMessage({
            messages: [{ role: "user", content: { type: "text", text: "hi" } }],
            maxTokens: 10,
          });
          return text(`model said ${(reply.content as { text: string }).text}`);
        }
        case "roots": {
          const { roots } = await ctx.listRoots();
          return text(roots.map((root) => root.uri).join(","));
        }
        case "impatient": {
          const outcome = await ctx
            .elicit(
              { message: "Quick!", requestedSchema: { type: "object", properties: {} } },
              { timeoutMs: 20 },
            )
            .then(
              () => "answered",
              (error: McpError) => `gave up: ${error.code}`,
            );
          return text(outcome);
        }
        case "ping":
          await ctx.ping();
          return text("pong");
        case "work":
          ctx.sendProgress({ progress: 1, total: 2 });
          ctx.log("info", "halfway");
          ctx.sendProgress({ progress: 2, total: 2 });
          return text("done");
        default:
          return text(`echo ${params.name}`);
      }
    },
  });
}

/** An MRTR tool that asks for a region, fulfilled on a 2025-era session over the back-channel. */
function provisioner() {
  const ask = elicitationRequest({
    message: "Which region?",
    requestedSchema: { type: "object", properties: { region: { type: "string" } }, required: ["region"] },
  });
  return new Server("provisioner", {
    legacyInputRequired: "fulfil",
    onCallTool: (_ctx, params) => {
      const answer = params.inputResponses?.region as
        | { action: string; content?: { region?: string } }
        | undefined;
      if (answer?.action !== "accept") return inputRequired({ inputRequests: { region: ask } });
      return text(`Provisioned in ${answer.content?.region}`);
    },
  });
}

describe("a Client on a 2025-era session in memory", () => {
  it("sends requests without the _meta envelope, and reads results without resultType as complete", async () => {
    const seen: JSONRPCRequest[] = [];
    const server = backChannelServer();
    const transport = new InMemoryTransport({
      handle: (message, env) => {
        if ("id" in message) seen.push(structuredClone(message));
        return server.handle(message, env);
      },
    });
    const client = await Client.connect(transport, { protocolVersion: "legacy" });
    const result = await client.callTool("x", { a: 1 });
    expect(result).toEqual(text("echo x"));
    expect(seen.map((request) => request.method)).toEqual(["initialize", "tools/call"]);
    expect(seen[1]?.params).toEqual({ name: "x", arguments: { a: 1 } });
  });

  it("answers the server's elicitation with the same elicitationCallback, naming the call it serves", async () => {
    const contexts: InputRequestContext[] = [];
    const client = await Client.connect(backChannelServer(), {
      protocolVersion: "legacy",
      elicitationCallback: (params, context) => {
        contexts.push(context);
        expect(params.message).toBe("Which region?");
        return { action: "accept", content: { region: "eu" } };
      },
    });
    expect(await client.callTool("ask")).toEqual(text('accept:{"region":"eu"}'));
    expect(contexts).toHaveLength(1);
    expect(contexts[0]).toMatchObject({ era: "legacy", method: "tools/call", target: "ask", round: 1 });
  });

  it("runs one MRTR tool in both eras with one elicitationCallback", async () => {
    const eras: string[] = [];
    const options = {
      elicitationCallback: (_params: unknown, context: InputRequestContext) => {
        eras.push(context.era);
        return { action: "accept" as const, content: { region: "us" } };
      },
    };
    const modern = await Client.connect(provisioner(), options);
    const legacy = await Client.connect(provisioner(), { ...options, protocolVersion: "legacy" });
    expect(await modern.callTool("provision")).toMatchObject(text("Provisioned in us"));
    expect(await legacy.callTool("provision")).toMatchObject(text("Provisioned in us"));
    expect(eras).toEqual(["modern", "legacy"]);
  });

  it("answers sampling and roots with the same callbacks, and ping with an empty result", async () => {
    const client = await Client.connect(backChannelServer(), {
      protocolVersion: "legacy",
      samplingCallback: () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "m" }),
      listRootsCallback: () => ({ roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }),
    });
    expect(await client.callTool("sample")).toEqual(text("model said ok"));
    expect(await client.callTool("roots")).toEqual(text("file:///a,file:///b"));
    expect(await client.callTool("ping")).toEqual(text("pong"));
  });

  it("answers a server request no callback serves with -32601 naming the missing callback, never hanging", async () => {
    const transport = new InMemoryTransport(backChannelServer());
    await Client.connect(transport, { protocolVersion: "legacy" });
    const answer = transport.onRequest?.(
      {
        jsonrpc: "2.0",
        id: 7,
        method: "elicitation/create",
        params: { message: "?", requestedSchema: { type: "object", properties: {} } },
      },
      { signal: new AbortController().signal },
    );
    await expect(answer).rejects.toMatchObject({
      code: -32601,
      message: "Method not found: elicitation/create (this client registered no elicitationCallback)",
    });
    await expect(
      transport.onRequest?.(
        { jsonrpc: "2.0", id: 8, method: "tasks/list" },
        { signal: new AbortController().signal },
      ),
    ).rejects.toMatchObject({ code: -32601 });
  });

  it("answers a request in an undeclared mode with -32602 and a failing callback with -32603", async () => {
    const transport = new InMemoryTransport(backChannelServer());
    await Client.connect(transport, {
      protocolVersion: "legacy",
      capabilities: { elicitation: { form: {} } },
      elicitationCallback: () => {
        throw new Error("the user closed the window");
      },
    });
    const signal = new AbortController().signal;
    await expect(
      transport.onRequest?.(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "elicitation/create",
          params: { mode: "url", message: "go", url: "https://x", elicitationId: "e" },
        },
        { signal },
      ),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      transport.onRequest?.(
        {
          jsonrpc: "2.0",
          id: 2,
          method: "elicitation/create",
          params: { message: "?", requestedSchema: { type: "object", properties: {} } },
        },
        { signal },
      ),
    ).rejects.toMatchObject({
      code: -32603,
      message: "The client's elicitationCallback failed while answering elicitation/create",
    });
  });

  it("aborts the callback's signal when the server stops waiting for its answer", async () => {
    let aborted: unknown;
    const client = await Client.connect(backChannelServer(), {
      protocolVersion: "legacy",
      elicitationCallback: (_params, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener("abort", () => {
            aborted = context.signal.reason;
            resolve({ action: "cancel" });
          });
        }),
    });
    expect(await client.callTool("impatient")).toEqual(text("gave up: -32001"));
    expect(aborted).toMatchObject({ code: -32001 });
  });

  it("passes a callback's McpError back to the server as it is", async () => {
    const client = await Client.connect(backChannelServer(), {
      protocolVersion: "legacy",
      elicitationCallback: () => {
        throw new McpError(-32042, "not now", { retry: false });
      },
    });
    await expect(client.callTool("ask")).rejects.toMatchObject({ code: -32042 });
  });

  it("reports progress to onProgress and log messages to onLog after setLoggingLevel", async () => {
    const logs: LoggingMessageNotificationParams[] = [];
    const client = await Client.connect(backChannelServer(), {
      protocolVersion: "legacy",
      onLog: (message) => logs.push(message),
    });
    await client.setLoggingLevel("info");
    const progress: number[] = [];
    await client.callTool("work", {}, { onProgress: (update) => progress.push(update.progress) });
    expect(progress).toEqual([1, 2]);
    expect(logs).toEqual([{ level: "info", data: "halfway" }]);
  });

  it("refuses server/discover locally, and setLoggingLevel at 2026-07-28", async () => {
    const legacy = await Client.connect(backChannelServer(), { protocolVersion: "legacy" });
    await expect(legacy.discover()).rejects.toThrow(MethodNotInEraError);
    await expect(legacy.discover()).rejects.toThrow(
      /server\/discover does not exist at protocol version 2025-11-25/,
    );
    const modern = await Client.connect(backChannelServer());
    await expect(modern.setLoggingLevel("info")).rejects.toThrow(/pass logLevel with each request instead/);
  });

  it("tells the server the roots changed on a 2025-era session only", async () => {
    const sent: string[] = [];
    const server = backChannelServer();
    const dispatcher = {
      handle: (message: JSONRPCRequest | JSONRPCNotification, env: Parameters<Server["handle"]>[1]) => {
        sent.push(message.method);
        return server.handle(message, env);
      },
    };
    const modern = await Client.connect(dispatcher);
    await modern.notifyRootsChanged();
    expect(sent).toEqual(["server/discover"]);
    sent.length = 0;
    const legacy = await Client.connect(dispatcher, {
      protocolVersion: "legacy",
      listRootsCallback: () => ({ roots: [] }),
    });
    await legacy.notifyRootsChanged();
    expect(sent).toEqual(["initialize", "notifications/initialized", "notifications/roots/list_changed"]);
  });

  it("re-initializes once when the transport says the session expired, then retries the request", async () => {
    const inner = new InMemoryTransport(backChannelServer());
    let expireNext = false;
    const methods: string[] = [];
    const transport: Transport = {
      sendsHttpHeaders: false,
      request(request: JSONRPCRequest, options?: TransportRequestOptions): Promise<JSONRPCResponse> {
        methods.push(request.method);
        if (expireNext && request.method !== "initialize") {
          expireNext = false;
          return Promise.reject(new SessionExpiredError("HTTP 404: session not found", { httpStatus: 404 }));
        }
        return inner.request(request, options);
      },
      notify: (notification) => inner.notify(notification),
      setProtocolEra: (era: ProtocolEra) => inner.setProtocolEra(era),
      close: () => inner.close(),
    };
    const client = await Client.connect(transport, { protocolVersion: "legacy" });
    expireNext = true;
    expect(await client.callTool("x")).toEqual(text("echo x"));
    expect(methods).toEqual(["initialize", "tools/call", "initialize", "tools/call"]);
  });

  it("does not re-initialize in a loop when the new session expires too", async () => {
    const inner = new InMemoryTransport(backChannelServer());
    const methods: string[] = [];
    let live = true;
    const transport: Transport = {
      sendsHttpHeaders: false,
      request(request, options) {
        methods.push(request.method);
        if (!live && request.method !== "initialize") {
          return Promise.reject(new SessionExpiredError("HTTP 404", { httpStatus: 404 }));
        }
        return inner.request(request, options);
      },
      notify: (notification) => inner.notify(notification),
      close: () => inner.close(),
    };
    const client = await Client.connect(transport, { protocolVersion: "legacy" });
    live = false;
    await expect(client.listTools()).rejects.toThrow(SessionExpiredError);
    expect(methods).toEqual(["initialize", "tools/list", "initialize", "tools/list"]);
  });

  it("delivers the server's unsolicited notifications (a list change) to onNotification", async () => {
    const server = new Server("changing", {
      capabilities: { tools: { listChanged: true } },
      onListTools: () => ({ tools: [] }),
    });
    const received: JSONRPCNotification[] = [];
    await Client.connect(server, {
      protocolVersion: "legacy",
      onNotification: (notification) => received.push(notification),
    });
    server.notifyListChanged("tools");
    expect(received).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
  });

  it("reports serverInfo, capabilities and instructions from initialize", async () => {
    const server = new Server("described", {
      version: "9.9.9",
      instructions: "Be brief.",
      onListTools: () => ({ tools: [] }),
    });
    const client = await Client.connect(server, { protocolVersion: "legacy" });
    expect(client.serverInfo).toMatchObject({ name: "described", version: "9.9.9" });
    expect(client.instructions).toBe("Be brief.");
    expect(client.serverCapabilities?.tools).toBeDefined();
  });
});
