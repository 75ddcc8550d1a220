/**
 * The Redis TaskStore against a real redis-server: the shared contract (expiry on Redis's own
 * clock, with short times to live), then its key layout, its memory bound and its options.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskStoreContract } from "../../../test/helpers/task-store-contract.js";
import type { RedisClientLike } from "./client.js";
import { elapse, type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";
import { RedisTaskStore } from "./task-store.js";

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

taskStoreContract(
  "RedisTaskStore",
  () => ({
    store: new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix }),
    peer: new RedisTaskStore(other, { keyPrefix: fixture.keyPrefix }),
    now: () => Date.now(),
    advance: elapse,
  }),
  { ttlMs: 400, totalBounds: false },
);

const CAP = { maxActivePerOwner: 10 };

function task(taskId: string, owner: string, overrides: Record<string, unknown> = {}) {
  const createdAtMs = Date.now();
  return {
    taskId,
    owner,
    status: "working" as const,
    createdAtMs,
    lastUpdatedAtMs: createdAtMs,
    ttlMs: 60_000,
    lease: { expiresAtMs: createdAtMs + 15_000, holder: "replica-a" },
    request: { method: "tools/call", params: { name: "t", arguments: { list: [], text: "é ✓ \u0000" } } },
    ...overrides,
  };
}

describe("RedisTaskStore's keys", () => {
  it("keeps a task in one hash, one JSON field per fact and per input, expiring at createdAtMs + ttlMs", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    const record = task("a:b{c}", "owner:1", {
      status: "input_required",
      inputRequests: { "elicit-1": { method: "elicitation/create" } },
    });
    await expect(store.create(record, CAP)).resolves.toBe("created");
    const key = `${fixture.keyPrefix}task:a%3Ab%7Bc%7D`;
    expect(store.keyOf("a:b{c}")).toBe(key);
    const fields = await client.sendCommand<string[]>(["HGETALL", key]);
    const hash = Object.fromEntries(
      Array.from({ length: fields.length / 2 }, (_, n) => [fields[2 * n], fields[2 * n + 1]]),
    );
    const base = `${fixture.keyPrefix}tasks:owner%3A1`;
    expect(store.ownerKeyOf("owner:1")).toBe(base);
    expect(hash).toMatchObject({
      status: '"input_required"',
      "in:elicit-1": '{"method":"elicitation/create"}',
      lease: JSON.stringify({ holder: "replica-a", expiresAtMs: record.lease.expiresAtMs }),
      request: JSON.stringify(record.request),
      ".o": base,
      ".e": String(record.createdAtMs + 60_000),
    });
    await expect(client.sendCommand(["PEXPIRETIME", key])).resolves.toBe(record.createdAtMs + 60_000);
    await expect(client.sendCommand(["ZSCORE", base, "a%3Ab%7Bc%7D"])).resolves.toBe(
      String(record.createdAtMs),
    );
    for (const set of [base, `${base}:exp`, `${base}:active`]) {
      await expect(client.sendCommand(["PEXPIRETIME", set]), set).resolves.toBe(record.createdAtMs + 60_000);
    }
    await store.update("a:b{c}", { status: "completed", result: { content: [] } });
    await expect(client.sendCommand(["ZCARD", `${base}:active`])).resolves.toBe(0);
    await expect(store.get("a:b{c}")).resolves.toMatchObject({ result: { content: [] } });
  });

  it("scores a running task in the owner's active set by the earlier of its expiry and its lease's", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    const active = `${store.ownerKeyOf("leases")}:active`;
    const record = task("leased", "leases");
    await store.create(record, CAP);
    await expect(client.sendCommand(["ZSCORE", active, "leased"])).resolves.toBe(
      String(record.lease.expiresAtMs),
    );
    const lease = { holder: "replica-a", expiresAtMs: record.createdAtMs + 120_000 };
    await store.update("leased", { lease });
    await expect(client.sendCommand(["ZSCORE", active, "leased"])).resolves.toBe(
      String(record.createdAtMs + 60_000),
    );
    await store.update("leased", { lease: null, ttlMs: null });
    await expect(client.sendCommand(["ZSCORE", active, "leased"])).resolves.toBe("inf");
    const unleased = task("unleased", "leases", { lease: undefined });
    await store.create(unleased, CAP);
    await expect(client.sendCommand(["ZSCORE", active, "unleased"])).resolves.toBe(
      String(unleased.createdAtMs + 60_000),
    );
  });

  it("drops expired tasks' ids from the owner's sets, and the sets with the owner's last task", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    const base = store.ownerKeyOf("sweep");
    await store.create(task("short-1", "sweep", { ttlMs: 100 }), CAP);
    await store.create(task("long-1", "sweep", { ttlMs: 400 }), CAP);
    await elapse(100);
    await store.list("sweep", { limit: 10 });
    await expect(client.sendCommand(["ZRANGE", base, "0", "-1"])).resolves.toEqual(["long-1"]);
    await expect(client.sendCommand(["ZRANGE", `${base}:active`, "0", "-1"])).resolves.toEqual(["long-1"]);
    await elapse(300);
    await expect(client.sendCommand(["EXISTS", base, `${base}:exp`, `${base}:active`])).resolves.toBe(0);
  });

  it("keeps a task and the owner's sets with no expiry when ttlMs is null", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    await store.create(task("forever", "keeper", { ttlMs: null }), CAP);
    await expect(client.sendCommand(["PTTL", store.keyOf("forever")])).resolves.toBe(-1);
    await expect(client.sendCommand(["PTTL", `${store.ownerKeyOf("keeper")}:active`])).resolves.toBe(-1);
  });

  it("answers an empty page for a cursor it did not hand out", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    await store.create(task("listed", "cursor-owner"), CAP);
    for (const cursor of ["", "not a cursor", Buffer.from('["x","y"]').toString("base64url")]) {
      await expect(store.list("cursor-owner", { cursor, limit: 5 })).resolves.toEqual({ tasks: [] });
    }
  });

  it("answers store_full, writing nothing, when Redis refuses the task for memory", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    await client.sendCommand(["CONFIG", "SET", "maxmemory", "1"]);
    try {
      await expect(store.create(task("no-room", "full"), CAP)).resolves.toBe("store_full");
    } finally {
      await client.sendCommand(["CONFIG", "SET", "maxmemory", "0"]);
    }
    await expect(store.get("no-room")).resolves.toBeUndefined();
    await expect(client.sendCommand(["EXISTS", store.ownerKeyOf("full")])).resolves.toBe(0);
    await expect(store.create(task("no-room", "full"), CAP)).resolves.toBe("created");
  });

  it("refuses a task id in use and a record it cannot store", async () => {
    const store = new RedisTaskStore(client, { keyPrefix: fixture.keyPrefix });
    await store.create(task("taken", "o"), CAP);
    await expect(store.create(task("taken", "o"), CAP)).rejects.toThrow("taskId already in use");
    await expect(store.create(task("", "o"), CAP)).rejects.toThrow(TypeError);
    await expect(store.create(task("x", "o", { createdAtMs: Number.NaN }), CAP)).rejects.toThrow(TypeError);
    await expect(store.create(task("x", "o", { ttlMs: "1" }) as never, CAP)).rejects.toThrow(TypeError);
    await expect(store.create(task("x", "o"), {} as never)).rejects.toThrow(TypeError);
    const endless = { holder: "replica-a", expiresAtMs: Number.POSITIVE_INFINITY };
    await expect(store.create(task("x", "o", { lease: endless }), CAP)).rejects.toThrow(TypeError);
  });

  it("uses the default prefix tsmcp:", () => {
    const store = new RedisTaskStore(client);
    expect(store.keyOf("t")).toBe("tsmcp:task:t");
    expect(store.ownerKeyOf("o")).toBe("tsmcp:tasks:o");
  });

  it("checks its client and options when it is built", () => {
    expect(() => new RedisTaskStore({} as never)).toThrow(TypeError);
    expect(() => new RedisTaskStore(client, { commandTimeoutMs: 0 })).toThrow(RangeError);
    expect(() => new RedisTaskStore(client, { keyPrefix: 1 as never })).toThrow(TypeError);
    expect(() => new RedisTaskStore(client, null as never)).toThrow(TypeError);
  });
});
