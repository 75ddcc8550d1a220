/**
 * The Redis ReplayCache against a real redis-server: the shared contract (its times moved onto
 * the real clock, since Redis expires keys on its own), then expiry at `expiresAtMs`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replayCacheContract } from "../../../test/helpers/replay-cache-contract.js";
import type { RedisClientLike } from "./client.js";
import { elapse, type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";
import { RedisReplayCache } from "./replay-cache.js";

let fixture: RedisFixture;
let client: RedisClientLike;

beforeAll(async () => {
  fixture = await startRedisFixture();
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
});

replayCacheContract("RedisReplayCache", (clock) => {
  const cache = new RedisReplayCache(client, { keyPrefix: fixture.keyPrefix });
  // The contract's times, as far from now on the real clock as they are from its manual one.
  return {
    cache: { markUsed: (id, expiresAtMs) => cache.markUsed(id, Date.now() + (expiresAtMs - clock.now())) },
  };
});

describe("RedisReplayCache's expiry", () => {
  it("remembers an id until its expiresAtMs and forgets it then (SET NX PXAT)", async () => {
    const cache = new RedisReplayCache(client, { keyPrefix: fixture.keyPrefix });
    const expiresAtMs = Date.now() + 300;
    await expect(cache.markUsed("soon", expiresAtMs)).resolves.toBe(true);
    await expect(cache.markUsed("soon", expiresAtMs)).resolves.toBe(false);
    const left = await client.sendCommand<number>(["PEXPIRETIME", `${fixture.keyPrefix}replay:soon`]);
    expect(left).toBe(expiresAtMs);
    await elapse(expiresAtMs - Date.now());
    await expect(cache.markUsed("soon", Date.now() + 60_000)).resolves.toBe(true);
  });

  it("rejects an empty id or a non-finite expiry, and checks its options", async () => {
    const cache = new RedisReplayCache(client);
    await expect(cache.markUsed("", Date.now() + 1_000)).rejects.toThrow(TypeError);
    await expect(cache.markUsed("x", Number.POSITIVE_INFINITY)).rejects.toThrow(TypeError);
    expect(() => new RedisReplayCache(client, { retryAfterMs: -1 })).toThrow(RangeError);
  });
});
