import { describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { MemorySessionStore } from "../../../state/memory-session-store.js";
import { DEFAULT_BACK_CHANNEL_TIMEOUT_MS, type Dispatcher } from "../../dispatcher.js";
import { createHttpHandler } from "../server/server-handler.js";
import {
  checkSessionOptions,
  DEFAULT_LEGACY_MODE,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_OWNER_PING_TIMEOUT_MS,
  DEFAULT_RETRY_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  WORKERS_LEGACY_MODE,
} from "./options.js";
import { mintSessionId } from "./registry.js";

const dispatcher: Dispatcher = { handle: async () => undefined };

describe("session options", () => {
  it("pin their defaults", () => {
    expect(DEFAULT_LEGACY_MODE).toBe("session");
    expect(WORKERS_LEGACY_MODE).toBe("stateless");
    expect(DEFAULT_MAX_SESSIONS).toBe(1000);
    expect(DEFAULT_SESSION_IDLE_TIMEOUT_MS).toBe(1_800_000);
    expect(DEFAULT_MAX_QUEUED_EVENTS).toBe(100);
    expect(DEFAULT_RETRY_MS).toBe(1000);
    expect(DEFAULT_BACK_CHANNEL_TIMEOUT_MS).toBe(60_000);
    expect(DEFAULT_OWNER_PING_TIMEOUT_MS).toBe(2000);
    const { state, ...rest } = checkSessionOptions("test", {});
    expect(rest).toEqual({
      legacy: "session",
      maxSessions: 1000,
      sessionIdleTimeoutMs: 1_800_000,
      maxQueuedEvents: 100,
      retryMs: 1000,
      backChannelTimeoutMs: 60_000,
      ownerPingTimeoutMs: 2000,
    });
    expect(state.shared).toBe(false);
    expect(state.bus).toBeUndefined();
    expect(state.sessions).toBeInstanceOf(MemorySessionStore);
    expect((state.sessions as MemorySessionStore).maxSessions).toBe(1000);
    expect(state.events).toBeInstanceOf(MemoryEventStore);
    expect((state.events as MemoryEventStore).maxEventsPerStream).toBe(100);
    expect((state.events as MemoryEventStore).ttlMs).toBe(1_800_000);
  });

  it.each([
    [{ legacy: "sessions" }, TypeError],
    [{ legacy: true }, TypeError],
    [{ maxSessions: 0 }, RangeError],
    [{ maxSessions: 1.5 }, RangeError],
    [{ maxSessions: "10" }, TypeError],
    [{ sessionIdleTimeoutMs: 0 }, RangeError],
    [{ sessionIdleTimeoutMs: 2 ** 31 }, RangeError],
    [{ maxQueuedEvents: 0 }, RangeError],
    [{ retryMs: -1 }, RangeError],
    [{ backChannelTimeoutMs: 0 }, RangeError],
    [{ ownerPingTimeoutMs: 0 }, RangeError],
    [{ ownerPingTimeoutMs: 2 ** 31 }, RangeError],
    [{ ownerPingTimeoutMs: "2s" }, TypeError],
    [{ state: { events: () => new MemoryEventStore() } }, TypeError],
    [{ state: "redis" }, TypeError],
    [{ state: { sessions: {} } }, TypeError],
    [{ state: { events: new MemorySessionStore() } }, TypeError],
    [{ state: { bus: { publish() {} } } }, TypeError],
  ])("refuse %j when the handler is built", (options, errorClass) => {
    expect(() => createHttpHandler(dispatcher, options as never)).toThrow(errorClass);
  });

  it("accept every mode", () => {
    for (const legacy of ["session", "stateless", "reject"] as const) {
      expect(checkSessionOptions("test", { legacy }).legacy).toBe(legacy);
    }
  });
});

describe("session ids", () => {
  it("are random UUIDs of visible ASCII", () => {
    const ids = new Set(Array.from({ length: 100 }, mintSessionId));
    expect(ids.size).toBe(100);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
