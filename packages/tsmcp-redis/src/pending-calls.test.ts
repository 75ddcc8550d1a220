/**
 * The Redis PendingCallStore against a real redis-server: the shared contract, the keys' expiry
 * instants, two connections racing for one ticket, and a connection that is down.
 */
import { StateUnavailableError } from "tsmcp/state";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parkedCall, pendingCallStoreContract } from "../../../test/helpers/pending-call-store-contract.js";
import type { RedisClientLike } from "./client.js";
import { REDIS_EXPIRED_CALL_GRACE_MS, RedisPendingCallStore } from "./pending-calls.js";
import { type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";

let fixture: RedisFixture;
let client: RedisClientLike;
let stores = 0;

beforeAll(async () => {
  fixture = await startRedisFixture();
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
});

/** A store under a key prefix of its own (the contract wants an empty store each time). */
function freshStore(on: RedisClientLike = client): RedisPendingCallStore {
  stores += 1;
  return new RedisPendingCallStore(on, { keyPrefix: `${fixture.keyPrefix}${stores}:` });
}

pendingCallStoreContract("RedisPendingCallStore", () => freshStore());

describe("RedisPendingCallStore on Redis", () => {
  it("keeps a call until an hour past its deadline and its tombstone until the deadline", async () => {
    const store = freshStore();
    const prefix = `${fixture.keyPrefix}${stores}:`;
    const call = parkedCall();
    await store.put(call);
    const callExpiry = await client.sendCommand<number>(["PEXPIRETIME", `${prefix}parked:${call.ticket}`]);
    expect(callExpiry).toBe(call.deadlineMs + REDIS_EXPIRED_CALL_GRACE_MS);
    expect(await client.sendCommand<number>(["PEXPIRETIME", `${prefix}parked`])).toBe(callExpiry);
    expect((await store.claim(call.ticket, Date.now())).status).toBe("claimed");
    const tombstoneExpiry = await client.sendCommand<number>([
      "PEXPIRETIME",
      `${prefix}parked-claimed:${call.ticket}`,
    ]);
    expect(tombstoneExpiry).toBe(call.deadlineMs);
    expect(await client.sendCommand<number>(["EXISTS", `${prefix}parked:${call.ticket}`])).toBe(0);
  });

  it("lets one of two connections racing for a ticket claim it", async () => {
    const other = await fixture.connect();
    const here = freshStore();
    const there = new RedisPendingCallStore(other, { keyPrefix: `${fixture.keyPrefix}${stores}:` });
    const call = parkedCall();
    await here.put(call);
    const results = await Promise.all([
      here.claim(call.ticket, Date.now()),
      there.claim(call.ticket, Date.now()),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["claimed", "resumed"]);
  });

  it("leaves out of the list a call Redis already forgot, and drops it from the index", async () => {
    const store = freshStore();
    const prefix = `${fixture.keyPrefix}${stores}:`;
    const kept = parkedCall();
    const forgotten = parkedCall();
    await store.put(kept);
    await store.put(forgotten);
    await client.sendCommand(["DEL", `${prefix}parked:${forgotten.ticket}`]);
    expect((await store.list(Date.now())).map((call) => call.ticket)).toEqual([kept.ticket]);
    expect(await client.sendCommand<string[]>(["ZRANGE", `${prefix}parked`, "0", "-1"])).toEqual([
      kept.ticket,
    ]);
  });

  it("refuses a malformed ticket or call, and a non-finite now", async () => {
    const store = freshStore();
    await expect(store.get("../../etc/passwd")).rejects.toThrow(TypeError);
    await expect(store.put({ ...parkedCall(), round: "one" } as never)).rejects.toThrow(TypeError);
    await expect(store.claim(parkedCall().ticket, Number.NaN)).rejects.toThrow(TypeError);
    expect(() => new RedisPendingCallStore(client, { commandTimeoutMs: 0 })).toThrow(RangeError);
  });

  it("rejects with StateUnavailableError when the connection is down, claiming nothing", async () => {
    const other = await fixture.connect();
    const down = freshStore(other);
    const up = new RedisPendingCallStore(client, { keyPrefix: `${fixture.keyPrefix}${stores}:` });
    const call = parkedCall();
    await up.put(call);
    other.destroy();
    await expect(down.claim(call.ticket, Date.now())).rejects.toThrow(StateUnavailableError);
    expect((await up.claim(call.ticket, Date.now())).status).toBe("claimed");
  });
});
