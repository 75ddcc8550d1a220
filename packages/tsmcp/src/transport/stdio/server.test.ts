import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import { Server } from "../../server/server.js";
import type { Dispatcher, RequestEnvironment } from "../dispatcher.js";
import { callTool, listenTools, RawServer, REQUEST_META } from "./fixtures/harness.js";
import { inProcess } from "./fixtures/in-process.js";
import { serveStdio } from "./server.js";

type TestContext = { onTestFinished: (fn: () => Promise<void> | void) => void };

/** Starts the fixture server; it is killed (if still running) when the test ends. */
function fixture(context: TestContext, ...flags: string[]): RawServer {
  const server = new RawServer(...flags);
  context.onTestFinished(async () => {
    server.kill();
    await server.exited;
  });
  return server;
}

function textOf(message: Record<string, unknown>): string {
  const result = message.result as { content: { text: string }[] };
  return result.content[0]?.text as string;
}

describe("serveStdio in a real child process", () => {
  it("answers a request with its response on stdout and nothing else", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    const response = await server.roundTrip(callTool(1, "echo", { text: "hello" }));
    expect(response).toMatchObject({ jsonrpc: "2.0", id: 1, result: { resultType: "complete" } });
    expect(textOf(response)).toBe("hello");
    await server.stop();
    expect(server.garbage).toEqual([]);
  });

  it("answers every message of a chunk that carries several, and a message split over writes", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.writeRaw(
      [1, 2, 3].map((id) => `${JSON.stringify(callTool(id, "echo", { text: `m${id}` }))}\n`).join(""),
    );
    const line = Buffer.from(`${JSON.stringify(callTool(4, "echo", { text: "split €" }))}\n`);
    const cut = line.indexOf(0x82); // inside the euro sign
    server.writeRaw(line.subarray(0, cut));
    const answers = await Promise.all([1, 2, 3].map((id) => server.response(id)));
    expect(answers.map(textOf)).toEqual(["m1", "m2", "m3"]);
    server.writeRaw(line.subarray(cut));
    expect(textOf(await server.response(4))).toBe("split €");
  });

  it("answers a malformed line with -32700 and no id, then keeps serving", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.writeRaw("this is not json\n");
    const error = await server.messages.next((message) => "error" in message);
    expect(error).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" } });
    expect(textOf(await server.roundTrip(callTool(2, "echo", { text: "still here" })))).toBe("still here");
    expect(server.garbage).toEqual([]);
  });

  it("answers an invalid JSON-RPC message with -32600 carrying its id when readable", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send({ jsonrpc: "1.0", id: 7, method: "tools/list" });
    const error = await server.response(7);
    expect(error).toMatchObject({ id: 7, error: { code: -32600 } });
    server.send([{ jsonrpc: "2.0", id: 8, method: "tools/list" }]);
    const batch = await server.messages.next((message) => "error" in message && !("id" in message));
    expect(batch).toMatchObject({ error: { code: -32600 } });
  });

  it("ignores a JSON-RPC response from the client and logs it to stderr", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send({ jsonrpc: "2.0", id: 99, result: {} });
    const logged = server.stderrLine("ignoring a JSON-RPC response");
    expect(textOf(await server.roundTrip(callTool(1, "echo", { text: "after" })))).toBe("after");
    await logged;
    expect(server.messages.all.filter((message) => "id" in message && message.id === 99)).toEqual([]);
  });

  it("runs requests concurrently: a fast request is answered while a slow one is still running", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send(callTool("slow", "slow", { ms: 60_000 }));
    const fast = await server.roundTrip(callTool("fast", "echo", { text: "fast" }));
    expect(textOf(fast)).toBe("fast");
    expect(server.messages.all.some((message) => "id" in message && message.id === "slow")).toBe(false);
  });

  it("aborts a cancelled request's signal and never writes its response", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send(callTool("slow", "slow", { ms: 60_000 }));
    // the server is known to be serving once another request is answered
    await server.roundTrip(callTool("probe", "echo", { text: "x" }));
    server.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "slow", reason: "user gave up" },
    });
    expect(await server.stderrLine('aborted "slow"')).toContain("user gave up");
    // the slow tool answers once aborted; the transport must drop that answer
    await server.roundTrip(callTool("after", "echo", { text: "y" }));
    await server.stop();
    expect(server.messages.all.filter((message) => "id" in message && message.id === "slow")).toEqual([]);
  });

  it("ignores a cancellation for an id that is not in flight", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 12345 } });
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: null } });
    expect(textOf(await server.roundTrip(callTool(1, "echo", { text: "ok" })))).toBe("ok");
    expect(server.messages.all).toHaveLength(1);
  });

  it.for([
    { era: "2026-07-28", first: callTool(1, "echo", { text: "first" }), call: callTool },
    {
      era: "2025-11-25",
      // A handshake-era session takes requests without the 2026-07-28 `_meta`.
      call: (id: string | number, name: string, args: Record<string, unknown>): JSONRPCRequest => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      }),
      first: {
        jsonrpc: "2.0" as const,
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "old", version: "1" },
        },
      },
    },
  ])(
    "at $era refuses a malformed notification and a request method without an id: no answer, no handler, a warning, and it keeps serving",
    async ({ first, call }, context) => {
      const { expect } = context;
      const server = fixture(context);
      await server.roundTrip(first);
      server.send(call("slow", "slow", { ms: 60_000 }));
      await server.roundTrip(call("probe", "echo", { text: "x" }));
      const warnedCancel = server.stderrLine("malformed notifications/cancelled params");
      server.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: { bad: true } },
      });
      await warnedCancel;
      const warnedCall = server.stderrLine(`'tools/call' is a request and needs an`);
      const { id: _, ...withoutId } = call(0, "stderr", { text: "ran without an id" });
      server.send(withoutId);
      await warnedCall;
      expect(textOf(await server.roundTrip(call(2, "echo", { text: "still here" })))).toBe("still here");
      await server.stop();
      expect(server.stderrLines.all).not.toContain("ran without an id");
      expect(server.stderrLines.all.some((line) => line.startsWith('aborted "slow": stdin closed'))).toBe(
        true,
      );
      expect(server.messages.all.every((message) => "id" in message)).toBe(true);
      expect(server.garbage).toEqual([]);
    },
  );

  it("writes a request's progress notifications before its response", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send(callTool(5, "progress", { steps: 3 }, { progressToken: "tok" }));
    await server.response(5);
    const progress = server.messages.all.filter((message) => message.method === "notifications/progress");
    expect(progress.map((message) => (message.params as { progress: number }).progress)).toEqual([1, 2, 3]);
    expect(server.messages.all.at(-1)).toMatchObject({ id: 5 });
  });

  it("ends a listen stream on notifications/cancelled without a response", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send(listenTools("sub"));
    const ack = await server.messages.next(
      (message) => message.method === "notifications/subscriptions/acknowledged",
    );
    expect(ack.params).toMatchObject({ _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } });
    await server.roundTrip(callTool(1, "list-changed"));
    const changed = await server.messages.next(
      (message) => message.method === "notifications/tools/list_changed",
    );
    expect(changed.params).toMatchObject({ _meta: { "io.modelcontextprotocol/subscriptionId": "sub" } });
    server.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "sub" } });
    await server.roundTrip(callTool(2, "list-changed"));
    await server.stop();
    expect(server.messages.all.filter((message) => "id" in message && message.id === "sub")).toEqual([]);
    expect(
      server.messages.all.filter((message) => message.method === "notifications/tools/list_changed"),
    ).toHaveLength(1);
  });

  it("on stdin EOF aborts in-flight requests, writes nothing more, and lets the process exit by itself", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    server.send(callTool("slow", "slow", { ms: 60_000 }));
    await server.roundTrip(callTool("probe", "echo", { text: "x" }));
    const exit = await server.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.stderrLines.all.some((line) => line.startsWith('aborted "slow": stdin closed'))).toBe(true);
    expect(server.stderrLines.all).toContain("closed");
    expect(server.messages.all.filter((message) => "id" in message && message.id === "slow")).toEqual([]);
  });

  it("lets the process exit after the server closes the loop itself, stdin still open", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    expect(textOf(await server.roundTrip(callTool(1, "shutdown")))).toBe("shutting down");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.child.stdin.writableEnded).toBe(false);
  });
});

/**
 * A dispatcher whose requests wait until released, recording each environment; `arrived(id)`
 * resolves once the request with that id reaches the dispatcher.
 */
function heldDispatcher() {
  const envs = new Map<string | number, RequestEnvironment>();
  const release = new Map<string | number, () => void>();
  const notifications: JSONRPCNotification[] = [];
  const arrivals = new Map<string | number, () => void>();
  const arrived = (id: string | number): Promise<void> =>
    envs.has(id) ? Promise.resolve() : new Promise((resolve) => arrivals.set(id, resolve));
  const dispatcher: Dispatcher = {
    async handle(message: JSONRPCRequest | JSONRPCNotification, env: RequestEnvironment) {
      if (!("id" in message)) {
        notifications.push(message);
        return undefined;
      }
      envs.set(message.id, env);
      arrivals.get(message.id)?.();
      await new Promise<void>((resolve) => release.set(message.id, resolve));
      return { jsonrpc: "2.0", id: message.id, result: { resultType: "complete" } } as JSONRPCResponse;
    },
  };
  return { dispatcher, envs, release, notifications, arrived };
}

describe("serveStdio over in-process streams", () => {
  it("refuses a non-dispatcher and malformed options with TypeError or RangeError", () => {
    expect(() => serveStdio({} as never)).toThrow(TypeError);
    const server = new Server("x");
    expect(() => serveStdio(server, { stdin: {} as never })).toThrow(TypeError);
    expect(() => serveStdio(server, { stdin: new PassThrough(), stdout: {} as never })).toThrow(TypeError);
    expect(() => serveStdio(server, { stdin: new PassThrough(), logger: {} as never })).toThrow(TypeError);
    expect(() =>
      serveStdio(server, { stdin: new PassThrough(), stdout: new PassThrough(), maxLineBytes: -1 }),
    ).toThrow(RangeError);
  });

  it("refuses a second request with an id already in flight, and serves the first", async () => {
    const { dispatcher, release } = heldDispatcher();
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", id: 1, method: "m" });
    io.send({ jsonrpc: "2.0", id: 1, method: "m" });
    await io.until(() => io.written.length === 1);
    expect(io.written[0]).toMatchObject({ id: 1, error: { code: -32600 } });
    release.get(1)?.();
    await io.until(() => io.written.length === 2);
    expect(io.written[1]).toMatchObject({ id: 1, result: { resultType: "complete" } });
    await io.handle.close();
  });

  it("passes notifications other than cancellation to the dispatcher", async () => {
    const { dispatcher, notifications } = heldDispatcher();
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", method: "notifications/something", params: { a: 1 } });
    io.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    io.stdin.end();
    await io.handle.closed;
    expect(notifications).toEqual([{ jsonrpc: "2.0", method: "notifications/something", params: { a: 1 } }]);
  });

  it("drops a request's notifications once it is cancelled or answered", async () => {
    const { dispatcher, envs, release, arrived } = heldDispatcher();
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", id: "a", method: "m" });
    io.send({ jsonrpc: "2.0", id: "b", method: "m" });
    await Promise.all([arrived("a"), arrived("b")]);
    const note = (n: number): JSONRPCNotification => ({
      jsonrpc: "2.0",
      method: "notifications/x",
      params: { n },
    });
    envs.get("a")?.notify?.(note(1));
    io.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "a" } });
    release.get("b")?.();
    await io.until(() => io.written.some((message) => message.id === "b"));
    expect(envs.get("a")?.signal.aborted).toBe(true);
    envs.get("a")?.notify?.(note(2));
    envs.get("b")?.notify?.(note(3));
    release.get("a")?.();
    await io.handle.close();
    expect(
      io.written.map((message) => (message.params as { n?: number } | undefined)?.n ?? message.id),
    ).toEqual([1, "b"]);
  });

  it("answers -32603 when a dispatcher breaks its contract by throwing", async () => {
    const io = inProcess({
      handle: () => {
        throw new Error("boom");
      },
    });
    io.send({ jsonrpc: "2.0", id: 3, method: "m" });
    await io.until(() => io.written.length === 1);
    expect(io.written[0]).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: "Internal error" },
    });
    expect(io.logs.some((line) => line.startsWith("error"))).toBe(true);
    await io.handle.close();
  });

  it("discards an over-long line with -32600 (no id) and keeps serving", async () => {
    const io = inProcess(new Server("x"), { maxLineBytes: 256 });
    io.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"${"x".repeat(300)}"}\n`);
    io.send({ jsonrpc: "2.0", id: 2, method: "server/discover", params: { _meta: REQUEST_META } });
    await io.until(() => io.written.length === 2);
    expect(io.written[0]).toMatchObject({ error: { code: -32600 } });
    expect(io.written[0]).not.toHaveProperty("id");
    expect(io.written[1]).toMatchObject({ id: 2, result: { resultType: "complete" } });
    await io.handle.close();
  });

  it("close() aborts in-flight requests, drops their responses and resolves closed", async () => {
    const { dispatcher, envs, release, arrived } = heldDispatcher();
    const io = inProcess(dispatcher);
    io.send({ jsonrpc: "2.0", id: 1, method: "m" });
    await arrived(1);
    const closing = io.handle.close();
    expect(io.handle.close()).toBe(closing);
    await io.handle.closed;
    expect(envs.get(1)?.signal.aborted).toBe(true);
    release.get(1)?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(io.written).toEqual([]);
    expect(io.stdin.listenerCount("data")).toBe(0);
  });

  it("pauses reading stdin while stdout is congested and resumes on drain", async () => {
    const chunks: string[] = [];
    const held: (() => void)[] = [];
    let onWrite: (() => void) | undefined;
    /** Resolves at the next write to stdout. */
    const nextWrite = () => new Promise<void>((resolve) => (onWrite = resolve));
    const stdout = new Writable({
      highWaterMark: 1,
      write(chunk, _encoding, callback) {
        chunks.push(String(chunk));
        held.push(() => callback());
        onWrite?.();
      },
    });
    const server = new Server("x");
    const io = inProcess(server, { stdout });
    const discover = (id: number) => ({
      jsonrpc: "2.0",
      id,
      method: "server/discover",
      params: { _meta: REQUEST_META },
    });
    const first = nextWrite();
    io.send(discover(1));
    await first;
    expect(io.stdin.isPaused()).toBe(true);
    io.send(discover(2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(chunks).toHaveLength(1);
    const second = nextWrite();
    for (const release of held.splice(0)) release();
    await second;
    expect(chunks.map((chunk) => JSON.parse(chunk).id)).toEqual([1, 2]);
    for (const release of held.splice(0)) release();
    await io.handle.close();
  });
});
