/**
 * createRedisState against a real redis-server: it connects or says why not, builds stores the
 * HTTP handler and MCPServer take, and rides out an outage: while Redis is down every store and
 * the bus reject at once with StateUnavailableError; once it is back (same port), everything works
 * again, the bus's existing subscriptions included, without a new createRedisState.
 */
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { createClient } from "redis";
import { type StateStores, StateUnavailableError } from "tsmcp/state";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../../test/helpers/redis-server.js";
import { createRedisState, type RedisState } from "./state.js";

let server: RedisServer;

beforeAll(async () => {
  server = await startRedisServer();
});

afterAll(async () => {
  await server?.close();
});

const record = {
  protocolVersion: "2025-11-25",
  clientInfo: {},
  clientCapabilities: {},
  initialized: false,
  resourceSubscriptions: [],
};

const task = {
  taskId: "t",
  owner: "o",
  status: "working" as const,
  createdAtMs: Date.now(),
  lastUpdatedAtMs: Date.now(),
  ttlMs: 60_000,
  lease: { holder: "replica", expiresAtMs: Date.now() + 15_000 },
  request: { method: "tools/call" },
};

describe("createRedisState", () => {
  it("builds the five stores on two connections, usable as the handler's state", async () => {
    const state = await createRedisState({ url: server.url, keyPrefix: "build:" });
    try {
      const stores: StateStores = state;
      expect(stores.sessions).toBe(state.sessions);
      expect(state.isReady).toBe(true);
      await state.ready();
      await state.sessions.create("s", record, 60_000);
      await expect(state.sessions.get("s", 60_000)).resolves.toEqual(record);
      await expect(state.replayCache.markUsed("r", Date.now() + 60_000)).resolves.toBe(true);
      await expect(state.sessions.touch("s", 60_000)).resolves.toBe(true);
      await expect(state.events.append("s", "0", undefined)).resolves.toMatch(/^0_\d+-\d+$/);
      await expect(state.tasks.create(task, { maxActivePerOwner: 1 })).resolves.toBe("created");
      await expect(state.tasks.get("t")).resolves.toEqual(task);
    } finally {
      await state.close();
      await state.close();
    }
    expect(state.isReady).toBe(false);
    await expect(state.ready()).rejects.toThrow("ready() after close()");
  });

  it("rejects with StateUnavailableError naming the URL, its password hidden, when nothing listens there", async () => {
    const closed = await startRedisServer();
    await closed.close();
    const url = `redis://user:secret@127.0.0.1:${closed.port}`;
    const failure = createRedisState({ url });
    await expect(failure).rejects.toBeInstanceOf(StateUnavailableError);
    await expect(failure).rejects.toThrow(`127.0.0.1:${closed.port}`);
    await expect(failure).rejects.not.toThrow("secret");
  });

  it("rejects within connectTimeoutMs when the server accepts but never answers", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    const { port } = silent.address() as { port: number };
    try {
      await expect(
        createRedisState({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 200 }),
      ).rejects.toThrow(/cannot connect to Redis at redis:\/\/127\.0\.0\.1:\d+.*within 200 ms/);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("takes a node-redis client of the caller's, and leaves it open on close", async () => {
    const client = createClient({ url: server.url, disableOfflineQueue: true });
    client.on("error", () => {});
    const state = await createRedisState({ client, keyPrefix: "given:" });
    expect(client.isReady).toBe(true);
    await state.sessions.create("s", record, 60_000);
    await state.close();
    expect(client.isReady).toBe(true);
    await expect(client.sendCommand(["EXISTS", "given:session:s"])).resolves.toBe(1);
    client.destroy();
  });

  it("checks its options before it connects", async () => {
    await expect(createRedisState({ connectTimeoutMs: 0 })).rejects.toThrow(RangeError);
    await expect(createRedisState({ maxEventsPerStream: -1 })).rejects.toThrow(RangeError);
    await expect(createRedisState({ url: 5 as never })).rejects.toThrow(TypeError);
    await expect(createRedisState(null as never)).rejects.toThrow(TypeError);
  });
});

describe("createRedisState through an outage", () => {
  let state: RedisState;
  const errors: unknown[] = [];

  beforeAll(async () => {
    state = await createRedisState({ url: server.url, keyPrefix: "outage:", onError: (e) => errors.push(e) });
  });

  afterAll(async () => {
    await state?.close();
  });

  it("rejects every call at once while Redis is down, then serves again once it is back, subscriptions included", async () => {
    const heard: unknown[] = [];
    let onHeard: (message: unknown) => void = () => {};
    await state.bus.subscribe("kept", (message) => {
      heard.push(message);
      onHeard(message);
    });
    const doomed = await state.bus.subscribe("ended", () => heard.push("must not arrive"));
    await state.sessions.create("live", record, 60_000);
    const eventId = await state.events.append("live", "0", undefined);

    await server.stop();
    const calls: [string, () => Promise<unknown>][] = [
      ["sessions.create", () => state.sessions.create("new", record, 60_000)],
      ["sessions.get", () => state.sessions.get("live", 60_000)],
      ["sessions.update", () => state.sessions.update("live", { initialized: true }, 60_000)],
      ["sessions.touch", () => state.sessions.touch("live", 60_000)],
      ["sessions.delete", () => state.sessions.delete("live")],
      ["events.append", () => state.events.append("live", "0", undefined)],
      ["events.appendOnce", () => state.events.appendOnce("live", "0", "k", { jsonrpc: "2.0", method: "x" })],
      ["events.after", () => state.events.after("live", eventId)],
      ["events.dropStream", () => state.events.dropStream("live", "0")],
      ["events.dropSession", () => state.events.dropSession("live")],
      ["bus.publish", () => state.bus.publish("kept", { n: 0 })],
      ["bus.subscribe", () => state.bus.subscribe("other", () => {})],
      ["replayCache.markUsed", () => state.replayCache.markUsed("r", Date.now() + 60_000)],
      ["tasks.create", () => state.tasks.create(task, { maxActivePerOwner: 5 })],
      ["tasks.get", () => state.tasks.get("t")],
      ["tasks.update", () => state.tasks.update("t", { statusMessage: "x" })],
      ["tasks.addInputResponses", () => state.tasks.addInputResponses("t", "o", { a: 1 }, Date.now())],
      ["tasks.takeInputResponses", () => state.tasks.takeInputResponses("t", "replica")],
      ["tasks.list", () => state.tasks.list("o", { limit: 10 })],
    ];
    for (const [name, call] of calls) {
      const failure = await call().then(
        () => new Error(`${name} resolved while Redis was down`),
        (error: unknown) => error,
      );
      expect(failure, name).toBeInstanceOf(StateUnavailableError);
      expect((failure as StateUnavailableError).retryAfterMs, name).toBe(2_000);
    }
    expect(state.isReady).toBe(false);
    // Ending a subscription while disconnected resolves, and it is not renewed.
    await doomed.unsubscribe();

    await server.restart();
    await state.ready();
    expect(state.isReady).toBe(true);
    expect(errors.length).toBeGreaterThan(0);
    // Redis kept nothing (no persistence); the stores work again on the same objects.
    await expect(state.sessions.get("live", 60_000)).resolves.toBeUndefined();
    await state.sessions.create("again", record, 60_000);
    await expect(state.sessions.get("again", 60_000)).resolves.toEqual(record);
    await expect(state.events.append("again", "0", undefined)).resolves.toMatch(/^0_\d+-\d+$/);
    await expect(state.tasks.create(task, { maxActivePerOwner: 5 })).resolves.toBe("created");
    const arrived = new Promise((resolve) => {
      onHeard = resolve;
    });
    await state.bus.publish("ended", { n: 1 });
    await state.bus.publish("kept", { n: 2 });
    await expect(arrived).resolves.toEqual({ n: 2 });
    expect(heard).toEqual([{ n: 2 }]);
  });
});
