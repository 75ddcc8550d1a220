/**
 * A fleet's session state failing and coming back: while a shared store or the bus rejects (a
 * `StateUnavailableError`, as a lost Redis connection gives), every handshake-era request is
 * answered 503 with `Retry-After` and the cause is logged; once the engine is back the same
 * handlers serve again, sessions intact. And the handler lets go of the bus when closed.
 */

import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { recordingLogger } from "../../../../../../test/helpers/logs.js";
import { memoryState, type Replicas, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import { StateUnavailableError } from "../../../state/errors.js";
import { MemoryMessageBus } from "../../../state/memory-message-bus.js";
import { MemorySessionStore } from "../../../state/memory-session-store.js";
import type { BusMessage, BusSubscription, MessageBus } from "../../../state/message-bus.js";
import type { SessionChanges, SessionRecord } from "../../../state/session-store.js";
import type { Dispatcher } from "../../dispatcher.js";
import { createHttpHandler } from "../server/server-handler.js";
import { initializeRequest, legacyHeaders } from "./session-test-fixtures.js";

/** A session store whose engine can be taken down and brought back. */
class FlakySessionStore extends MemorySessionStore {
  down = false;

  #check(): void {
    if (this.down)
      throw new StateUnavailableError("the session engine is unreachable", { retryAfterMs: 2500 });
  }

  override async create(id: string, record: SessionRecord, idleTimeoutMs: number): Promise<void> {
    this.#check();
    return super.create(id, record, idleTimeoutMs);
  }

  override async get(id: string, idleTimeoutMs: number): Promise<SessionRecord | undefined> {
    this.#check();
    return super.get(id, idleTimeoutMs);
  }

  override async update(id: string, changes: SessionChanges, idleTimeoutMs: number): Promise<boolean> {
    this.#check();
    return super.update(id, changes, idleTimeoutMs);
  }

  override async delete(id: string): Promise<boolean> {
    this.#check();
    return super.delete(id);
  }
}

/** A bus that counts live subscriptions and can be taken down. */
class CountingBus implements MessageBus {
  readonly #inner = new MemoryMessageBus();
  down = false;
  live = 0;
  #onIdle: (() => void) | undefined;

  idle(): Promise<void> {
    return this.live === 0 ? Promise.resolve() : new Promise((resolve) => (this.#onIdle = resolve));
  }

  async publish(topic: string, message: BusMessage): Promise<number> {
    if (this.down) throw new StateUnavailableError("the bus is unreachable");
    return this.#inner.publish(topic, message);
  }

  async subscribe(topic: string, onMessage: (message: BusMessage) => void): Promise<BusSubscription> {
    if (this.down) throw new StateUnavailableError("the bus is unreachable");
    const subscription = await this.#inner.subscribe(topic, onMessage);
    this.live++;
    let ended = false;
    return {
      unsubscribe: async () => {
        if (ended) return;
        ended = true;
        await subscription.unsubscribe();
        if (--this.live === 0) this.#onIdle?.();
      },
    };
  }
}

function replicaServer(): MCPServer {
  const mcp = new MCPServer("fleet-faults", {
    version: "1.0.0",
    logger: silentLogger,
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => `echo: ${text}`);
  return mcp;
}

const UNAVAILABLE = "Service Unavailable: session state is unreachable; retry later";

describe("a fleet whose session state fails", () => {
  let fleet: Replicas | undefined;

  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it("answers 503 with Retry-After while the session store is unreachable, logs the cause, and serves the same session once it is back", async () => {
    const sessions = new FlakySessionStore();
    const logger = recordingLogger();
    fleet = await startReplicas(2, replicaServer, {
      state: { ...memoryState(), sessions },
      http: { keepAliveMs: 0, logger },
    });
    fleet.pin(1);
    const init = await fleet.fetch(fleet.url, {
      method: "POST",
      headers: legacyHeaders(undefined, ""),
      body: JSON.stringify(initializeRequest()),
    });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get("mcp-session-id") as string;
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Mcp-Session-Id": sessionId,
      "MCP-Protocol-Version": "2025-11-25",
    };
    const echo = (id: number) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "hi" } },
      });

    sessions.down = true;
    for (const replica of [0, 1]) {
      fleet.pin(replica);
      const refused = await fleet.fetch(fleet.url, { method: "POST", headers, body: echo(2) });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("3");
      expect(await refused.json()).toEqual({
        jsonrpc: "2.0",
        id: 2,
        error: { code: -32603, message: UNAVAILABLE },
      });
      const get = await fleet.fetch(fleet.url, { headers: { ...headers, Accept: "text/event-stream" } });
      expect(get.status).toBe(503);
      const deleted = await fleet.fetch(fleet.url, { method: "DELETE", headers });
      expect(deleted.status).toBe(503);
    }
    const errors = logger.records.filter((record) => record.level === "error");
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((record) => record.fields?.error instanceof StateUnavailableError)).toBe(true);

    sessions.down = false;
    for (const replica of [0, 1]) {
      fleet.pin(replica);
      const served = await fleet.fetch(fleet.url, { method: "POST", headers, body: echo(3) });
      expect(served.status).toBe(200);
      expect(await served.json()).toMatchObject({ id: 3, result: { content: [{ text: "echo: hi" }] } });
    }
  });

  it("answers 503 while the bus is unreachable and serves again once it is back", async () => {
    const bus = new CountingBus();
    fleet = await startReplicas(2, replicaServer, {
      state: { ...memoryState(), bus },
      http: { keepAliveMs: 0, logger: silentLogger },
    });
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "faults", version: "1" },
      },
    });
    const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    bus.down = true;
    fleet.pin(0);
    const refused = await fleet.fetch(fleet.url, { method: "POST", headers, body: initialize });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    bus.down = false;
    const served = await fleet.fetch(fleet.url, { method: "POST", headers, body: initialize });
    expect(served.status).toBe(200);
    expect(served.headers.get("mcp-session-id")).not.toBeNull();
  });
});

/** The JSON-RPC messages of an SSE response body, read as they are asked for. */
function sseMessages(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed: Record<string, unknown>[] = [];
  let text = "";
  return {
    /** Resolves with the first message not yet taken that `match` accepts (skipping the others). */
    async next(match: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (;;) {
        const found = parsed.findIndex(match);
        if (found >= 0) return parsed.splice(0, found + 1).at(-1) as Record<string, unknown>;
        parsed.length = 0;
        const { done, value } = await reader.read();
        if (done) throw new Error("the stream ended");
        text += decoder.decode(value, { stream: true });
        const events = text.split("\n\n");
        text = events.pop() ?? "";
        for (const event of events) {
          const data = event
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("\n");
          if (data !== "") parsed.push(JSON.parse(data) as Record<string, unknown>);
        }
      }
    },
    cancel: () => reader.cancel(),
  };
}

describe("a client's answer while the session store is unreachable", () => {
  let fleet: Replicas | undefined;

  afterEach(async () => {
    await fleet?.close();
    fleet = undefined;
  });

  it("is taken by a replica holding the session's view and reaches the tool awaiting it; a replica holding none answers 503", async () => {
    const sessions = new FlakySessionStore();
    fleet = await startReplicas(
      3,
      () => {
        const mcp = replicaServer();
        mcp.tool("ask", { inputSchema: z.object({}) }, async (_args, ctx) => {
          const answer = await ctx.elicit({
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          });
          return `hello ${String(answer.content?.name)}`;
        });
        return mcp;
      },
      { state: { ...memoryState(), sessions }, http: { keepAliveMs: 0, logger: silentLogger } },
    );
    fleet.pin(0);
    const init = await fleet.fetch(fleet.url, {
      method: "POST",
      headers: legacyHeaders(undefined, ""),
      body: JSON.stringify(initializeRequest()),
    });
    const sessionId = init.headers.get("mcp-session-id") as string;
    const post = (replica: number, message: object) => {
      fleet!.pin(replica);
      return fleet!.fetch(fleet!.url, {
        method: "POST",
        headers: legacyHeaders(sessionId),
        body: JSON.stringify(message),
      });
    };
    // Replica 1 serves a request of the session, so it holds a view; replica 2 never does.
    expect((await post(1, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(200);
    const call = await post(0, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "ask", arguments: {} },
    });
    const stream = sseMessages(call.body!);
    const question = await stream.next((message) => message.method === "elicitation/create");
    const answer = {
      jsonrpc: "2.0",
      id: question.id,
      result: { action: "accept", content: { name: "Ada" } },
    };

    sessions.down = true;
    const refused = await post(2, answer);
    expect(refused.status).toBe(503);
    const taken = await post(1, answer);
    expect(taken.status).toBe(202);
    const response = await stream.next((message) => message.id === 3);
    expect(response).toMatchObject({ result: { content: [{ type: "text", text: "hello Ada" }] } });
    await stream.cancel();
  });
});

describe("closing a handler in a fleet", () => {
  it("unsubscribes from the bus and gives the dispatcher's attachBus hook its undoing", async () => {
    const bus = new CountingBus();
    const attached: MessageBus[] = [];
    let detached = 0;
    const dispatcher: Dispatcher & { attachBus(bus: MessageBus): () => void } = {
      handle: async (message) =>
        "id" in message
          ? {
              jsonrpc: "2.0",
              id: message.id,
              result: {
                protocolVersion: "2025-11-25",
                capabilities: {},
                serverInfo: { name: "d", version: "1" },
              },
            }
          : undefined,
      attachBus(given) {
        attached.push(given);
        return () => detached++;
      },
    };
    const handler = createHttpHandler(dispatcher, { state: { ...memoryState(), bus }, logger: silentLogger });
    expect(attached).toHaveLength(1);
    const init = await handler(
      new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: legacyHeaders(undefined, ""),
        body: JSON.stringify(initializeRequest()),
      }),
    );
    expect(init.status).toBe(200);
    expect(bus.live).toBeGreaterThan(0);
    handler.close();
    await bus.idle();
    expect(bus.live).toBe(0);
    handler.close();
    expect(detached).toBe(1);
  });
});
