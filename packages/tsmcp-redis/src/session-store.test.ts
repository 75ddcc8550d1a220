/**
 * The Redis SessionStore against a real redis-server: the shared contract (expiry on Redis's own
 * clock), then its key layout and options.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionStoreContract } from "../../../test/helpers/session-store-contract.js";
import type { RedisClientLike } from "./client.js";
import { elapse, type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";
import { RedisSessionStore } from "./session-store.js";

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

sessionStoreContract(
  "RedisSessionStore",
  () => ({
    store: new RedisSessionStore(client, { keyPrefix: fixture.keyPrefix }),
    peer: new RedisSessionStore(other, { keyPrefix: fixture.keyPrefix }),
    advance: elapse,
  }),
  { idleTimeoutMs: 1_500 },
);

describe("RedisSessionStore's keys", () => {
  const record = {
    protocolVersion: "2025-11-25",
    clientInfo: { name: "c" },
    clientCapabilities: {},
    initialized: false,
    resourceSubscriptions: [],
  };

  it("keeps a session in one hash under the prefix, one JSON field per fact, its idle timeout the TTL", async () => {
    const store = new RedisSessionStore(client, { keyPrefix: fixture.keyPrefix });
    await store.create("a:b{c}", { ...record, logLevel: undefined }, 60_000);
    const key = `${fixture.keyPrefix}session:a%3Ab%7Bc%7D`;
    expect(store.keyOf("a:b{c}")).toBe(key);
    await expect(client.sendCommand(["HGETALL", key])).resolves.toEqual([
      "protocolVersion",
      '"2025-11-25"',
      "clientInfo",
      '{"name":"c"}',
      "clientCapabilities",
      "{}",
      "initialized",
      "false",
    ]);
    const ttl = await client.sendCommand<number>(["PTTL", key]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await store.touch("a:b{c}", 120_000);
    await expect(client.sendCommand<number>(["PTTL", key])).resolves.toBeGreaterThan(60_000);
  });

  it("uses the default prefix tsmcp:", () => {
    expect(new RedisSessionStore(client).keyOf("s")).toBe("tsmcp:session:s");
  });

  it("refuses an idle timeout that is not a whole number of milliseconds from 1", async () => {
    const store = new RedisSessionStore(client, { keyPrefix: fixture.keyPrefix });
    await expect(store.create("x", record, 0)).rejects.toThrow(RangeError);
    await expect(store.touch("x", 1.5)).rejects.toThrow(RangeError);
    await expect(store.get("x", "5" as never)).rejects.toThrow(TypeError);
  });

  it("checks its client and options when it is built", () => {
    expect(() => new RedisSessionStore({} as never)).toThrow(TypeError);
    expect(() => new RedisSessionStore(client, { commandTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => new RedisSessionStore(client, { keyPrefix: 1 as never })).toThrow(TypeError);
    expect(() => new RedisSessionStore(client, null as never)).toThrow(TypeError);
  });
});
