/**
 * The in-memory ReplayCache: the shared contract, then its own bound (expired entries evicted
 * first; full of live entries, it refuses rather than forgets) and options, on an injected clock.
 */
import { describe, expect, it } from "vitest";
import { manualClock, replayCacheContract } from "../../../../test/helpers/replay-cache-contract.js";
import { ERROR_CODES } from "../protocol/local-errors.js";
import { ReplayCacheFullError } from "./errors.js";
import { DEFAULT_REPLAY_CACHE_MAX_ENTRIES, MemoryReplayCache } from "./memory-replay-cache.js";

replayCacheContract("MemoryReplayCache", (clock) => ({
  cache: new MemoryReplayCache({ clock }),
  advance: (ms) => clock.advance(ms),
}));

describe("MemoryReplayCache's bound", () => {
  it("holds 10 000 entries by default", () => {
    expect(new MemoryReplayCache().maxEntries).toBe(DEFAULT_REPLAY_CACHE_MAX_ENTRIES);
    expect(DEFAULT_REPLAY_CACHE_MAX_ENTRIES).toBe(10_000);
  });

  it("evicts expired entries first when full, keeping the live ones", async () => {
    const clock = manualClock();
    const cache = new MemoryReplayCache({ maxEntries: 3, clock });
    const now = clock.now();
    await cache.markUsed("short-1", now + 1_000);
    await cache.markUsed("short-2", now + 1_000);
    await cache.markUsed("long", now + 60_000);
    clock.advance(1_000);
    await expect(cache.markUsed("new", now + 60_000)).resolves.toBe(true);
    expect(cache.size).toBe(2);
    await expect(cache.markUsed("long", now + 60_000)).resolves.toBe(false);
  });

  it("refuses a new id with ReplayCacheFullError while every entry is live, and forgets none", async () => {
    const clock = manualClock();
    const cache = new MemoryReplayCache({ maxEntries: 2, clock });
    const until = clock.now() + 60_000;
    await cache.markUsed("a", until);
    await cache.markUsed("b", until);
    const full = cache.markUsed("c", until);
    await expect(full).rejects.toBeInstanceOf(ReplayCacheFullError);
    await expect(full).rejects.toMatchObject({ code: ERROR_CODES.ReplayCacheFullError, maxEntries: 2 });
    await expect(cache.markUsed("a", until)).resolves.toBe(false);
    await expect(cache.markUsed("b", until)).resolves.toBe(false);
    clock.advance(60_000);
    await expect(cache.markUsed("c", clock.now() + 60_000)).resolves.toBe(true);
  });

  it("rejects an empty id or a non-finite expiry", async () => {
    const cache = new MemoryReplayCache();
    await expect(cache.markUsed("", Date.now() + 1)).rejects.toThrow(TypeError);
    await expect(cache.markUsed("x", Number.NaN)).rejects.toThrow(TypeError);
  });
});

describe("MemoryReplayCache's options", () => {
  it("are checked when it is built", () => {
    expect(() => new MemoryReplayCache({ maxEntries: 0 })).toThrow(RangeError);
    expect(() => new MemoryReplayCache({ maxEntries: "5" as unknown as number })).toThrow(TypeError);
    expect(() => new MemoryReplayCache({ clock: {} as never })).toThrow(TypeError);
    expect(() => new MemoryReplayCache(null as never)).toThrow(TypeError);
  });
});
