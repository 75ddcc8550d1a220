/**
 * What carries the HTTP client transport's requests: on Node.js, without a `fetch` option,
 * `node:http` (the global `fetch` is never called); with one, that `fetch` for every request.
 * Both against a real `MCPServer` on 127.0.0.1, through a multi round-trip tool call; and the
 * Node path's handling of a connection lost mid-stream and of an abort while reading.
 */
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { Client } from "../../../client/client.js";
import type { JSONRPCRequest } from "../../../protocol/jsonrpc.js";
import { elicitationRequest, inputRequired, MCPServer, readElicitation } from "../../../server/index.js";
import { TransportError } from "../../transport.js";
import { type HttpServerHandle, serve } from "../node/node.js";
import { HttpClientTransport } from "./client.js";

const ASK_NAME = elicitationRequest({
  mode: "form",
  message: "Your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
});

/** A tool that asks for a name in a first round (`input_required`) and greets in the second. */
function askingServer(): MCPServer {
  const mcp = new MCPServer("sender-peer", {
    version: "1.0.0",
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.tool("ask", { inputSchema: z.object({}) }, (_args, ctx) => {
    const answer = readElicitation(ctx.inputResponses?.name, z.object({ name: z.string() }));
    if (answer.status !== "accepted") return inputRequired({ inputRequests: { name: ASK_NAME } });
    return `hello ${answer.content.name}`;
  });
  return mcp;
}

const elicitationCallback = async () => ({ action: "accept" as const, content: { name: "Ada" } });

function textOf(result: { content?: unknown }): string {
  return (result.content as { text: string }[]).map((part) => part.text).join("");
}

let handle: HttpServerHandle;

beforeEach(async () => {
  handle = await serve(askingServer());
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await handle.close();
});

describe("HttpClientTransport's sender on Node.js", () => {
  it("runs a multi round-trip tool call without ever calling the global fetch", async () => {
    const globalFetch = vi.fn(() => {
      throw new Error("the global fetch must not be called on Node.js");
    });
    vi.stubGlobal("fetch", globalFetch);
    const client = await Client.connect(handle.url, { elicitationCallback });
    onTestFinished(() => client.close());
    expect(textOf(await client.callTool("ask", {}))).toBe("hello Ada");
    expect(globalFetch).not.toHaveBeenCalled();
  });

  it("sends every request through the fetch it is given", async () => {
    const methods: string[] = [];
    const given: typeof fetch = (input, init) => {
      methods.push(init?.method ?? "GET");
      return fetch(input, init);
    };
    const transport = new HttpClientTransport(handle.url, { fetch: given });
    const client = await Client.connect(transport, { elicitationCallback });
    onTestFinished(() => client.close());
    expect(textOf(await client.callTool("ask", {}))).toBe("hello Ada");
    // At least the discovery and the two legs of the call.
    expect(methods.length).toBeGreaterThanOrEqual(3);
    expect(new Set(methods)).toEqual(new Set(["POST"]));
  });

  it.each([
    ["a runtime without process.getBuiltinModule (a browser, a worker, Node.js before 20.16)", undefined],
    ["Bun", { ...process.versions, bun: "1.2.0" }],
    ["Deno", { ...process.versions, deno: "2.1.0" }],
  ])("uses the global fetch on %s", async (_runtime, versions) => {
    const used: string[] = [];
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
      used.push(init?.method ?? "GET");
      return realFetch(input, init);
    });
    // The sender (and the global fetch it calls) is chosen when the transport is built: the
    // runtime is faked only for that.
    vi.stubGlobal(
      "process",
      versions === undefined
        ? { versions: process.versions }
        : { versions, getBuiltinModule: process.getBuiltinModule },
    );
    const transport = new HttpClientTransport(handle.url);
    vi.unstubAllGlobals();
    const client = await Client.connect(transport, { elicitationCallback });
    onTestFinished(() => client.close());
    expect(textOf(await client.callTool("ask", {}))).toBe("hello Ada");
    expect(used.length).toBeGreaterThanOrEqual(3);
  });
});

/** A raw `node:http` server on 127.0.0.1; closed after the test. */
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
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), server };
}

const call: JSONRPCRequest = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const PROGRESS = 'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n';

describe("HttpClientTransport's node:http sender against a failing server", () => {
  it("rejects with a TransportError when the connection is lost in the middle of an SSE stream", async () => {
    const { url } = await listening((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(PROGRESS, () => response.destroy());
    });
    const transport = new HttpClientTransport(url);
    onTestFinished(() => transport.close());
    const failure = await transport.request(call).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
  });

  it("rejects with the signal's reason when aborted while reading an SSE stream, closing the connection", async () => {
    let socketClosed: () => void = () => {};
    const closed = new Promise<void>((resolve) => {
      socketClosed = resolve;
    });
    const { url } = await listening((request, response) => {
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write(PROGRESS);
      request.socket.on("close", () => socketClosed());
    });
    const transport = new HttpClientTransport(url);
    onTestFinished(() => transport.close());
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const failure = transport
      .request(call, { signal: controller.signal, onNotification: () => controller.abort(reason) })
      .catch((error: unknown) => error);
    expect(await failure).toBe(reason);
    await closed;
  });

  it("rejects with a TransportError when the server closes the connection before answering", async () => {
    const { url } = await listening((request) => request.socket.destroy());
    const transport = new HttpClientTransport(url);
    onTestFinished(() => transport.close());
    const failure = await transport.request(call).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect((failure as Error).message).toContain(url.href);
  });
});
