import { describe, expect, it, onTestFinished, vi } from "vitest";
import { rpc } from "../../../../test/helpers/meta.js";
import type { JSONRPCNotification } from "../protocol/jsonrpc.js";
import { MemoryMessageBus } from "../state/memory-message-bus.js";
import type { BusMessage, MessageBus } from "../state/message-bus.js";
import type { LegacySession } from "../transport/dispatcher.js";
import { SERVER_BUS_TOPIC, SUBSCRIBE_RETRY_MS } from "./broadcast.js";
import { handshake, legacyEnv, legacyRequest, testSession } from "./legacy/legacy-test-fixtures.js";
import { recordingLogger } from "./mcp/mcp-test-fixtures.js";
import { MCPServer } from "./mcp/server.js";
import { Server } from "./server.js";

/** Records notifications and resolves waiters once what they wait for has arrived. */
function inbox() {
  const notified: JSONRPCNotification[] = [];
  const waiters = new Set<() => void>();
  const count = (method: string) => notified.filter((n) => n.method === method).length;
  return {
    notified,
    methods: () => notified.map((n) => n.method),
    notify: (notification: JSONRPCNotification) => {
      notified.push(notification);
      for (const waiter of [...waiters]) waiter();
    },
    /** Resolves once `times` notifications of `method` arrived. */
    received(method: string, times = 1): Promise<void> {
      return new Promise((resolve) => {
        const check = () => {
          if (count(method) < times) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

type Inbox = ReturnType<typeof inbox>;

/** A 2025-era session whose notifications go to `box`. */
function sessionInto(box: Inbox, id?: string) {
  return { ...testSession(id), notify: box.notify };
}

/** Opens a `subscriptions/listen` stream on `server`; resolves once it is acknowledged. */
async function listen(server: Server | MCPServer, notifications: Record<string, unknown>): Promise<Inbox> {
  const box = inbox();
  const controller = new AbortController();
  onTestFinished(() => controller.abort());
  void server.handle(rpc("subscriptions/listen", { notifications }, "listen-1"), {
    signal: controller.signal,
    notify: box.notify,
  });
  await box.received("notifications/subscriptions/acknowledged");
  return box;
}

/** Attaches `bus` to `server` until the test ends. */
function attach(server: Server | MCPServer, bus: MessageBus): () => void {
  const detach = server.attachBus(bus);
  onTestFinished(detach);
  return detach;
}

/** Two replicas of one MCPServer sharing a bus, each with the tool "first". */
function replicas(bus: MessageBus = new MemoryMessageBus()) {
  const build = () => {
    const logger = recordingLogger();
    const mcp = new MCPServer("fleet", { logger });
    mcp.tool("first", {}, () => "one");
    attach(mcp, bus);
    return { mcp, logger };
  };
  return { bus, a: build(), b: build() };
}

const LIST_CHANGED = "notifications/tools/list_changed";
const UPDATED = "notifications/resources/updated";
const PROMPTS_CHANGED = "notifications/prompts/list_changed";
const RESOURCES_CHANGED = "notifications/resources/list_changed";
const GAP_WARNING = `the subscription to ${SERVER_BUS_TOPIC} may have missed notifications; telling every stream and session what it holds may have changed`;

describe("notifications that belong to no request, across replicas sharing a bus", () => {
  it("carry a tool registered on one replica to a listen stream and a 2025-era session on another, once each", async () => {
    const { a, b } = replicas();
    const stream = await listen(b.mcp, { toolsListChanged: true, promptsListChanged: true });
    const sessionBox = inbox();
    await handshake(b.mcp, sessionInto(sessionBox, "on-b"));
    const onA = inbox();
    await handshake(a.mcp, sessionInto(onA, "on-a"));

    a.mcp.tool("second", {}, () => "two");
    // A later notification of the same publisher arrives after every copy of the first.
    a.mcp.prompt("marker", {}, () => "marker");
    await Promise.all([stream.received(PROMPTS_CHANGED), sessionBox.received(PROMPTS_CHANGED)]);
    await onA.received(PROMPTS_CHANGED);

    expect(stream.methods()).toEqual([
      "notifications/subscriptions/acknowledged",
      LIST_CHANGED,
      PROMPTS_CHANGED,
    ]);
    expect(stream.notified[1]).toEqual({
      jsonrpc: "2.0",
      method: LIST_CHANGED,
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } },
    });
    expect(sessionBox.notified).toEqual([
      { jsonrpc: "2.0", method: LIST_CHANGED },
      { jsonrpc: "2.0", method: PROMPTS_CHANGED },
    ]);
    expect(onA.methods()).toEqual([LIST_CHANGED, PROMPTS_CHANGED]);
    expect([...a.logger.records, ...b.logger.records]).toEqual([]);
  });

  it("carry notifyResourceUpdated to the listen streams and subscribed sessions of every replica, once each", async () => {
    const { a, b } = replicas();
    const stream = await listen(b.mcp, { resourceSubscriptions: ["notes://"] });
    const box = inbox();
    const session = sessionInto(box, "on-b");
    await handshake(b.mcp, session);
    await b.mcp.handle(legacyRequest("resources/subscribe", { uri: "notes://1" }), legacyEnv(session));

    a.mcp.notifyResourceUpdated("notes://1");
    a.mcp.notifyResourceUpdated("notes://2");
    await stream.received(UPDATED, 2);

    expect(stream.notified.slice(1).map((n) => n.params?.uri)).toEqual(["notes://1", "notes://2"]);
    expect(box.notified).toEqual([{ jsonrpc: "2.0", method: UPDATED, params: { uri: "notes://1" } }]);
  });

  it("reach a session another replica initialized once this replica adopts its view", async () => {
    const { a, b } = replicas();
    const box = inbox();
    const view: LegacySession = {
      ...sessionInto(box, "elsewhere"),
      handshake: {
        protocolVersion: "2025-11-25",
        clientInfo: { name: "c", version: "1" },
        clientCapabilities: {},
      },
      initialized: true,
    };
    b.mcp.adoptSession(view);
    b.mcp.adoptSession(view);

    a.mcp.tool("second", {}, () => "two");
    a.mcp.prompt("marker", {}, () => "marker");
    await box.received(PROMPTS_CHANGED);

    expect(box.methods()).toEqual([LIST_CHANGED, PROMPTS_CHANGED]);
  });

  it("are delivered once per replica however many handlers attached the bus", async () => {
    const bus = new MemoryMessageBus();
    const server = new MCPServer("fleet", { logger: recordingLogger() });
    const detachFirst = attach(server, bus);
    attach(server, bus);
    attach(server, bus);
    detachFirst();
    detachFirst();
    const stream = await listen(server, { toolsListChanged: true, promptsListChanged: true });

    server.tool("first", {}, () => "one");
    server.prompt("marker", {}, () => "marker");
    await stream.received(PROMPTS_CHANGED);

    expect(stream.methods()).toEqual([
      "notifications/subscriptions/acknowledged",
      LIST_CHANGED,
      PROMPTS_CHANGED,
    ]);
  });

  it("stop arriving from the bus once the last attachment is detached, and are delivered at once again", async () => {
    const bus = new MemoryMessageBus();
    const a = new MCPServer("fleet");
    attach(a, bus);
    const b = new MCPServer("fleet");
    const detachFirst = b.attachBus(bus);
    const detachSecond = b.attachBus(bus);
    const box = inbox();
    await handshake(b, sessionInto(box));
    // B's subscription is live once B hears its own publication.
    b.server.notifyListChanged("prompts");
    await box.received(PROMPTS_CHANGED);
    detachFirst();
    detachSecond();

    const spy = inbox();
    await bus.subscribe(SERVER_BUS_TOPIC, (message) =>
      spy.notify({ jsonrpc: "2.0", method: String(message.type) }),
    );
    a.server.notifyListChanged("tools");
    a.notifyResourceUpdated("notes://1");
    await spy.received("resource_updated");
    expect(box.methods()).toEqual([PROMPTS_CHANGED]);

    b.server.notifyListChanged("tools");
    expect(box.methods()).toEqual([PROMPTS_CHANGED, LIST_CHANGED]);
    // Anything B published would reach the spy before this later message of the test.
    await bus.publish(SERVER_BUS_TOPIC, { type: "resource_updated", uri: "marker://" });
    await spy.received("resource_updated", 2);
    expect(spy.methods()).toEqual(["list_changed", "resource_updated", "resource_updated"]);
  });

  it("ignore and log a malformed message, and deliver the next one", async () => {
    const { bus, a, b } = replicas();
    const box = inbox();
    await handshake(b.mcp, sessionInto(box));

    await bus.publish(SERVER_BUS_TOPIC, { type: "list_changed", kind: "widgets" });
    await bus.publish(SERVER_BUS_TOPIC, { type: "resource_updated", uri: 42 });
    a.mcp.server.notifyListChanged("tools");
    await box.received(LIST_CHANGED);

    expect(box.methods()).toEqual([LIST_CHANGED]);
    expect(b.logger.records).toEqual([
      {
        level: "warn",
        message: `ignored a malformed message on ${SERVER_BUS_TOPIC}`,
        fields: { message: '{"type":"list_changed","kind":"widgets"}' },
      },
      {
        level: "warn",
        message: `ignored a malformed message on ${SERVER_BUS_TOPIC}`,
        fields: { message: '{"type":"resource_updated","uri":42}' },
      },
    ]);
  });

  it("keep reaching a listen stream after a delivery to it threw", async () => {
    const { a, b } = replicas();
    const box = inbox();
    let failures = 1;
    const controller = new AbortController();
    onTestFinished(() => controller.abort());
    void b.mcp.handle(rpc("subscriptions/listen", { notifications: { toolsListChanged: true } }, "l"), {
      signal: controller.signal,
      notify: (notification) => {
        if (notification.method === LIST_CHANGED && failures-- > 0) throw new Error("stream broke");
        box.notify(notification);
      },
    });
    await box.received("notifications/subscriptions/acknowledged");

    a.mcp.server.notifyListChanged("tools");
    a.mcp.server.notifyListChanged("tools");
    await box.received(LIST_CHANGED);

    expect(box.methods()).toEqual(["notifications/subscriptions/acknowledged", LIST_CHANGED]);
    expect(b.logger.records.map((r) => [r.level, r.message, String(r.fields?.error)])).toEqual([
      ["error", "delivering list_changed failed", "Error: stream broke"],
    ]);
  });
});

describe("a server with a bus the engine behind it fails", () => {
  /** A bus over `inner` whose `publish` or `subscribe` rejects while `failing` says so. */
  it("hand every replica's view of one session the same once-key, so the session hears a broadcast once", async () => {
    const { a, b } = replicas();
    const keys: (string | undefined)[] = [];
    const viewOn = (server: MCPServer) => {
      const view: LegacySession = {
        ...testSession("shared"),
        handshake: {
          protocolVersion: "2025-11-25",
          clientInfo: { name: "c", version: "1" },
          clientCapabilities: {},
        },
        initialized: true,
        notify: (_notification, options) => keys.push(options?.onceKey),
      };
      view.resourceSubscriptions.add("notes://1");
      server.adoptSession(view);
    };
    viewOn(a.mcp);
    viewOn(b.mcp);

    await expect(a.mcp.notifyResourceUpdated("notes://1")).resolves.toBe(true);
    await expect(b.mcp.notifyResourceUpdated("notes://1")).resolves.toBe(true);
    await vi.waitFor(() => expect(keys).toHaveLength(4));

    const [first, second, third, fourth] = keys;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
    expect(third).toBe(fourth);
    expect(third).not.toBe(first);
  });

  it("deliver on the publishing replica although the bus does not bring its own message back, and once when it does", async () => {
    const inner = new MemoryMessageBus();
    // The bus hands nothing to this replica's subscription (it was reconnecting).
    const deaf: MessageBus = {
      publish: (topic, message) => inner.publish(topic, message),
      subscribe: async () => ({ unsubscribe: async () => {} }),
    };
    const lonely = new MCPServer("fleet", { logger: recordingLogger() });
    attach(lonely, deaf);
    const box = inbox();
    await handshake(lonely, sessionInto(box));
    await expect(lonely.server.notifyListChanged("tools")).resolves.toBe(true);
    expect(box.methods()).toEqual([LIST_CHANGED]);

    const { a } = replicas(inner);
    const heard = inbox();
    await handshake(a.mcp, sessionInto(heard));
    await a.mcp.server.notifyListChanged("tools");
    await a.mcp.server.notifyListChanged("prompts");
    await heard.received(PROMPTS_CHANGED);
    expect(heard.methods()).toEqual([LIST_CHANGED, PROMPTS_CHANGED]);
  });

  it("answer false when the bus refuses a notification, true without a bus", async () => {
    const server = new MCPServer("fleet", { logger: recordingLogger() });
    await expect(server.notifyResourceUpdated("notes://1")).resolves.toBe(true);
    attach(server, flaky(new MemoryMessageBus(), { publish: true, subscribe: false }));
    await expect(server.notifyResourceUpdated("notes://1")).resolves.toBe(false);
  });

  function flaky(inner: MessageBus, failing: { publish: boolean; subscribe: boolean }): MessageBus {
    return {
      publish: (topic, message) =>
        failing.publish ? Promise.reject(new Error("bus down")) : inner.publish(topic, message),
      subscribe: (topic, onMessage) =>
        failing.subscribe ? Promise.reject(new Error("bus down")) : inner.subscribe(topic, onMessage),
    };
  }

  it("delivers on its own replica and logs when publishing fails", async () => {
    const logger = recordingLogger();
    const server = new MCPServer("fleet", { logger });
    attach(server, flaky(new MemoryMessageBus(), { publish: true, subscribe: false }));
    const box = inbox();
    await handshake(server, sessionInto(box));

    await expect(server.server.notifyListChanged("tools")).resolves.toBe(false);
    await box.received(LIST_CHANGED);

    expect(box.methods()).toEqual([LIST_CHANGED]);
    expect(logger.records.map((r) => [r.level, r.message])).toEqual([
      ["error", `publishing list_changed on ${SERVER_BUS_TOPIC} failed; delivered on this replica only`],
    ]);
  });

  it("publishes, delivers on its own replica, and subscribes again later when subscribing failed", async () => {
    const logger = recordingLogger();
    const inner = new MemoryMessageBus();
    const failing = { publish: false, subscribe: true };
    const server = new MCPServer("fleet", { logger });
    attach(server, flaky(inner, failing));
    const box = inbox();
    await handshake(server, sessionInto(box));
    const peer = inbox();
    await inner.subscribe(SERVER_BUS_TOPIC, (message) =>
      peer.notify({ jsonrpc: "2.0", method: String(message.type) }),
    );

    server.server.notifyListChanged("tools");
    await peer.received("list_changed");
    await box.received(LIST_CHANGED);
    failing.subscribe = false;
    server.server.notifyListChanged("prompts");
    await box.received(PROMPTS_CHANGED);
    // Subscribed again: a message from another replica arrives.
    await inner.publish(SERVER_BUS_TOPIC, { type: "resource_updated", uri: "notes://1" });
    await inner.publish(SERVER_BUS_TOPIC, { type: "list_changed", kind: "resources" });
    await box.received(RESOURCES_CHANGED, 2);

    // Subscribed again after a failure, the replica may have missed notifications meanwhile: the
    // session hears every list it may watch changed, then the message from the other replica.
    expect(box.methods()).toEqual([
      LIST_CHANGED,
      PROMPTS_CHANGED,
      LIST_CHANGED,
      PROMPTS_CHANGED,
      RESOURCES_CHANGED,
      RESOURCES_CHANGED,
    ]);
    expect(logger.records.map((r) => [r.level, r.message])).toEqual([
      ["error", `subscribing to ${SERVER_BUS_TOPIC} failed; retrying`],
      ["error", `subscribing to ${SERVER_BUS_TOPIC} failed; retrying`],
      ["warn", GAP_WARNING],
    ]);
  });

  it("subscribes again on its own after a failed subscription, so it hears other replicas without sending", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const logger = recordingLogger();
    const inner = new MemoryMessageBus();
    const failing = { publish: false, subscribe: true };
    const server = new MCPServer("fleet", { logger });
    attach(server, flaky(inner, failing));
    const box = inbox();
    await handshake(server, sessionInto(box));
    await vi.waitFor(() => expect(logger.records).toHaveLength(1));
    failing.subscribe = false;
    await vi.advanceTimersByTimeAsync(SUBSCRIBE_RETRY_MS);

    await inner.publish(SERVER_BUS_TOPIC, { type: "list_changed", kind: "tools" });
    // First what the gap may have hidden (every list), then the other replica's message.
    await box.received(LIST_CHANGED, 2);
    expect(box.methods()).toEqual([LIST_CHANGED, PROMPTS_CHANGED, RESOURCES_CHANGED, LIST_CHANGED]);
  });
});

/** A bus in one process whose subscriptions can be told of a gap, as a shared engine's after a reconnect. */
function gappyBus() {
  const inner = new MemoryMessageBus();
  const gaps = new Set<() => void>();
  const bus: MessageBus = {
    publish: (topic, message) => inner.publish(topic, message),
    subscribe: async (topic, onMessage, options) => {
      const subscription = await inner.subscribe(topic, onMessage);
      const onGap = options?.onGap;
      if (onGap !== undefined) gaps.add(onGap);
      return {
        unsubscribe: async () => {
          if (onGap !== undefined) gaps.delete(onGap);
          await subscription.unsubscribe();
        },
      };
    },
  };
  return { bus, inner, gap: () => [...gaps].forEach((onGap) => void onGap()), gaps };
}

describe("a gap in a replica's bus subscription (notifications may have been missed)", () => {
  it("tells each listen stream and 2025-era session everything it holds may have changed", async () => {
    const { bus, gap, gaps } = gappyBus();
    const logger = recordingLogger();
    const mcp = new MCPServer("fleet", { logger });
    mcp.tool("first", {}, () => "one");
    attach(mcp, bus);
    await vi.waitFor(() => expect(gaps.size).toBe(1));
    const stream = await listen(mcp, { toolsListChanged: true, resourceSubscriptions: ["notes://1"] });
    const box = inbox();
    const session = sessionInto(box, "subscribed");
    await handshake(mcp, session);
    await mcp.handle(legacyRequest("resources/subscribe", { uri: "notes://1" }), legacyEnv(session));
    const quiet = inbox();
    await handshake(mcp, sessionInto(quiet, "unsubscribed"));

    gap();
    await Promise.all([
      stream.received(UPDATED),
      stream.received(LIST_CHANGED),
      box.received(UPDATED),
      box.received(LIST_CHANGED),
      quiet.received(LIST_CHANGED),
    ]);

    const tag = { _meta: { "io.modelcontextprotocol/subscriptionId": "listen-1" } };
    expect(stream.notified.slice(1)).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", method: UPDATED, params: { uri: "notes://1", ...tag } },
        { jsonrpc: "2.0", method: LIST_CHANGED, params: tag },
      ]),
    );
    // What the stream did not ask for, it is not told.
    expect(stream.methods().filter((method) => method !== UPDATED && method !== LIST_CHANGED)).toEqual([
      "notifications/subscriptions/acknowledged",
    ]);
    expect(box.notified).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", method: UPDATED, params: { uri: "notes://1" } },
        { jsonrpc: "2.0", method: LIST_CHANGED },
      ]),
    );
    expect(quiet.methods()).not.toContain(UPDATED);
    expect(quiet.methods()).toContain(LIST_CHANGED);
    // Only what the server advertises: no prompts list_changed when it declares no prompts.
    const advertised = (["tools", "prompts", "resources"] as const).filter(
      (kind) => mcp.server.capabilities[kind]?.listChanged === true,
    );
    expect(new Set(quiet.methods())).toEqual(
      new Set(advertised.map((kind) => `notifications/${kind}/list_changed`)),
    );
    expect(logger.records.map((r) => [r.level, r.message])).toEqual([["warn", GAP_WARNING]]);
  });

  it("is no gap after the bus was detached", async () => {
    const { bus, gaps } = gappyBus();
    const mcp = new MCPServer("fleet");
    mcp.tool("first", {}, () => "one");
    const detach = attach(mcp, bus);
    await vi.waitFor(() => expect(gaps.size).toBe(1));
    const box = inbox();
    await handshake(mcp, sessionInto(box));
    const stale = [...gaps];
    detach();
    for (const onGap of stale) onGap();
    mcp.server.notifyListChanged("prompts");
    expect(box.methods()).toEqual([PROMPTS_CHANGED]);
  });
});

describe("attachBus", () => {
  it("refuses something that is not a bus, and a second bus while one is attached", () => {
    const server = new Server("s", { onListTools: () => ({ tools: [] }) });
    expect(() => server.attachBus({} as MessageBus)).toThrow(
      new TypeError("Server.attachBus: bus must be a MessageBus (with publish and subscribe)"),
    );
    attach(server, new MemoryMessageBus());
    expect(() => server.attachBus(new MemoryMessageBus())).toThrow(TypeError);
  });

  it("is absent from the path of a server without a bus: delivery before the call returns, nothing published", async () => {
    const bus = new MemoryMessageBus();
    const seen: BusMessage[] = [];
    await bus.subscribe(SERVER_BUS_TOPIC, (message) => seen.push(message));
    const server = new Server("s", { onListTools: () => ({ tools: [] }) });
    const box = inbox();
    await handshake(server, sessionInto(box));

    server.notifyListChanged("tools");
    expect(box.methods()).toEqual([LIST_CHANGED]);
    const marker = new Promise<void>((resolve) => void bus.subscribe("marker", () => resolve()));
    await bus.publish("marker", {});
    await marker;
    expect(seen).toEqual([]);
  });
});
