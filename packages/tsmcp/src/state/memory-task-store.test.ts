/**
 * The in-memory TaskStore: the shared contract on an injected clock, then its own bound, its
 * eviction order and its exact expiry instant.
 */
import { describe, expect, it } from "vitest";
import { manualClock } from "../../../../test/helpers/replay-cache-contract.js";
import { taskStoreContract } from "../../../../test/helpers/task-store-contract.js";
import { DEFAULT_MEMORY_MAX_TASKS, MemoryTaskStore } from "./memory-task-store.js";
import type { TaskRecord } from "./task-store.js";

taskStoreContract("MemoryTaskStore", (clock) => {
  const store = new MemoryTaskStore({ clock });
  return {
    store,
    peer: store,
    now: () => clock.now(),
    advance: (ms) => clock.advance(ms),
    bounded: (maxTasks) => new MemoryTaskStore({ clock, maxTasks }),
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
    expect(() => new MemoryTaskStore({ clock: {} as never })).toThrow(TypeError);
    expect(() => new MemoryTaskStore(null as never)).toThrow(TypeError);
  });
});
