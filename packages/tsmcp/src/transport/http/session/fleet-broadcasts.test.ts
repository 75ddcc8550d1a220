/**
 * Notifications that belong to no request (resources/updated, list_changed) reach a handshake-era
 * session once, whichever replica of a fleet made the change and whichever holds the session's
 * GET stream, although every replica holding a view of the session delivers them: three `serve`
 * handlers on 127.0.0.1 sharing in-memory stores and a bus, reached round-robin by tsmcp's client.
 */

import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryState, type Replicas, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { Client } from "../../../client/client.js";
import type { ListenNotification } from "../../../client/session-options.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import type { MessageBus } from "../../../state/message-bus.js";
import { post } from "../http-test-fixtures.js";
import { getStream, initialize, legacyHeaders, legacyRequest } from "./session-test-fixtures.js";

function replicaServer(): MCPServer {
  const mcp = new MCPServer("fleet-news", {
    version: "1.0.0",
    logger: silentLogger,
    requestStateSecurity: testRequestStateSecurity(),
  });
  mcp.resource("news://{n}", { mimeType: "text/plain" }, async ({ n }) => `news ${n}`);
  mcp.tool("noop", {}, () => "ok");
  return mcp;
}

let fleet: Replicas | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

describe("broadcasts to handshake-era sessions across replicas", () => {
  it("reach a session once, from any replica, subscriptions made on other replicas included", async () => {
    fleet = await startReplicas(3, () => replicaServer(), { http: { logger: silentLogger } });
    const client = await Client.connect(fleet.transport(), { protocolVersion: "legacy" });
    const received: ListenNotification[] = [];
    const uris = ["news://1", "news://2", "news://3", "news://4"];
    const subscription = client.listen({ resourceSubscriptions: uris }, (notification) => {
      received.push(notification);
    });
    await subscription.acknowledged;
    // Every replica now holds a view of the session (its requests went round-robin).
    for (let i = 0; i < 3; i++) await client.callTool("noop", {});
    expect(fleet.hits.every((hits) => hits > 0)).toBe(true);

    const servers = fleet.servers as MCPServer[];
    for (const [index, uri] of uris.entries()) {
      await expect(servers[index % 3]?.notifyResourceUpdated(uri)).resolves.toBe(true);
    }
    await vi.waitFor(() => expect(received).toHaveLength(uris.length), { timeout: 10_000 });
    // A later marker arrives after any duplicate of the ones before it would have.
    await servers[2]?.notifyResourceUpdated("news://1");
    await vi.waitFor(() => expect(received).toHaveLength(uris.length + 1), { timeout: 10_000 });

    expect(received.map((notification) => (notification.params as { uri: string }).uri)).toEqual([
      ...uris,
      "news://1",
    ]);
    subscription.close();
    await client.close();
  });

  it("reach a GET stream whose bus message was lost, from the event store", async () => {
    const shared = memoryState();
    const lost = { streams: true, count: 0 };
    // Stream events published while this is on never arrive (the bus was reconnecting).
    const bus: MessageBus = {
      publish: async (topic, message) => {
        if (lost.streams && topic.startsWith("tsmcp:stream:")) {
          lost.count++;
          return 0;
        }
        return shared.bus.publish(topic, message);
      },
      subscribe: (topic, onMessage) => shared.bus.subscribe(topic, onMessage),
    };
    fleet = await startReplicas(3, () => replicaServer(), {
      http: { logger: silentLogger },
      state: { ...shared, bus },
    });
    const client = await Client.connect(fleet.transport(), { protocolVersion: "legacy" });
    const received: string[] = [];
    const subscription = client.listen({ resourceSubscriptions: ["news://7"] }, (notification) => {
      received.push((notification.params as { uri: string }).uri);
    });
    await subscription.acknowledged;
    for (let i = 0; i < 3; i++) await client.callTool("noop", {});

    await (fleet.servers[1] as MCPServer).notifyResourceUpdated("news://7");
    await vi.waitFor(() => expect(received).toEqual(["news://7"]), { timeout: 10_000 });
    expect(lost.count).toBeGreaterThan(0);
    subscription.close();
    await client.close();
  });

  it("reach a GET stream resumed with Last-Event-ID on another replica, which hears the others too", async () => {
    const shared = memoryState();
    const subscribedBy: { replica: number; topic: string }[] = [];
    const busOf = (replica: number): MessageBus => ({
      publish: (topic, message) => shared.bus.publish(topic, message),
      subscribe: (topic, onMessage) => {
        subscribedBy.push({ replica, topic });
        return shared.bus.subscribe(topic, onMessage);
      },
    });
    fleet = await startReplicas(3, () => replicaServer(), {
      http: { logger: silentLogger },
      state: (index) => ({ ...shared, bus: busOf(index) }),
    });
    const [a, b, c] = fleet.urls as [URL, URL, URL];
    const sessionId = await initialize(a);
    await post(b, { jsonrpc: "2.0", method: "notifications/initialized" }, legacyHeaders(sessionId));
    const subscribed = await post(
      b,
      legacyRequest(2, "resources/subscribe", { uri: "news://1" }),
      legacyHeaders(sessionId),
    );
    expect(subscribed.status).toBe(200);
    const first = await getStream(b, sessionId);
    const reader = (first.body as ReadableStream<Uint8Array>).getReader();
    const priming = new TextDecoder().decode((await reader.read()).value);
    const lastEventId = /id: ?(\S+)/.exec(priming)?.[1] as string;
    await reader.cancel();

    const resumed = await getStream(c, sessionId, { "Last-Event-ID": lastEventId });
    expect(resumed.status).toBe(200);
    await vi.waitFor(() =>
      expect(subscribedBy).toContainEqual({ replica: 2, topic: `tsmcp:stream:${sessionId}:0` }),
    );
    await resumed.body?.cancel();
  });
});
