/**
 * The in-memory MessageBus: the shared contract, then its bound.
 */
import { describe, expect, it } from "vitest";
import { messageBusContract } from "../../../../test/helpers/message-bus-contract.js";
import { DEFAULT_MEMORY_BUS_MAX_PENDING, MemoryMessageBus } from "./memory-message-bus.js";

messageBusContract("MemoryMessageBus", (setup) => {
  const bus = new MemoryMessageBus(setup);
  return { bus, peer: bus, dropped: () => bus.dropped };
});

describe("MemoryMessageBus's bound", () => {
  it("holds 10 000 deliveries by default", () => {
    expect(DEFAULT_MEMORY_BUS_MAX_PENDING).toBe(10_000);
  });

  it("drops and counts what arrives while maxPending deliveries wait", async () => {
    const reports: unknown[] = [];
    const bus = new MemoryMessageBus({ maxPending: 2, onError: (error) => reports.push(error) });
    const received: unknown[] = [];
    await bus.subscribe("t", (message) => received.push(message));
    await Promise.all([1, 2, 3, 4].map((n) => bus.publish("t", { n })));
    await bus.publish("t", { n: 5 });
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(received).toEqual([{ n: 1 }, { n: 2 }, { n: 5 }]);
    expect(bus.dropped).toBe(2);
    expect(reports).toHaveLength(2);
  });

  it("checks its options when it is built", () => {
    expect(() => new MemoryMessageBus({ maxPending: 0 })).toThrow(RangeError);
  });
});
