import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
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

/** A GET on the session's stream from a raw socket that never reads what the server writes. */
async function pausedGet(url: URL, sessionId: string): Promise<Socket> {
  const socket = connect(Number(url.port), "127.0.0.1");
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  socket.pause();
  socket.write(
    `GET ${url.pathname} HTTP/1.1\r\nHost: 127.0.0.1:${url.port}\r\nAccept: text/event-stream\r\n` +
      `Mcp-Session-Id: ${sessionId}\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n`,
  );
  return socket;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (at most 5 s) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !done(); i++) await sleep(20);
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
    await sleep(5);
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
    await until(() => session.standaloneOpen);
    expect(session.standaloneOpen).toBe(true);
    await flood(session);
    return { url: served.url, sessionId, session, socket };
  }

  it("closes the connection of a client that stops reading; it resumes from the event store with Last-Event-ID", async () => {
    const { url, sessionId, session, socket } = await stuckSession();
    expect(session.standaloneOpen).toBe(false);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.on("error", () => {});
    socket.resume();
    await Promise.race([closed, sleep(5000)]);
    expect(socket.destroyed).toBe(true);

    const reader = new SseReader(await getStream(url, sessionId, { "Last-Event-ID": "0_0" }));
    expect((await reader.next())?.id).toBe("0_0");
    expect(await reader.nextMessage()).toMatchObject({ method: "notifications/resources/updated" });
    await reader.cancel();
  });

  it("lets a session whose client stopped reading its stream idle out", async () => {
    const { url, sessionId } = await stuckSession({ sessionIdleTimeoutMs: 300 });
    await sleep(1000);
    expect((await callTool(url, sessionId, 2, "echo")).status).toBe(404);
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
          await sleep(5);
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
      const reason = await Promise.race([cancelled, sleep(10_000).then(() => "not cancelled")]);
      expect(String(reason)).toContain("did not read the SSE stream");
    } finally {
      socket.destroy();
    }
  });
});
