/**
 * The in-memory EventStore: the shared contract on an injected clock, then its defaults.
 */
import { describe, expect, it } from "vitest";
import { eventStoreContract } from "../../../../test/helpers/event-store-contract.js";
import {
  DEFAULT_EVENT_TTL_MS,
  DEFAULT_MAX_EVENTS_PER_STREAM,
  MemoryEventStore,
} from "./memory-event-store.js";

eventStoreContract("MemoryEventStore", ({ clock, ttlMs, maxEventsPerStream }) => {
  const store = new MemoryEventStore({ clock, ttlMs, maxEventsPerStream });
  return { store, peer: store, advance: (ms) => clock.advance(ms) };
});

describe("MemoryEventStore's options", () => {
  it("default to 100 events per stream kept 30 minutes", () => {
    const store = new MemoryEventStore();
    expect(store.maxEventsPerStream).toBe(DEFAULT_MAX_EVENTS_PER_STREAM);
    expect(store.ttlMs).toBe(DEFAULT_EVENT_TTL_MS);
    expect([DEFAULT_MAX_EVENTS_PER_STREAM, DEFAULT_EVENT_TTL_MS]).toEqual([100, 30 * 60 * 1000]);
  });

  it("are checked when it is built", () => {
    expect(() => new MemoryEventStore({ maxEventsPerStream: 0 })).toThrow(RangeError);
    expect(() => new MemoryEventStore({ ttlMs: 0 })).toThrow(RangeError);
    expect(() => new MemoryEventStore({ clock: {} as never })).toThrow(TypeError);
    expect(() => new MemoryEventStore(null as never)).toThrow(TypeError);
  });
});
