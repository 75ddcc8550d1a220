/**
 * A handshake-era session's SSE streams across the replicas of a fleet (three `serve` handlers on
 * 127.0.0.1 sharing in-memory stores and a bus, each with its own `MCPServer`): the standalone GET
 * stream held on one replica carries what the others send the session, a GET without
 * `Last-Event-ID` starts where the last one stopped on any replica, a POST stream resumes on
 * another replica, and a stream whose replica stopped ends with an error instead of hanging.
 */

import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { memoryState, type Replicas, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { MemorySessionStore } from "../../../state/memory-session-store.js";
import type { SessionChanges } from "../../../state/session-store.js";
import { SseReader } from "../http-test-fixtures.js";

/** Lets a test release the `poll` tool. */
const gate = { release: () => {} };

function replicaServer(index: number): MCPServer {
  const mcp = new MCPServer("fleet-streams", {
    version: "1.0.0",
    logger: silentLogger,
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.tool("ask", { inputSchema: z.object({}) }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return `hello ${String(answer.content?.name)} from ${index}`;
  });
  mcp.tool("done", { inputSchema: z.object({ id: z.string() }) }, ({ id }, ctx) => {
    ctx.notifyElicitationComplete(id);
    return `done on ${index}`;
  });
  mcp.tool("poll", { inputSchema: z.object({}) }, async (_args, ctx) => {
    ctx.closeSseStream();
    await new Promise<void>((resolve) => {
      gate.release = resolve;
    });
    return `polled on ${index}`;
  });
  mcp.tool("hang", { inputSchema: z.object({}) }, async (_args, ctx) => {
    ctx.closeSseStream();
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    return "aborted";
  });
  return mcp;
}

/** An event store that tells when a message is stored. */
class WatchedEventStore extends MemoryEventStore {
  #waiters: { match: (message: JSONRPCMessage) => boolean; resolve: () => void }[] = [];

  appended(match: (message: JSONRPCMessage) => boolean): Promise<void> {
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }

  override async append(
    sessionId: string,
    streamId: string,
    message: JSONRPCMessage | undefined,
  ): Promise<string> {
    const id = await super.append(sessionId, streamId, message);
    for (const waiter of [...this.#waiters]) {
      if (message !== undefined && waiter.match(message)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
    return id;
  }
}

/** A session store that tells when a standalone stream's place is written. */
class WatchedSessionStore extends MemorySessionStore {
  #waiters: (() => void)[] = [];

  cursorWritten(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  override async update(id: string, changes: SessionChanges, idleTimeoutMs: number): Promise<boolean> {
    const live = await super.update(id, changes, idleTimeoutMs);
    if (changes.standaloneCursor !== undefined) for (const wake of this.#waiters.splice(0)) wake();
    return live;
  }
}

describe("a handshake-era session's streams across three replicas", () => {
  let fleet: Replicas;
  let sessions: WatchedSessionStore;
  let events: WatchedEventStore;

  async function start(): Promise<void> {
    sessions = new WatchedSessionStore();
    events = new WatchedEventStore();
    fleet = await startReplicas(3, replicaServer, {
      state: { ...memoryState(), sessions, events },
      http: { keepAliveMs: 0, retryMs: 50, ownerPingTimeoutMs: 100 },
    });
  }

  afterEach(async () => {
    gate.release();
    await fleet.close();
  });

  /** A raw request on replica `replica`. */
  function send(
    replica: number,
    method: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<Response> {
    fleet.pin(replica);
    return fleet.fetch(fleet.url, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  /** Opens a session on replica `replica`; resolves with the headers of its later requests. */
  async function open(replica: number): Promise<Record<string, string>> {
    const init = await send(
      replica,
      "POST",
      { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: "fleet-streams", version: "1" },
        },
      },
    );
    expect(init.status).toBe(200);
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Mcp-Session-Id": init.headers.get("mcp-session-id") as string,
      "MCP-Protocol-Version": "2025-11-25",
    };
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
    expect((await send(replica, "POST", headers, initialized)).status).toBe(202);
    return headers;
  }

  function call(id: number, name: string, args: Record<string, unknown> = {}) {
    return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
  }

  function getHeaders(headers: Record<string, string>, lastEventId?: string): Record<string, string> {
    const { "Content-Type": _, ...rest } = headers;
    return {
      ...rest,
      Accept: "text/event-stream",
      ...(lastEventId === undefined ? {} : { "Last-Event-ID": lastEventId }),
    };
  }

  it("carries to a GET held on replica B the elicitation replica C sends for a client without SSE, and settles the answer POSTed to replica A", async () => {
    await start();
    const headers = await open(0);
    const stream = new SseReader(await send(1, "GET", getHeaders(headers)));
    expect((await stream.next())?.data).toBe("");
    const jsonOnly = { ...headers, Accept: "application/json" };
    const asked = send(2, "POST", jsonOnly, call(1, "ask"));
    const elicitation = await stream.nextMessage();
    expect(elicitation).toMatchObject({ method: "elicitation/create", params: { message: "Your name?" } });
    expect(String(elicitation.id)).toMatch(/^[^-]+-\d+$/);
    const answer = {
      jsonrpc: "2.0",
      id: elicitation.id,
      result: { action: "accept", content: { name: "Ada" } },
    };
    expect((await send(0, "POST", headers, answer)).status).toBe(202);
    expect(await (await asked).json()).toMatchObject({
      id: 1,
      result: { content: [{ type: "text", text: "hello Ada from 2" }] },
    });
    await stream.cancel();
  });

  it("starts a GET without Last-Event-ID where the last GET stopped, on whichever replica held it", async () => {
    await start();
    const headers = await open(0);
    const first = new SseReader(await send(1, "GET", getHeaders(headers)));
    await first.next();
    expect((await send(2, "POST", headers, call(1, "done", { id: "first" }))).status).toBe(200);
    expect(await first.nextMessage()).toMatchObject({ params: { elicitationId: "first" } });
    const recorded = sessions.cursorWritten();
    await first.cancel();
    await recorded;
    expect((await send(0, "POST", headers, call(2, "done", { id: "second" }))).status).toBe(200);
    const second = new SseReader(await send(2, "GET", getHeaders(headers)));
    await second.next();
    expect(await second.nextMessage()).toMatchObject({ params: { elicitationId: "second" } });
    await second.cancel();
  });

  it("resumes on replica B, with Last-Event-ID, the POST stream replica A serves: the rest once, then the response", async () => {
    await start();
    const headers = await open(0);
    const polled = new SseReader(await send(0, "POST", headers, call(3, "poll")));
    const priming = await polled.next();
    expect(await polled.next()).toBeUndefined();
    const resumed = new SseReader(await send(1, "GET", getHeaders(headers, priming?.id)));
    expect((await resumed.next())?.id).toBe(priming?.id);
    gate.release();
    expect(await resumed.nextMessage()).toMatchObject({
      id: 3,
      result: { content: [{ type: "text", text: "polled on 0" }] },
    });
    expect(await resumed.rest()).toEqual([]);
  });

  it("resumes on replica B a POST stream that finished on replica A while no connection carried it: the response, then the end", async () => {
    await start();
    const headers = await open(0);
    const polled = new SseReader(await send(0, "POST", headers, call(5, "poll")));
    const priming = await polled.next();
    expect(await polled.next()).toBeUndefined();
    const stored = events.appended(
      (message) => "id" in message && message.id === 5 && !("method" in message),
    );
    gate.release();
    await stored;
    const resumed = new SseReader(await send(1, "GET", getHeaders(headers, priming?.id)));
    const carried = await resumed.rest();
    expect(carried.filter((event) => event.data !== "").map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "polled on 0" }] } },
    ]);
  });

  it("ends a resumed stream with -32603 when the replica serving its request stopped", async () => {
    await start();
    const headers = await open(0);
    const hung = new SseReader(await send(0, "POST", headers, call(4, "hang")));
    const priming = await hung.next();
    expect(await hung.next()).toBeUndefined();
    await fleet.stop(0);
    const resumed = new SseReader(await send(1, "GET", getHeaders(headers, priming?.id)));
    await resumed.next();
    expect(await resumed.nextMessage()).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: -32603,
        message:
          "The server instance serving this request stopped before it answered; send the request again",
      },
    });
    expect(await resumed.rest()).toEqual([]);
  });
});
