/**
 * Two replicas of one MCPServer, each with its own createRedisState on one real redis-server (as
 * two processes would be), their buses attached: a notification that belongs to no request, made
 * on one replica, reaches a `subscriptions/listen` stream held by the other, once.
 */
import { MCPServer } from "tsmcp/server";
import type { JSONRPCNotification } from "tsmcp/types";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { rpc } from "../../../test/helpers/meta.js";
import { type RedisServer, startRedisServer } from "../../../test/helpers/redis-server.js";
import { createRedisState, type RedisState } from "./state.js";

let server: RedisServer;
let states: RedisState[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  states = await Promise.all([0, 1].map(() => createRedisState({ url: server.url, keyPrefix: "fleet:" })));
});

afterAll(async () => {
  await Promise.all(states.map((state) => state.close()));
  await server?.close();
});

/** A replica attached to `state`'s bus until the test ends. */
function replica(state: RedisState): MCPServer {
  const mcp = new MCPServer("fleet");
  mcp.tool("first", {}, () => "one");
  onTestFinished(mcp.attachBus(state.bus));
  return mcp;
}

/** A `subscriptions/listen` stream on `mcp`: what it received, and a wait for the nth of a method. */
async function listen(mcp: MCPServer) {
  const notified: JSONRPCNotification[] = [];
  const waiters = new Set<() => void>();
  const controller = new AbortController();
  onTestFinished(() => controller.abort());
  const received = (method: string, times = 1) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (notified.filter((n) => n.method === method).length < times) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  void mcp.handle(
    rpc("subscriptions/listen", { notifications: { toolsListChanged: true, promptsListChanged: true } }, "l"),
    {
      signal: controller.signal,
      notify: (notification: JSONRPCNotification) => {
        notified.push(notification);
        for (const waiter of [...waiters]) waiter();
      },
    },
  );
  await received("notifications/subscriptions/acknowledged");
  return { methods: () => notified.map((n) => n.method), received };
}

describe("replicas sharing Redis", () => {
  it("carry a tool registered on one replica to a listen stream on the other, once", async () => {
    const [a, b] = [replica(states[0] as RedisState), replica(states[1] as RedisState)];
    const stream = await listen(b);
    // B's own change comes back through Redis: B's subscription is live from then on.
    b.prompt("warm", {}, () => "warm");
    await stream.received("notifications/prompts/list_changed");
    a.tool("second", {}, () => "two");
    a.prompt("marker", {}, () => "marker");
    await stream.received("notifications/prompts/list_changed", 2);
    expect(stream.methods()).toEqual([
      "notifications/subscriptions/acknowledged",
      "notifications/prompts/list_changed",
      "notifications/tools/list_changed",
      "notifications/prompts/list_changed",
    ]);
  });
});
