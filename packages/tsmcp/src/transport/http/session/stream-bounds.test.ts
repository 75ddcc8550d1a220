import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { Dispatcher } from "../../dispatcher.js";
import { baseHeaders, rpc, SseReader } from "../http-test-fixtures.js";
import { createHttpHandler } from "../server/server-handler.js";
import type { HttpSession } from "./session.js";
import {
  callTool,
  type FrontEnd,
  getStream,
  initialize,
  nodeFrontEnd,
  type Served,
  scriptedDispatcher,
  webFrontEnd,
} from "./session-test-fixtures.js";

/**
 * A GET on the session's stream from a raw socket that reads the first bytes the server writes
 * (the stream is open then) and nothing after.
 */
async function pausedGet(url: URL, sessionId: string): Promise<Socket> {
  const socket = connect(Number(url.port), "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  const opened = new Promise<void>((resolve) =>
    socket.once("data", () => {
      socket.pause();
      resolve();
    }),
  );
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAccept: text/event-stream\r\n` +
      `Mcp-Session-Id: ${sessionId}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n`,
  );
  await opened;
  return socket;
}

/** One turn of the event loop, in which the connection takes what it can of what was written. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves when the socket closes; it reads (and drops) what is left to read. */
function closeOf(socket: Socket): Promise<void> {
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.resume();
  return closed;
}

/** The `console.error` calls of one test, and a promise of the first. */
interface ConsoleErrors {
  readonly calls: unknown[][];
  readonly first: Promise<void>;
}

/**
 * Records `console.error` for one test: the `@hono/node-server` bridge behind the web handler
 * reports there the error a response stream ends with.
 */
function consoleErrors(): ConsoleErrors {
  let logged!: () => void;
  const first = new Promise<void>((resolve) => {
    logged = resolve;
  });
  const spy = vi.spyOn(console, "error").mockImplementation(() => logged());
  onTestFinished(() => spy.mockRestore());
  return { calls: spy.mock.calls, first };
}

/**
 * What the front end reported on the console of a stream that overflowed: the bridge of the web
 * handler the overflow, once (waited for); the Node adapter nothing.
 */
async function expectOverflowReported(frontEnd: FrontEnd, errors: ConsoleErrors): Promise<void> {
  if (frontEnd === webFrontEnd) {
    await errors.first;
    expect(errors.calls).toHaveLength(1);
    expect(String(errors.calls[0]?.[0])).toContain(
      "the client did not read the SSE stream: more than 65536 bytes were waiting",
    );
  } else {
    expect(errors.calls).toEqual([]);
  }
}

/**
 * Sends batches of 100 10-kB `resources/updated` notifications (at most 40 MB in all, beyond what
 * loopback socket buffers hold) until the session's GET stream has no connection.
 */
async function flood(session: HttpSession): Promise<void> {
  const uri = `file:///${"x".repeat(10_000)}`;
  for (let batch = 0; batch < 40 && session.standaloneOpen; batch++) {
    for (let i = 0; i < 100; i++) {
      session.notify({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    }
    await turn();
  }
}

describe.each([
  ["the web handler", webFrontEnd],
  ["the Node adapter", nodeFrontEnd],
] as [string, FrontEnd][])("the byte bound of SSE streams through %s", (_name, frontEnd) => {
  let served: Served | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await served?.close();
    served = undefined;
  });

  async function stuckSession(options: { sessionIdleTimeoutMs?: number } = {}) {
    const dispatcher = scriptedDispatcher();
    served = await frontEnd(dispatcher, { maxStreamBufferBytes: 64 * 1024, maxQueuedEvents: 5, ...options });
    const sessionId = await initialize(served.url);
    const session = dispatcher.sessions[0] as HttpSession;
    const socket = await pausedGet(served.url, sessionId);
    sockets.push(socket);
    expect(session.standaloneOpen).toBe(true);
    await flood(session);
    return { url: served.url, sessionId, session, socket };
  }

  it("closes the connection of a client that stops reading; it resumes from the event store with Last-Event-ID", async () => {
    const errors = consoleErrors();
    const { url, sessionId, session, socket } = await stuckSession();
    expect(session.standaloneOpen).toBe(false);
    await closeOf(socket);
    expect(socket.destroyed).toBe(true);
    await expectOverflowReported(frontEnd, errors);

    const reader = new SseReader(await getStream(url, sessionId, { "Last-Event-ID": "0_0" }));
    expect((await reader.next())?.id).toBe("0_0");
    expect(await reader.nextMessage()).toMatchObject({ method: "notifications/resources/updated" });
    await reader.cancel();
  });

  it("lets a session whose client stopped reading its stream idle out", async () => {
    const errors = consoleErrors();
    const { url, sessionId, session } = await stuckSession({ sessionIdleTimeoutMs: 300 });
    if (!session.ended) await new Promise((resolve) => session.signal.addEventListener("abort", resolve));
    expect((session.signal.reason as Error).message).toBe("the session was idle too long");
    expect((await callTool(url, sessionId, 2, "echo")).status).toBe(404);
    await expectOverflowReported(frontEnd, errors);
  });
});

describe("maxStreamBufferBytes", () => {
  it("is checked when the handler is built", () => {
    expect(() => createHttpHandler(scriptedDispatcher(), { maxStreamBufferBytes: 0 })).toThrow(RangeError);
    expect(() => createHttpHandler(scriptedDispatcher(), { maxStreamBufferBytes: 1.5 })).toThrow(RangeError);
  });
});

describe("a Last-Event-ID beyond the stream's last event", () => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("is unknown: the GET opens the standalone stream at its own place, not at the client's id", async () => {
    served = await webFrontEnd(scriptedDispatcher());
    const sessionId = await initialize(served.url);
    const reader = new SseReader(await getStream(served.url, sessionId, { "Last-Event-ID": "0_999" }));
    expect((await reader.next())?.id).toBe("0_0");
    await reader.cancel();
  });
});

describe.each([
  ["the web handler", webFrontEnd],
  ["the Node adapter", nodeFrontEnd],
] as [string, FrontEnd][])("a 2026-07-28 SSE answer through %s", (_name, frontEnd) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  it("is cancelled when its client stops reading past maxStreamBufferBytes", async () => {
    const errors = consoleErrors();
    let aborted!: (reason: unknown) => void;
    const cancelled = new Promise<unknown>((resolve) => {
      aborted = resolve;
    });
    const dispatcher: Dispatcher = {
      async handle(message, env) {
        const params = { progressToken: 1, progress: 1, message: "x".repeat(10_000) };
        for (let batch = 0; batch < 40 && !env.signal.aborted; batch++) {
          for (let i = 0; i < 100; i++)
            env.notify?.({ jsonrpc: "2.0", method: "notifications/progress", params });
          await turn();
        }
        aborted(env.signal.reason);
        return "id" in message ? { jsonrpc: "2.0", id: message.id, result: { content: [] } } : undefined;
      },
    };
    served = await frontEnd(dispatcher, { maxStreamBufferBytes: 64 * 1024 });
    const body = JSON.stringify(rpc(1, "tools/list"));
    const headers = Object.entries(baseHeaders("tools/list"))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    const socket = connect(Number(served.url.port), "127.0.0.1");
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.pause();
    socket.write(
      `POST ${served.url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${served.url.port}\r\n${headers}` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    try {
      expect(String(await cancelled)).toContain("did not read the SSE stream");
      await expectOverflowReported(frontEnd, errors);
    } finally {
      socket.destroy();
    }
  });
});
