/**
 * The two eras of one stdio loop, over in-process streams with a recording dispatcher: 2026-07-28
 * requests stand alone until `initialize` (or a 2025-era client's first request) opens the one
 * session, which has a back-channel over stdout and stdin and refuses 2026-07-28 requests.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { deferred } from "../../protocol/async.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { Server } from "../../server/server.js";
import type { Dispatcher, RequestEnvironment } from "../dispatcher.js";
import { REQUEST_META } from "./fixtures/harness.js";
import { inProcess } from "./fixtures/in-process.js";
import { serveStdio } from "./server.js";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: {} },
    clientInfo: { name: "old-client", version: "1.0.0" },
  },
};

/**
 * A dispatcher that records every environment and runs `serve` for requests (default: answers
 * `{}` at once); notifications resolve with nothing.
 */
function recording(
  serve: (
    request: JSONRPCRequest,
    env: RequestEnvironment,
  ) => Promise<Record<string, unknown>> = async () => ({}),
) {
  const envs: { message: JSONRPCRequest | JSONRPCNotification; env: RequestEnvironment }[] = [];
  const dispatcher: Dispatcher = {
    async handle(message, env): Promise<JSONRPCResponse | undefined> {
      envs.push({ message, env });
      if (!("id" in message)) return undefined;
      try {
        return { jsonrpc: "2.0", id: message.id, result: await serve(message, env) };
      } catch (error) {
        return {
          jsonrpc: "2.0",
          id: message.id,
          error: { code: -32000, message: String((error as Error).message) },
        };
      }
    },
  };
  return { dispatcher, envs };
}

describe("the era of a stdio connection", () => {
  it("opens one handshake-era session with initialize and hands it with every later message", async () => {
    const { dispatcher, envs } = recording();
    const io = inProcess(dispatcher);
    io.send(INITIALIZE);
    io.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    io.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await io.until(() => io.written.length === 2);
    const session = envs[0]?.env.session;
    expect(session).toBeDefined();
    expect(session?.id).toBeUndefined();
    expect(envs.map(({ env }) => env.session)).toEqual([session, session, session]);
    expect(envs[0]?.env.request).toBeTypeOf("function");
    expect(envs[1]?.env.request).toBeUndefined();
    await io.handle.close();
    expect(session?.signal.aborted).toBe(true);
  });

  it("treats a first request without a _meta protocol version as handshake-era, then refuses 2026-07-28 requests with -32600", async () => {
    const { dispatcher, envs } = recording();
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    io.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: REQUEST_META } });
    io.send({ jsonrpc: "2.0", id: 3, method: "ping" });
    await io.until(() => io.written.length === 3);
    expect(envs.map(({ message }) => "id" in message && message.id)).toEqual([1, 3]);
    expect(envs[0]?.env.session).toBeDefined();
    expect(envs[1]?.env.session).toBe(envs[0]?.env.session);
    expect(io.written.find((message) => message.id === 2)).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("2026-07-28") },
    });
    await io.handle.close();
  });

  it("serves 2026-07-28 requests sessionless until initialize opens the session, and answers those in flight", async () => {
    const probe = deferred<Record<string, unknown>>();
    const { dispatcher, envs } = recording(async (request) =>
      request.method === "server/discover" ? probe.promise : {},
    );
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: REQUEST_META } });
    io.send(INITIALIZE);
    await io.until(() => io.written.some((message) => message.id === 0));
    probe.resolve({ supportedVersions: ["2026-07-28"] });
    await io.until(() => io.written.some((message) => message.id === 1));
    expect(io.written.find((message) => message.id === 1)).toMatchObject({
      result: { supportedVersions: ["2026-07-28"] },
    });
    io.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    io.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await io.until(() => io.written.some((message) => message.id === 2));
    const [discover, initialize, ...later] = envs;
    expect(discover?.env.session).toBeUndefined();
    expect(discover?.env.request).toBeUndefined();
    expect(initialize?.env.session).toBeDefined();
    expect(later.map(({ env }) => env.session)).toEqual([initialize?.env.session, initialize?.env.session]);
    await io.handle.close();
  });

  it("after a 2026-07-28 request serves one without _meta sessionless: only initialize opens the session then", async () => {
    const { dispatcher, envs } = recording();
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: REQUEST_META } });
    io.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    await io.until(() => io.written.length === 2);
    io.send(INITIALIZE);
    await io.until(() => io.written.length === 3);
    expect(envs.map(({ env }) => env.session === undefined)).toEqual([true, true, false]);
    await io.handle.close();
  });
});

describe("the back-channel of a handshake-era stdio connection", () => {
  it("writes a server -> client request to stdout and resolves it with the client's answer from stdin", async () => {
    const { dispatcher } = recording(async (request, env) =>
      request.method === "tools/call" ? { answer: await env.request?.("roots/list", undefined) } : {},
    );
    const io = inProcess(dispatcher);
    io.send(INITIALIZE);
    await io.until(() => io.written.length === 1);
    // The client reuses id 0 (initialize is answered); the server's first request has id 0 too.
    io.send({ jsonrpc: "2.0", id: 0, method: "tools/call" });
    await io.until(() => io.written.some((message) => message.method === "roots/list"));
    const asked = io.written.find((message) => message.method === "roots/list");
    expect(asked).toEqual({ jsonrpc: "2.0", id: 0, method: "roots/list" });
    io.send({ jsonrpc: "2.0", id: asked?.id, result: { roots: [] } });
    await io.until(
      () => io.written.filter((message) => message.id === 0 && "result" in message).length === 2,
    );
    expect(io.written.at(-1)).toEqual({ jsonrpc: "2.0", id: 0, result: { answer: { roots: [] } } });
    await io.handle.close();
  });

  it("cancels a waiting server -> client request when the client cancels the request it serves", async () => {
    const { dispatcher, envs } = recording(async (_request, env) => ({
      answer: await env.request?.("elicitation/create", { message: "Sure?" }),
    }));
    const io = inProcess(dispatcher);
    io.send({ ...INITIALIZE, method: "ask" });
    await io.until(() => io.written.some((message) => message.method === "elicitation/create"));
    io.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 0, reason: "bored" } });
    await io.until(() => io.written.some((message) => message.method === "notifications/cancelled"));
    expect(io.written.at(-1)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 0, reason: "request cancelled by the client: bored" },
    });
    expect(envs[0]?.env.signal.aborted).toBe(true);
    // A late answer is ignored, and the cancelled request is never answered.
    io.send({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: {} } });
    io.stdin.end();
    await io.handle.closed;
    expect(io.written.filter((message) => "result" in message || "error" in message)).toEqual([]);
    expect(io.logs.some((line) => line.includes("ignoring a JSON-RPC response"))).toBe(true);
  });

  it("times a server -> client request out after requestTimeoutMs and tells the client", async () => {
    const { dispatcher } = recording(async (_request, env) => ({
      answer: await env.request?.("ping", undefined),
    }));
    const io = inProcess(dispatcher, { requestTimeoutMs: 5 });
    io.send(INITIALIZE);
    await io.until(() => io.written.some((message) => message.id === 0 && "error" in message));
    expect(io.written.map((message) => message.method ?? "response")).toEqual([
      "ping",
      "notifications/cancelled",
      "response",
    ]);
    expect(io.written.at(-1)).toMatchObject({
      error: { message: expect.stringContaining("Request timed out") },
    });
    await io.handle.close();
  });

  it("rejects a waiting request with -32600 when the loop stops, and sends session notifications to stdout", async () => {
    let failure: unknown;
    const { dispatcher, envs } = recording(async (_request, env) => {
      try {
        return { answer: await env.session?.request?.("ping", undefined) };
      } catch (error) {
        failure = error;
        throw error;
      }
    });
    const io = inProcess(dispatcher);
    io.send(INITIALIZE);
    await io.until(() => io.written.some((message) => message.method === "ping"));
    envs[0]?.env.session?.notify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await io.until(() => io.written.some((message) => message.method === "notifications/tools/list_changed"));
    await io.handle.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(failure).toMatchObject({ code: -32600 });
    envs[0]?.env.session?.notify({ jsonrpc: "2.0", method: "notifications/prompts/list_changed" });
    expect(io.written.some((message) => message.method === "notifications/prompts/list_changed")).toBe(false);
  });

  it("refuses a requestTimeoutMs that is not a positive integer", () => {
    const options = { stdin: new PassThrough(), stdout: new PassThrough() };
    expect(() => serveStdio(new Server("x"), { ...options, requestTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => serveStdio(new Server("x"), { ...options, requestTimeoutMs: 1.5 })).toThrow(RangeError);
  });
});
