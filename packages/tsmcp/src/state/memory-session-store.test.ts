/**
 * The in-memory SessionStore: the shared contract on an injected clock, then its own bound.
 */
import { describe, expect, it } from "vitest";
import { manualClock } from "../../../../test/helpers/replay-cache-contract.js";
import { sessionStoreContract } from "../../../../test/helpers/session-store-contract.js";
import { DEFAULT_MEMORY_MAX_SESSIONS, MemorySessionStore } from "./memory-session-store.js";

sessionStoreContract("MemorySessionStore", (clock) => {
  const store = new MemorySessionStore({ clock });
  return { store, peer: store, advance: (ms) => clock.advance(ms) };
});

describe("MemorySessionStore's bound", () => {
  const record = {
    protocolVersion: "2025-11-25",
    clientInfo: {},
    clientCapabilities: {},
    initialized: false,
    resourceSubscriptions: [],
  };

  it("holds 10 000 sessions by default", () => {
    expect(new MemorySessionStore().maxSessions).toBe(DEFAULT_MEMORY_MAX_SESSIONS);
    expect(DEFAULT_MEMORY_MAX_SESSIONS).toBe(10_000);
  });

  it("drops expired sessions to make room, and refuses one more live session with a RangeError", async () => {
    const clock = manualClock();
    const store = new MemorySessionStore({ maxSessions: 2, clock });
    await store.create("short", record, 1_000);
    await store.create("long", record, 60_000);
    clock.advance(1_000);
    await store.create("new", record, 60_000);
    expect(store.size).toBe(2);
    await expect(store.create("more", record, 60_000)).rejects.toThrow(RangeError);
    await expect(store.get("long", 60_000)).resolves.toBeDefined();
  });

  it("checks its options when it is built", () => {
    expect(() => new MemorySessionStore({ maxSessions: 0 })).toThrow(RangeError);
    expect(() => new MemorySessionStore({ clock: {} as never })).toThrow(TypeError);
    expect(() => new MemorySessionStore(null as never)).toThrow(TypeError);
  });
});
