/**
 * The in-memory TaskStore: the shared contract on an injected clock, then its own bound, its
 * eviction order and its exact expiry instant.
 */
import { describe, expect, it } from "vitest";
import { manualClock } from "../../../../test/helpers/replay-cache-contract.js";
import { taskStoreContract } from "../../../../test/helpers/task-store-contract.js";
import { StateUnavailableError } from "./errors.js";
import {
  DEFAULT_MEMORY_MAX_TASK_BYTES,
  DEFAULT_MEMORY_MAX_TASKS,
  MemoryTaskStore,
} from "./memory-task-store.js";
import type { TaskRecord } from "./task-store.js";

taskStoreContract("MemoryTaskStore", (clock) => {
  const store = new MemoryTaskStore({ clock });
  return {
    store,
    peer: store,
    now: () => clock.now(),
    advance: (ms) => clock.advance(ms),
    bounded: (maxTasks) => new MemoryTaskStore({ clock, maxTasks }),
    boundedInBytes: (maxBytes) => new MemoryTaskStore({ clock, maxBytes }),
  };
});

const CAP = { maxActivePerOwner: 100 };

function task(taskId: string, createdAtMs: number, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return {
    taskId,
    owner: "owner",
    status: "working",
    createdAtMs,
    lastUpdatedAtMs: createdAtMs,
    ttlMs: 60_000,
    request: { method: "tools/call" },
    ...overrides,
  };
}

describe("MemoryTaskStore's bound and expiry", () => {
  it("holds 10 000 tasks by default", () => {
    expect(new MemoryTaskStore().maxTasks).toBe(DEFAULT_MEMORY_MAX_TASKS);
    expect(DEFAULT_MEMORY_MAX_TASKS).toBe(10_000);
  });

  it("keeps a task until the millisecond before createdAtMs + ttlMs, and not at it", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock });
    await store.create(task("t", clock.now(), { ttlMs: 1_000 }), CAP);
    clock.advance(999);
    await expect(store.get("t")).resolves.toBeDefined();
    clock.advance(1);
    await expect(store.get("t")).resolves.toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("drops expired tasks first to make room, then the oldest terminal one, never a running one", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock, maxTasks: 3 });
    const at = clock.now();
    await store.create(task("done-old", at, { status: "completed", ttlMs: null }), CAP);
    await store.create(task("done-new", at, { status: "failed", ttlMs: null }), CAP);
    await store.create(task("short", at, { ttlMs: 1_000 }), CAP);
    clock.advance(1_000);
    await expect(store.create(task("a", clock.now()), CAP)).resolves.toBe("created");
    await expect(store.get("done-old")).resolves.toBeDefined();
    await expect(store.create(task("b", clock.now()), CAP)).resolves.toBe("created");
    await expect(store.get("done-old")).resolves.toBeUndefined();
    await expect(store.get("done-new")).resolves.toBeDefined();
    await expect(store.create(task("c", clock.now(), { status: "input_required" }), CAP)).resolves.toBe(
      "created",
    );
    await expect(store.get("done-new")).resolves.toBeUndefined();
    await expect(store.create(task("d", clock.now()), CAP)).resolves.toBe("store_full");
    expect(store.size).toBe(3);
    for (const id of ["a", "b", "c"]) await expect(store.get(id)).resolves.toBeDefined();
  });

  it("answers owner_limit before store_full", async () => {
    const store = new MemoryTaskStore({ maxTasks: 1 });
    await store.create(task("a", Date.now()), CAP);
    await expect(store.create(task("b", Date.now()), { maxActivePerOwner: 1 })).resolves.toBe("owner_limit");
    await expect(store.create(task("c", Date.now()), CAP)).resolves.toBe("store_full");
  });

  it("refuses a task id already in use", async () => {
    const store = new MemoryTaskStore();
    await store.create(task("a", Date.now()), CAP);
    await expect(store.create(task("a", Date.now()), CAP)).rejects.toThrow(TypeError);
  });

  it("checks its options when it is built", () => {
    expect(() => new MemoryTaskStore({ maxTasks: 0 })).toThrow(RangeError);
    expect(() => new MemoryTaskStore({ maxTasks: 1.5 })).toThrow(RangeError);
    expect(() => new MemoryTaskStore({ maxBytes: 0 })).toThrow(RangeError);
    expect(() => new MemoryTaskStore({ maxBytes: 1.5 })).toThrow(RangeError);
    expect(() => new MemoryTaskStore({ maxBytes: "1" as never })).toThrow(TypeError);
    expect(() => new MemoryTaskStore({ clock: {} as never })).toThrow(TypeError);
    expect(() => new MemoryTaskStore(null as never)).toThrow(TypeError);
  });
});

/** The bytes the store counts for `record`: its JSON text in UTF-8. */
function bytesOf(record: TaskRecord): number {
  return Buffer.byteLength(JSON.stringify(record), "utf8");
}

/** A task whose record is exactly `bytes` long, padded in its request. */
function sized(taskId: string, createdAtMs: number, bytes: number, overrides: Partial<TaskRecord> = {}) {
  const bare = task(taskId, createdAtMs, { ...overrides, request: { method: "tools/call", pad: "" } });
  return { ...bare, request: { method: "tools/call", pad: "x".repeat(bytes - bytesOf(bare)) } };
}

describe("MemoryTaskStore's sweep of expired tasks", () => {
  it("drops expired tasks on a write, at most once a second, without a read of them", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock });
    for (let n = 0; n < 600; n++) {
      await store.create(task(`t${n}`, clock.now(), { owner: `owner-${n}`, ttlMs: 1_000 }), CAP);
    }
    clock.advance(1_000);
    await store.create(task("kept", clock.now(), { ttlMs: null }), CAP);
    expect(store.size).toBe(1);
    await store.create(task("short", clock.now(), { ttlMs: 10 }), CAP);
    clock.advance(10);
    await store.create(task("soon", clock.now(), { ttlMs: null }), CAP);
    expect(store.size).toBe(3);
    clock.advance(990);
    await store.update("kept", { statusMessage: "still here" });
    expect(store.size).toBe(2);
    await expect(store.get("soon")).resolves.toBeDefined();
  });
});

describe("MemoryTaskStore's bound in bytes", () => {
  it("holds 64 MiB of task records by default", () => {
    expect(DEFAULT_MEMORY_MAX_TASK_BYTES).toBe(64 * 1024 * 1024);
    expect(new MemoryTaskStore().maxBytes).toBe(DEFAULT_MEMORY_MAX_TASK_BYTES);
  });

  it("counts the UTF-8 JSON bytes of every record it holds, on every write", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock });
    const record = task("a", clock.now(), {
      statusMessage: "é ✓ 𝄞",
      status: "input_required",
      inputRequests: { k: { q: "ü" } },
      lease: { holder: "me", expiresAtMs: clock.now() + 60_000 },
    });
    await store.create(record, CAP);
    expect(store.bytes).toBe(bytesOf(record));
    const answered = await store.addInputResponses("a", "owner", { k: { answer: "ñ".repeat(100) } }, 5);
    expect(store.bytes).toBe(bytesOf(answered as TaskRecord));
    await store.takeInputResponses("a", "me");
    const done = await store.update("a", { status: "completed", result: { text: "∑".repeat(1_000) } });
    expect(store.bytes).toBe(bytesOf(done as TaskRecord));
    await store.create(task("b", clock.now(), { ttlMs: 5 }), CAP);
    expect(store.bytes).toBe(bytesOf(done as TaskRecord) + bytesOf(task("b", clock.now(), { ttlMs: 5 })));
    clock.advance(5);
    await store.get("b");
    expect(store.bytes).toBe(bytesOf(done as TaskRecord));
  });

  it("makes room in bytes as it does in tasks: expired first, then the oldest terminal, never a running one", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock, maxBytes: 3_000 });
    const at = clock.now();
    await store.create(sized("done-old", at, 1_000, { status: "completed", ttlMs: null }), CAP);
    await store.create(sized("done-new", at, 1_000, { status: "failed", ttlMs: null }), CAP);
    await store.create(sized("short", at, 1_000, { ttlMs: 100 }), CAP);
    clock.advance(100);
    await expect(store.create(sized("a", clock.now(), 1_000), CAP)).resolves.toBe("created");
    await expect(store.get("done-old")).resolves.toBeDefined();
    await expect(store.create(sized("b", clock.now(), 1_500), CAP)).resolves.toBe("created");
    await expect(store.get("done-old")).resolves.toBeUndefined();
    await expect(store.get("done-new")).resolves.toBeUndefined();
    expect(store.bytes).toBe(2_500);
    await expect(store.create(sized("c", clock.now(), 501), CAP)).resolves.toBe("store_full");
    await expect(store.create(sized("d", clock.now(), 500), CAP)).resolves.toBe("created");
    expect(store.bytes).toBe(3_000);
    for (const id of ["a", "b", "d"]) await expect(store.get(id)).resolves.toBeDefined();
  });

  it("refuses a record larger than maxBytes alone without dropping anything for it", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock, maxBytes: 3_000 });
    await store.create(sized("done", clock.now(), 1_000, { status: "completed" }), CAP);
    await expect(store.create(sized("huge", clock.now(), 3_001), CAP)).resolves.toBe("store_full");
    await expect(store.get("done")).resolves.toBeDefined();
  });

  it("makes room for a result written by update by dropping the oldest terminal task", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock, maxBytes: 3_000 });
    await store.create(sized("done", clock.now(), 1_000, { status: "completed" }), CAP);
    await store.create(sized("running", clock.now(), 1_000), CAP);
    await store.create(sized("other", clock.now(), 500), CAP);
    const result = { text: "r".repeat(1_000) };
    await expect(store.update("running", { status: "completed", result })).resolves.toMatchObject({ result });
    await expect(store.get("done")).resolves.toBeUndefined();
    await expect(store.get("other")).resolves.toBeDefined();
    expect(store.bytes).toBeLessThanOrEqual(3_000);
  });

  it("refuses a running task's growth running tasks leave no room for, changing nothing, and keeps a terminal write anyway", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock, maxBytes: 3_000 });
    await store.create(
      sized("a", clock.now(), 1_500, { status: "input_required", inputRequests: { k: 1 } }),
      CAP,
    );
    await store.create(sized("b", clock.now(), 1_400), CAP);
    const before = await store.get("a");
    await expect(store.update("a", { statusMessage: "m".repeat(200) })).rejects.toThrow(
      StateUnavailableError,
    );
    await expect(store.addInputResponses("a", "owner", { k: "y".repeat(200) }, 1)).rejects.toThrow(
      StateUnavailableError,
    );
    await expect(store.get("a")).resolves.toEqual(before);
    await expect(store.update("a", { statusMessage: "fits" })).resolves.toMatchObject({
      statusMessage: "fits",
    });
    const result = { text: "r".repeat(2_000) };
    await expect(store.update("b", { status: "completed", result })).resolves.toMatchObject({ result });
    expect(store.bytes).toBeGreaterThan(3_000);
    await expect(store.create(sized("c", clock.now(), 300), CAP)).resolves.toBe("created");
    await expect(store.get("b")).resolves.toBeUndefined();
    expect(store.bytes).toBeLessThanOrEqual(3_000);
  });
});
