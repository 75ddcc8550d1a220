/**
 * FleetRouting's subscriptions on the bus: `ready()` takes both of its topics or neither, so a
 * replica whose engine refused one of them is not left hearing the other twice once it retries.
 */
import { describe, expect, it } from "vitest";
import type { JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { MemoryMessageBus } from "../../../state/memory-message-bus.js";
import type { BusMessage, BusSubscription, MessageBus } from "../../../state/message-bus.js";
import { FleetRouting, instanceTopic, SESSIONS_TOPIC } from "./fleet-routing.js";

/** A bus in one process that refuses the next subscription to the topics in `refuse`. */
function refusingBus(inner: MemoryMessageBus, refuse: Set<string>): MessageBus {
  return {
    publish: (topic, message) => inner.publish(topic, message),
    subscribe: (topic: string, onMessage: (message: BusMessage) => void): Promise<BusSubscription> => {
      if (refuse.delete(topic)) return Promise.reject(new Error(`bus refused ${topic}`));
      return inner.subscribe(topic, onMessage);
    },
  };
}

describe("FleetRouting.ready", () => {
  it("ends the subscription that succeeded when the other failed, so a retry hears each topic once", async () => {
    const inner = new MemoryMessageBus();
    const settled: JSONRPCResponse[] = [];
    const routing = new FleetRouting(
      refusingBus(inner, new Set([SESSIONS_TOPIC])),
      "a",
      {
        settle: (_sessionId, response) => settled.push(response),
        ended: () => {},
        cancel: () => {},
        refresh: () => {},
      },
      () => {},
    );

    await expect(routing.ready()).rejects.toThrow(`bus refused ${SESSIONS_TOPIC}`);
    // Nothing is left half subscribed: the instance topic has no listener.
    await expect(inner.publish(instanceTopic("a"), { type: "pong", nonce: "x" })).resolves.toBe(0);

    await routing.ready();
    await expect(inner.publish(SESSIONS_TOPIC, { type: "ended", sessionId: "s" })).resolves.toBe(1);
    const response: JSONRPCResponse = { jsonrpc: "2.0", id: "a-1", result: {} };
    await expect(
      inner.publish(instanceTopic("a"), { type: "response", sessionId: "s", response }),
    ).resolves.toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toEqual([response]);
    routing.close();
  });
});
