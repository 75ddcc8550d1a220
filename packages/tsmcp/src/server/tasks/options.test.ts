/** `TaskManager` options: the defaults, pinned, and every bad option refused when the manager is built. */
import { describe, expect, it } from "vitest";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import { MCPServer } from "../mcp/server.js";
import { Server } from "../server.js";
import { ANONYMOUS_TASK_OWNER, newTaskId, taskOwnerOf } from "./identity.js";
import { TaskManager } from "./manager.js";
import {
  DEFAULT_MAX_ACTIVE_TASKS_PER_PRINCIPAL,
  DEFAULT_MAX_TASK_RESULT_BYTES,
  DEFAULT_MAX_TASK_TTL_MS,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
  MIN_TASK_LEASE_MS,
} from "./options.js";

describe("TaskManager options", () => {
  it("default to a one-hour TTL (at most a day), 1 s polls, a 15 s lease, 100 tasks per principal and 1 MiB results", () => {
    expect([
      DEFAULT_TASK_TTL_MS,
      DEFAULT_MAX_TASK_TTL_MS,
      DEFAULT_TASK_POLL_INTERVAL_MS,
      DEFAULT_TASK_LEASE_MS,
      DEFAULT_MAX_ACTIVE_TASKS_PER_PRINCIPAL,
      DEFAULT_MAX_TASK_RESULT_BYTES,
      MIN_TASK_LEASE_MS,
    ]).toEqual([3_600_000, 86_400_000, 1000, 15_000, 100, 1_048_576, 30]);
    const tasks = new TaskManager();
    expect(tasks).toMatchObject({
      defaultTtlMs: 3_600_000,
      maxTtlMs: 86_400_000,
      pollIntervalMs: 1000,
      leaseMs: 15_000,
      maxActivePerPrincipal: 100,
      maxResultBytes: 1_048_576,
      bus: undefined,
    });
    expect(tasks.store).toBeInstanceOf(MemoryTaskStore);
    expect(tasks.instanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new TaskManager().instanceId).not.toBe(tasks.instanceId);
  });

  it("raise the default maxTtlMs to a longer defaultTtlMs, and keep what is given", () => {
    expect(new TaskManager({ defaultTtlMs: 2 * DEFAULT_MAX_TASK_TTL_MS }).maxTtlMs).toBe(
      2 * DEFAULT_MAX_TASK_TTL_MS,
    );
    const store = new MemoryTaskStore();
    expect(new TaskManager({ store, instanceId: "replica-1" })).toMatchObject({
      store,
      instanceId: "replica-1",
    });
  });

  it.each([
    [{ store: {} }, TypeError, /"store" must be a TaskStore/],
    [{ bus: { publish() {} } }, TypeError, /"bus" must be a MessageBus/],
    [{ defaultTtlMs: 0 }, RangeError, /"defaultTtlMs" must be an integer of milliseconds >= 1, got 0/],
    [{ defaultTtlMs: "1h" }, TypeError, /"defaultTtlMs" must be a number/],
    [
      { maxTtlMs: 10, defaultTtlMs: 20 },
      RangeError,
      /"maxTtlMs" must be at least defaultTtlMs \(20\), got 10/,
    ],
    [{ pollIntervalMs: 1.5 }, RangeError, /"pollIntervalMs"/],
    [{ leaseMs: 29 }, RangeError, /"leaseMs" must be an integer of milliseconds >= 30/],
    [{ maxActivePerPrincipal: 0 }, RangeError, /"maxActivePerPrincipal"/],
    [{ maxResultBytes: -1 }, RangeError, /"maxResultBytes"/],
    [{ instanceId: "" }, TypeError, /"instanceId" must not be empty/],
    [{ instanceId: 7 }, TypeError, /"instanceId" must be a string/],
    [{ clock: {} }, TypeError, /"clock"/],
    [{ logger: { warn() {} } }, TypeError, /logger/],
  ])("refuse %j when the manager is built", (options, kind, message) => {
    expect(() => new TaskManager(options as never)).toThrow(kind);
    expect(() => new TaskManager(options as never)).toThrow(message);
  });

  it("are checked by a Server and an MCPServer given them, when those are built", () => {
    expect(() => new Server("s", { tasks: { leaseMs: 1 } })).toThrow(RangeError);
    expect(() => new MCPServer("m", { tasks: { leaseMs: 1 } })).toThrow(RangeError);
    expect(() => new MCPServer("m", { tasks: "yes" as never })).toThrow(
      /"tasks" must be a TaskManager or TaskOptions/,
    );
  });
});

describe("task identity", () => {
  it("keys an owner by a SHA-256 of the principal, the same for one principal's tokens, and one key without auth", () => {
    const alice = taskOwnerOf({ token: "t1", clientId: "app", subject: "alice" });
    expect(alice).toMatch(/^[0-9a-f]{64}$/);
    expect(taskOwnerOf({ token: "t2", clientId: "app", subject: "alice" })).toBe(alice);
    expect(taskOwnerOf({ token: "t1", clientId: "app", subject: "bob" })).not.toBe(alice);
    expect(taskOwnerOf(undefined)).toBe(ANONYMOUS_TASK_OWNER);
  });

  it("mints ids of 144 random bits, URL-safe, never the same twice", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newTaskId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });

  it("mints ids that never begin with '-', so a command line never reads one as an option", () => {
    const leading = Array.from({ length: 5000 }, () => newTaskId()).filter((id) => id.startsWith("-"));
    expect(leading).toEqual([]);
  });
});
