/**
 * One task's run on its manager, driven by fake timers where time matters: the outcome write and
 * the close-time marking retried while the store is unreachable, a task still running at its TTL
 * ended `failed`, the cause of an `McpError` a task fails with logged, the manager's clock pacing
 * `awaitTerminal`, and a `Server` that shares a manager leaving no listener behind when closed nor
 * building a `DetailedTask` nobody listens for.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordingLogger } from "../../../../../test/helpers/logs.js";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import { deferred } from "../../protocol/async.js";
import { type Clock, systemClock } from "../../protocol/clock.js";
import { McpError } from "../../protocol/errors.js";
import { silentLogger } from "../../protocol/logger.js";
import type { CallToolResult } from "../../protocol/schema/methods.js";
import { StateUnavailableError } from "../../state/errors.js";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import type { TaskChange, TaskExpectation, TaskRecord } from "../../state/task-store.js";
import { createRequestContext, type RequestContext } from "../context.js";
import { Server } from "../server.js";
import { ANONYMOUS_TASK_OWNER } from "./identity.js";
import { LEASE_LAPSED_MESSAGE, TaskManager } from "./manager.js";
import { TASK_CAPABILITIES } from "./tasks-test-fixtures.js";

const DONE: CallToolResult = { content: [{ type: "text", text: "done" }] };

/** The context of a `tools/call` that declared the tasks extension, without auth. */
function request(): RequestContext {
  return createRequestContext("tools/call", 1, requestMeta(TASK_CAPABILITIES) as never, {
    signal: new AbortController().signal,
  });
}

/**
 * A memory store whose every update fails, as an unreachable engine's would, while `down` (only
 * those that end a task with `outcomesOnly`).
 */
class FlakyStore extends MemoryTaskStore {
  down = false;
  outcomesOnly = false;
  failures = 0;

  override async update(
    taskId: string,
    change: TaskChange,
    expect?: TaskExpectation,
  ): Promise<TaskRecord | undefined> {
    if (this.down && (!this.outcomesOnly || change.status !== undefined)) {
      this.failures++;
      throw new StateUnavailableError("the task store is unreachable");
    }
    return await super.update(taskId, change, expect);
  }

  /** Cancels the task whether the store is down or not (as another replica's write that got through). */
  async cancelBehindTheRunnersBack(taskId: string): Promise<void> {
    await super.update(taskId, { status: "cancelled", lastUpdatedAtMs: Date.now() });
  }
}

/** Work that runs until its signal aborts, then rejects with the reason. */
function untilAborted(ctx: RequestContext): Promise<never> {
  return new Promise((_resolve, reject) =>
    ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true }),
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a task's outcome", () => {
  it("is written once the store is back when it finished while the store was unreachable, the lease renewed meanwhile", async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    const tasks = new TaskManager({ store, leaseMs: 3000, logger: silentLogger });
    const finish = deferred<void>();
    const { taskId } = await tasks.run(request(), async () => {
      await finish.promise;
      return DONE;
    });
    store.down = true;
    finish.resolve();
    await vi.advanceTimersByTimeAsync(2000);
    store.down = false;
    await vi.advanceTimersByTimeAsync(5000);
    expect(await tasks.get(ANONYMOUS_TASK_OWNER, taskId)).toMatchObject({
      status: "completed",
      result: DONE,
    });
    await tasks.close();
  });

  it("is given up, logged, once the lease is lost", async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    const logger = recordingLogger();
    const tasks = new TaskManager({ store, leaseMs: 3000, logger });
    const finish = deferred<void>();
    const { taskId } = await tasks.run(request(), async () => {
      await finish.promise;
      return DONE;
    });
    store.down = true;
    store.outcomesOnly = true;
    finish.resolve();
    await vi.advanceTimersByTimeAsync(500);
    await store.cancelBehindTheRunnersBack(taskId);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await tasks.get(ANONYMOUS_TASK_OWNER, taskId)).toMatchObject({ status: "cancelled" });
    expect(logger.records.filter((line) => line.level === "error").map((line) => line.message)).toEqual([
      "writing a task's outcome failed; giving it up: the task is no longer held here",
    ]);
    await tasks.close();
  });

  it("is given up, logged, once the manager closes, and the close-time marking once the lease would lapse", async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    const logger = recordingLogger();
    const tasks = new TaskManager({ store, leaseMs: 3000, logger });
    const finish = deferred<void>();
    const { taskId } = await tasks.run(request(), async () => {
      await finish.promise;
      return DONE;
    });
    store.down = true;
    finish.resolve();
    await vi.advanceTimersByTimeAsync(500);
    const closing = tasks.close();
    await vi.advanceTimersByTimeAsync(4000);
    await closing;
    expect(logger.records.filter((line) => line.level === "error").map((line) => line.message)).toEqual([
      "writing a task's outcome failed; giving it up: the server is closing",
      "marking a task failed at close failed; giving it up: its lease lapsed",
    ]);
    store.down = false;
    expect(await store.get(taskId)).toMatchObject({ status: "working" });
  });

  it("marks the task failed at close once the store is back, while its lease holds", async () => {
    vi.useFakeTimers();
    const store = new FlakyStore();
    const tasks = new TaskManager({ store, leaseMs: 3000, logger: silentLogger });
    const { taskId } = await tasks.run(request(), untilAborted);
    store.down = true;
    const closing = tasks.close();
    await vi.advanceTimersByTimeAsync(1000);
    store.down = false;
    await vi.advanceTimersByTimeAsync(1000);
    await closing;
    expect(await store.get(taskId)).toMatchObject({
      status: "failed",
      error: { code: -32603, message: LEASE_LAPSED_MESSAGE },
    });
  });
});

describe("a task still running at its TTL", () => {
  it("ends failed (-32603, past its time to live) a lease renewal before it expires, and its work is aborted", async () => {
    vi.useFakeTimers();
    const tasks = new TaskManager({ defaultTtlMs: 60_000, leaseMs: 3000, logger: silentLogger });
    const aborted = deferred<unknown>();
    const { taskId } = await tasks.run(request(), (ctx) => {
      ctx.signal.addEventListener("abort", () => aborted.resolve(ctx.signal.reason));
      return untilAborted(ctx);
    });
    await vi.advanceTimersByTimeAsync(58_999);
    expect((await tasks.get(ANONYMOUS_TASK_OWNER, taskId))?.status).toBe("working");
    await vi.advanceTimersByTimeAsync(1);
    const message = "The task ran past its time to live (60000 ms) and was stopped";
    expect(await tasks.get(ANONYMOUS_TASK_OWNER, taskId)).toMatchObject({
      status: "failed",
      statusMessage: message,
      error: { code: -32603, message },
    });
    expect(await aborted.promise).toMatchObject({ name: "AbortError", message });
    await vi.advanceTimersByTimeAsync(1000);
    expect(await tasks.get(ANONYMOUS_TASK_OWNER, taskId)).toBeUndefined();
    await tasks.close();
  });
});

describe("a task failing with an McpError", () => {
  it("logs the error's cause, as a request failing with it does", async () => {
    const logger = recordingLogger();
    const tasks = new TaskManager({ logger });
    const cause = new Error("the database refused the connection");
    const failed = new Promise<void>((resolve) => {
      tasks.onChange((task) => {
        if (task.status === "failed") resolve();
      });
    });
    await tasks.run(request(), () => {
      throw new McpError(-32603, "The job could not save its work", undefined, { cause });
    });
    await failed;
    expect(logger.records).toEqual([
      {
        level: "error",
        message: "a task's work failed",
        fields: { error: cause, taskId: expect.any(String) },
      },
    ]);
    await tasks.close();
  });
});

describe("TaskManager.awaitTerminal", () => {
  it("waits between reads with the manager's clock", async () => {
    const sleeps: number[] = [];
    const clock: Clock = {
      now: () => Date.now(),
      sleep: (ms, signal) => {
        sleeps.push(ms);
        return systemClock.sleep(ms, signal);
      },
    };
    const tasks = new TaskManager({ clock, pollIntervalMs: 5, logger: silentLogger });
    const finish = deferred<void>();
    const { taskId } = await tasks.run(request(), async () => {
      await finish.promise;
      return DONE;
    });
    const terminal = tasks.awaitTerminal(ANONYMOUS_TASK_OWNER, taskId, new AbortController().signal);
    await vi.waitFor(() => expect(sleeps).not.toEqual([]));
    finish.resolve();
    expect(await terminal).toMatchObject({ status: "completed" });
    expect(new Set(sleeps)).toEqual(new Set([5]));
    await tasks.close();
  });
});

describe("a Server sharing a TaskManager", () => {
  it("removes every listener it added to the manager when it closes", async () => {
    const tasks = new TaskManager({ logger: silentLogger });
    const listening = new Set<object>();
    const onChange = tasks.onChange.bind(tasks);
    tasks.onChange = (listener) => {
      const entry = {};
      listening.add(entry);
      const stop = onChange(listener);
      return () => {
        listening.delete(entry);
        stop();
      };
    };
    const server = new Server("per-request", { tasks, onCallTool: () => ({ content: [] }) });
    expect(listening.size).toBeGreaterThan(0);
    server.close();
    expect(listening.size).toBe(0);
    await tasks.close();
  });

  it("builds no DetailedTask for a status change while no listen stream is open", async () => {
    const reads: string[] = [];
    class CountingStore extends MemoryTaskStore {
      override async update(
        taskId: string,
        change: TaskChange,
        expect?: TaskExpectation,
      ): Promise<TaskRecord | undefined> {
        const record = await super.update(taskId, change, expect);
        if (record?.result === undefined) return record;
        const { content } = record.result;
        return {
          ...record,
          result: {
            get content() {
              reads.push("content");
              return content;
            },
          },
        };
      }
    }
    const tasks = new TaskManager({ store: new CountingStore(), logger: silentLogger });
    const server = new Server("quiet", { tasks, logger: silentLogger, onCallTool: () => ({ content: [] }) });
    const completed = new Promise<void>((resolve) => {
      tasks.onChange((task) => {
        if (task.status === "completed") resolve();
      });
    });
    await tasks.run(request(), () => DONE);
    await completed;
    expect(reads).toEqual([]);
    server.close();
    await tasks.close();
  });
});
