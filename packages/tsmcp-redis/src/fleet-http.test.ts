/**
 * Replicas serving handshake-era sessions over HTTP, each with a createRedisState of its own on one
 * real redis-server (as separate processes would have), reached round-robin: resource updates
 * keep reaching the sessions' GET streams after Redis restarts.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "tsmcp/client";
import { MCPServer } from "tsmcp/server";
import { silentLogger } from "tsmcp/types";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type RedisServer, startRedisServer } from "../../../test/helpers/redis-server.js";
import { type Replicas, startReplicas } from "../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../test/helpers/request-state.js";
import { createRedisState, type RedisState } from "./state.js";

let redis: RedisServer | undefined;
let states: RedisState[] = [];
let fleet: Replicas | undefined;

afterAll(async () => {
  await fleet?.close();
  await Promise.all(states.map((state) => state.close()));
  await redis?.close();
});

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

describe("handshake-era sessions on Redis across replicas", () => {
  it("keep getting resource updates on their GET streams after Redis restarts", async () => {
    redis = await startRedisServer({
      persistent: true,
      dir: mkdtempSync(join(tmpdir(), "tsmcp-fleet-http-")),
    });
    const url = redis.url;
    states = await Promise.all([0, 1, 2].map(() => createRedisState({ url, keyPrefix: "fh:" })));
    fleet = await startReplicas(3, () => replicaServer(), {
      http: { logger: silentLogger },
      state: (index) => states[index] as RedisState,
    });
    const uris = Array.from({ length: 12 }, (_, n) => `news://${n}`);
    const ours = new Set<string>();
    const client = await Client.connect(fleet.transport(), { protocolVersion: "legacy" });
    const subscription = client.listen({ resourceSubscriptions: uris }, (notification) => {
      ours.add((notification.params as { uri: string }).uri);
    });
    await subscription.acknowledged;
    const theirs = new Set<string>();
    const v1 = new ClientV1({ name: "v1", version: "1" }, { capabilities: {} });
    v1.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      theirs.add(n.params.uri);
    });
    await v1.connect(new StreamableHTTPClientTransport(fleet.url, { fetch: fleet.fetch }));
    for (const uri of uris) await v1.subscribeResource({ uri });
    for (let i = 0; i < 3; i++) await client.callTool("noop", {});

    const servers = fleet.servers as MCPServer[];
    const touch = async (n: number) => {
      for (;;) {
        if (await servers[n % 3]?.notifyResourceUpdated(uris[n] as string)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    for (let n = 0; n < 6; n++) await touch(n);
    await vi.waitFor(() => expect([ours.size, theirs.size]).toEqual([6, 6]), { timeout: 10_000 });
    await redis.restart();
    // Once every replica's connections are back (updates sent during the outage are the fleet
    // run's concern).
    await Promise.all(states.map((state) => state.ready()));
    for (let n = 6; n < 12; n++) await touch(n);
    await vi.waitFor(() => expect([ours.size, theirs.size]).toEqual([12, 12]), { timeout: 15_000 });
    subscription.close();
    await client.close();
    await v1.close();
  });
});
