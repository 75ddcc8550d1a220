/**
 * The Redis EventStore against a real redis-server: the shared contract (expiry on Redis's own
 * clock), then its ids, key layout and options.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventStoreContract } from "../../../test/helpers/event-store-contract.js";
import type { RedisClientLike } from "./client.js";
import {
  DEFAULT_REDIS_EVENT_TTL_MS,
  DEFAULT_REDIS_MAX_EVENTS_PER_STREAM,
  RedisEventStore,
} from "./event-store.js";
import { elapse, type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";

let fixture: RedisFixture;
let client: RedisClientLike;
let other: RedisClientLike;

beforeAll(async () => {
  fixture = await startRedisFixture();
  [client, other] = await Promise.all([fixture.connect(), fixture.connect()]);
});

afterAll(async () => {
  await fixture?.close();
});

eventStoreContract(
  "RedisEventStore",
  ({ ttlMs, maxEventsPerStream }) => {
    const options = { keyPrefix: fixture.keyPrefix, ttlMs, maxEventsPerStream };
    return {
      store: new RedisEventStore(client, options),
      peer: new RedisEventStore(other, options),
      advance: elapse,
    };
  },
  { ttlMs: 1_500 },
);

describe("RedisEventStore's ids and keys", () => {
  it("hands out {streamId}_{Redis entry id}, from a Redis Stream trimmed to maxEventsPerStream", async () => {
    const store = new RedisEventStore(client, { keyPrefix: fixture.keyPrefix, maxEventsPerStream: 2 });
    const id = await store.append("session:1", "0", { jsonrpc: "2.0", method: "notifications/ping" });
    expect(id).toMatch(/^0_\d+-\d+$/);
    await store.append("session:1", "0", undefined);
    await store.append("session:1", "0", undefined);
    const key = `${fixture.keyPrefix}events:{session%3A1}:0`;
    await expect(client.sendCommand(["TYPE", key])).resolves.toBe("stream");
    await expect(client.sendCommand(["XLEN", key])).resolves.toBe(2);
    await expect(
      client.sendCommand(["SMEMBERS", `${fixture.keyPrefix}events:{session%3A1}`]),
    ).resolves.toEqual(["0"]);
    const ttl = await client.sendCommand<number>(["PTTL", key]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(DEFAULT_REDIS_EVENT_TTL_MS);
  });

  it("keeps appendOnce keys in a sorted set beside the stream, trimmed to maxEventsPerStream", async () => {
    const store = new RedisEventStore(client, { keyPrefix: fixture.keyPrefix, maxEventsPerStream: 2 });
    const message = { jsonrpc: "2.0", method: "notifications/tools/list_changed" } as const;
    for (const key of ["k1", "k2", "k3"]) await store.appendOnce("once", "0", key, message);
    const once = `${fixture.keyPrefix}events:{once}:0:once`;
    await expect(client.sendCommand(["TYPE", once])).resolves.toBe("zset");
    await expect(client.sendCommand(["ZRANGE", once, "0", "-1"])).resolves.toEqual(["k2", "k3"]);
    await expect(client.sendCommand<number>(["PTTL", once])).resolves.toBeGreaterThan(0);
    await expect(store.appendOnce("once", "0", "k3", message)).resolves.toBeUndefined();
    await expect(store.appendOnce("once", "0", "k1", message)).resolves.toMatch(/^0_\d+-\d+$/);
    await store.dropSession("once");
    await expect(client.sendCommand(["EXISTS", once])).resolves.toBe(0);
  });

  it("knows no position that is not a Redis entry id, nor one inside the kept range never handed out", async () => {
    const store = new RedisEventStore(client, { keyPrefix: fixture.keyPrefix });
    const first = await store.append("s", "x", undefined);
    await store.append("s", "x", undefined);
    const [ms, seq] = (first.split("_")[1] as string).split("-");
    for (const position of [
      "1",
      "1-",
      "-1",
      "1-2-3",
      "99999999999999999999-0",
      `${ms}-${Number(seq) + 1000}`,
    ]) {
      await expect(store.after("s", `x_${position}`)).resolves.toBeUndefined();
    }
    await expect(store.after("s", "x_0-1")).resolves.toMatchObject({ streamId: "x", events: [{}, {}] });
  });

  it("defaults to 100 events per stream kept 30 minutes, and checks its options", () => {
    const store = new RedisEventStore(client);
    expect([store.maxEventsPerStream, store.ttlMs]).toEqual([
      DEFAULT_REDIS_MAX_EVENTS_PER_STREAM,
      DEFAULT_REDIS_EVENT_TTL_MS,
    ]);
    expect(() => new RedisEventStore(client, { maxEventsPerStream: 0 })).toThrow(RangeError);
    expect(() => new RedisEventStore(client, { ttlMs: "1" as never })).toThrow(TypeError);
    expect(() => new RedisEventStore(undefined as never)).toThrow(TypeError);
  });
});
