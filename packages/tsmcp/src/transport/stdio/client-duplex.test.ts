/**
 * `StdioClientTransport` as a full-duplex 2025-era peer, driven directly (initialize, then
 * `setProtocolEra`), against a real child process serving an `MCPServer`: the server's requests
 * answered through `onRequest` (-32601 when unset), the server's `notifications/cancelled`
 * aborting the handler, and log messages delivered.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it, type TestContext } from "vitest";
import { McpError } from "../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { StdioClientTransport } from "./client.js";
import { REPO_ROOT, SCRIPTED_SERVER } from "./fixtures/harness.js";

const DUPLEX_SERVER = fileURLToPath(new URL("./fixtures/duplex-server.ts", import.meta.url));

function request(id: number | string, method: string, params?: Record<string, unknown>): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
}

function call(id: number, name: string): JSONRPCRequest {
  return request(id, "tools/call", { name, arguments: {} });
}

function textOf(response: JSONRPCResponse): string {
  if (!("result" in response)) throw new Error(`error response: ${JSON.stringify(response)}`);
  return (response.result.content as { text: string }[]).map((part) => part.text).join("");
}

/** A transport to the duplex fixture, initialized at 2025-11-25 with form elicitation and roots. */
async function connect(context: TestContext): Promise<StdioClientTransport> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", DUPLEX_SERVER],
    cwd: REPO_ROOT,
    stderr: "ignore",
  });
  context.onTestFinished(() => transport.close());
  const response = await transport.request(
    request(0, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: { form: {} }, roots: {} },
      clientInfo: { name: "raw", version: "1" },
    }),
  );
  expect(response).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
  await transport.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
  return transport;
}

describe("StdioClientTransport as a full-duplex 2025-era peer", () => {
  it("answers the server's elicitation/create through onRequest, on the same process", async (context) => {
    const transport = await connect(context);
    const pid = transport.pid;
    const asked: JSONRPCRequest[] = [];
    transport.onRequest = async (incoming, { signal }) => {
      asked.push(incoming);
      expect(signal.aborted).toBe(false);
      return { action: "accept", content: { name: "Ada" } };
    };
    expect(textOf(await transport.request(call(1, "ask")))).toBe("hello Ada");
    expect(asked.map((entry) => [entry.method, entry.params?.message])).toEqual([
      ["elicitation/create", "Your name?"],
    ]);
    expect(transport.pid).toBe(pid);
  });

  it("answers -32601 when onRequest is unset, and the McpError a handler throws otherwise", async (context) => {
    const transport = await connect(context);
    expect(textOf(await transport.request(call(1, "roots")))).toBe(
      "error -32601: Method not found: roots/list",
    );
    transport.onRequest = async () => {
      throw new McpError(-32602, "no roots here");
    };
    expect(textOf(await transport.request(call(2, "roots")))).toBe("error -32602: no roots here");
    transport.onRequest = async () => {
      throw new Error("callback bug");
    };
    expect(textOf(await transport.request(call(3, "roots")))).toBe(
      "error -32603: Internal error: callback bug",
    );
  });

  it("aborts the handler's signal when the server cancels its request, without touching the client's request of the same id", async (context) => {
    const transport = await connect(context);
    const seen: JSONRPCNotification[] = [];
    transport.onNotification = (notification) => seen.push(notification);
    let aborted!: (reason: unknown) => void;
    const abortedWith = new Promise<unknown>((resolve) => {
      aborted = resolve;
    });
    let incomingId: unknown;
    transport.onRequest = (incoming, { signal }) => {
      incomingId = incoming.id;
      return new Promise((_resolve, reject) => {
        signal.addEventListener("abort", () => {
          aborted(signal.reason);
          reject(signal.reason);
        });
      });
    };
    // The server numbers its requests from 0: our tools/call uses the same id.
    const response = await transport.request(call(0, "ask-briefly"));
    expect(textOf(response)).toBe("gave up");
    expect(incomingId).toBe(0);
    expect(String(await abortedWith)).toMatch(/timed out/i);
    expect(seen.filter((n) => n.method === "notifications/cancelled")).toEqual([]);
  });

  it("delivers the server's log messages to onNotification", async (context) => {
    const transport = await connect(context);
    const seen: JSONRPCNotification[] = [];
    transport.onNotification = (notification) => seen.push(notification);
    expect(await transport.request(request(1, "logging/setLevel", { level: "info" }))).toMatchObject({
      id: 1,
      result: {},
    });
    expect(textOf(await transport.request(call(2, "chatty")))).toBe("logged");
    expect(seen).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: { said: "hello" } },
    });
  });
});

describe("StdioClientTransport at legacy with a scripted server", () => {
  it("never ends a client request for a server's notifications/cancelled naming its id, and delivers it", async (context) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [SCRIPTED_SERVER] });
    context.onTestFinished(() => transport.close());
    transport.setProtocolEra({ kind: "legacy", protocolVersion: "2025-11-25" });
    const seen: JSONRPCNotification[] = [];
    transport.onNotification = (notification) => seen.push(notification);
    const cancelled = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } };
    const response = await transport.request(request(7, "script", { lines: [cancelled] }), {
      onNotification: () => {},
    });
    expect(response).toEqual({ jsonrpc: "2.0", id: 7, result: { resultType: "complete" } });
    expect(seen).toEqual([cancelled]);
  });
});
