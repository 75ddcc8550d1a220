/**
 * The tasks extension on the low-level `Server` over real HTTP: a tool call answered with a task,
 * polled with tasks/get, fed with tasks/update, cancelled with tasks/cancel; the -32021 gate per
 * request; owner scope between two principals; the per-principal and result caps; a lapsed lease.
 */
import { describe, expect, it } from "vitest";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import { deferred } from "../../protocol/async.js";
import { McpError } from "../../protocol/errors.js";
import { silentLogger } from "../../protocol/logger.js";
import type { CallToolResult } from "../../protocol/schema/methods.js";
import { TASKS_EXTENSION } from "../../protocol/schema/tasks.js";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import { Server, type ServerOptions } from "../server.js";
import { LEASE_LAPSED_MESSAGE, TaskManager, type TaskWork } from "./manager.js";
import {
  call,
  caller,
  manualClock,
  nextChange,
  PLAIN_CAPABILITIES,
  served,
  TASK_CAPABILITIES,
  twoPrincipals,
} from "./tasks-test-fixtures.js";

/** A server whose tool call runs `work` as a task of `tasks` when the request allows it. */
function jobServer(tasks: TaskManager, work: TaskWork, options: ServerOptions = {}): Server {
  return new Server("jobs", {
    logger: silentLogger,
    tasks,
    onListTools: () => ({ tools: [] }),
    onCallTool: (ctx) =>
      tasks.accepts(ctx) ? tasks.run(ctx, work) : { content: [{ type: "text", text: "at once" }] },
    ...options,
  });
}

const DONE: CallToolResult = { content: [{ type: "text", text: "done" }] };

describe("a Server with the tasks option", () => {
  it("answers a declaring tools/call with a flat CreateTaskResult that tasks/get finds at once, then inlines the result", async () => {
    const tasks = new TaskManager();
    const release = deferred<void>();
    const url = await served(
      jobServer(tasks, async () => {
        await release.promise;
        return DONE;
      }),
    );
    const rpc = caller(url);

    const created = await rpc("tools/call", { name: "job", arguments: {} });
    const task = created.result ?? {};
    expect(task).toMatchObject({
      resultType: "task",
      status: "working",
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
    });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(Object.keys(task).sort()).toEqual(
      [
        "_meta",
        "createdAt",
        "lastUpdatedAt",
        "pollIntervalMs",
        "resultType",
        "status",
        "taskId",
        "ttlMs",
      ].sort(),
    );
    const working = await rpc("tasks/get", { taskId: task.taskId });
    expect(working.result).toMatchObject({ resultType: "complete", taskId: task.taskId, status: "working" });
    expect(working.result).not.toHaveProperty("result");

    const completed = nextChange(tasks, (t) => t.status === "completed");
    release.resolve();
    await completed;
    const done = await rpc("tasks/get", { taskId: task.taskId });
    expect(done.result).toMatchObject({ resultType: "complete", status: "completed", result: DONE });
    expect(done.result).not.toHaveProperty("requestState");
  });

  it("advertises the extension in server/discover only when it serves tasks", async () => {
    const withTasks = await call(
      await served(jobServer(new TaskManager(), async () => DONE)),
      "server/discover",
    );
    expect(withTasks.result?.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(withTasks.result?.capabilities).not.toHaveProperty("tasks");
    const plain = new Server("plain", { logger: silentLogger, onCallTool: () => DONE });
    const without = await call(await served(plain), "server/discover");
    expect(without.result?.capabilities).not.toHaveProperty("extensions");
    expect((await call(await served(plain), "tasks/get", { taskId: "x" })).error?.code).toBe(-32601);
  });

  it("answers tasks/get, tasks/update, tasks/cancel and a listen for taskIds -32021 naming the extension when the request did not declare it", async () => {
    const tasks = new TaskManager();
    const server = jobServer(tasks, async () => DONE);
    const url = await served(server);
    const created = await call(url, "tools/call", { name: "job", arguments: {} });
    const taskId = created.result?.taskId as string;
    const plain = caller(url, { capabilities: PLAIN_CAPABILITIES });
    for (const [method, params] of [
      ["tasks/get", { taskId }],
      ["tasks/update", { taskId, inputResponses: {} }],
      ["tasks/cancel", { taskId }],
      ["subscriptions/listen", { notifications: { taskIds: [taskId] } }],
    ] as const) {
      const answer = await plain(method, params);
      expect(answer.error?.code, method).toBe(-32021);
      expect(answer.error?.data, method).toEqual({
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
      expect(answer.status, method).toBe(400);
    }
    const sync = await plain("tools/call", { name: "job", arguments: {} });
    expect(sync.result).toMatchObject({ resultType: "complete", content: [{ text: "at once" }] });
  });

  it("keeps tasks/result and tasks/list unknown (-32601) at 2026-07-28", async () => {
    const url = await served(jobServer(new TaskManager(), async () => DONE));
    expect((await call(url, "tasks/result", { taskId: "x" })).error?.code).toBe(-32601);
    expect((await call(url, "tasks/list", {})).error?.code).toBe(-32601);
  });

  it("answers malformed tasks/* params -32602 and an unknown task id -32602 on every method", async () => {
    const server = jobServer(new TaskManager(), async () => DONE);
    const rpc = caller(await served(server));
    for (const [method, params] of [
      ["tasks/get", {}],
      ["tasks/get", { taskId: 7 }],
      ["tasks/cancel", { taskId: null }],
    ] as const) {
      const request = {
        jsonrpc: "2.0" as const,
        id: 1,
        method,
        params: { ...params, _meta: requestMeta(TASK_CAPABILITIES) },
      };
      const answer = await server.handle(request, { signal: new AbortController().signal });
      expect(answer, JSON.stringify([method, params])).toMatchObject({ error: { code: -32602 } });
      // Over HTTP too: without a string taskId there is no Mcp-Name to check, so params decide.
      expect((await rpc(method, params)).error?.code, JSON.stringify([method, params])).toBe(-32602);
    }
    for (const params of [
      { taskId: "x" },
      { taskId: "x", inputResponses: [1] },
      { taskId: "x", inputResponses: { key: "no" } },
    ]) {
      const answer = await rpc("tasks/update", params);
      expect(answer.error?.code, JSON.stringify(params)).toBe(-32602);
      expect(answer.error?.message, JSON.stringify(params)).toMatch(/^Invalid params: inputResponses/);
    }
    for (const [method, params] of [
      ["tasks/get", { taskId: "no-such-task" }],
      ["tasks/update", { taskId: "no-such-task", inputResponses: {} }],
      ["tasks/cancel", { taskId: "no-such-task" }],
    ] as const) {
      expect(await rpc(method, params), method).toMatchObject({
        error: { code: -32602, message: "Failed to retrieve task: Task not found" },
      });
    }
  });

  it("answers another principal's task exactly like an unknown one, on every method", async () => {
    const tasks = new TaskManager();
    const aborted = deferred<void>();
    const url = await served(
      jobServer(
        tasks,
        (ctx) =>
          new Promise((_resolve, reject) =>
            ctx.signal.addEventListener("abort", () => {
              aborted.resolve();
              reject(ctx.signal.reason);
            }),
          ),
      ),
      twoPrincipals(),
    );
    const alice = caller(url, { token: "alice" });
    const bob = caller(url, { token: "bob" });
    const taskId = (await alice("tools/call", { name: "job", arguments: {} })).result?.taskId as string;

    for (const [method, params] of [
      ["tasks/get", { taskId }],
      ["tasks/update", { taskId, inputResponses: {} }],
      ["tasks/cancel", { taskId }],
    ] as const) {
      const theirs = await bob(method, params);
      const unknown = await bob(method, { ...params, taskId: "no-such-task" });
      expect(theirs, method).toEqual(unknown);
    }
    expect((await alice("tasks/get", { taskId })).result?.status).toBe("working");
    await alice("tasks/cancel", { taskId });
    await aborted.promise;
  });

  it("refuses a principal's task past maxActivePerPrincipal with -32600, and still serves another principal", async () => {
    const tasks = new TaskManager({ maxActivePerPrincipal: 2 });
    const untilCancelled: TaskWork = (ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
      );
    const url = await served(jobServer(tasks, untilCancelled), twoPrincipals());
    const alice = caller(url, { token: "alice" });
    expect((await alice("tools/call", { name: "job", arguments: {} })).result?.resultType).toBe("task");
    const second = (await alice("tools/call", { name: "job", arguments: {} })).result?.taskId as string;
    const refused = await alice("tools/call", { name: "job", arguments: {} });
    expect(refused.error).toMatchObject({
      code: -32600,
      data: { reason: "too_many_tasks", maxActiveTasks: 2 },
    });
    expect(refused.error?.message).toMatch(/already has 2 tasks running/);
    expect(
      (await call(url, "tools/call", { name: "job", arguments: {} }, { token: "bob" })).result?.resultType,
    ).toBe("task");
    await alice("tasks/cancel", { taskId: second });
    expect((await alice("tools/call", { name: "job", arguments: {} })).result?.resultType).toBe("task");
    await tasks.close();
  });

  it("fails a task whose result is larger than maxResultBytes with -32603 saying so", async () => {
    const tasks = new TaskManager({ maxResultBytes: 100 });
    const url = await served(
      jobServer(tasks, async () => ({ content: [{ type: "text", text: "x".repeat(200) }] })),
    );
    const failed = nextChange(tasks, (t) => t.status === "failed");
    const taskId = (await call(url, "tools/call", { name: "job", arguments: {} })).result?.taskId;
    await failed;
    const task = (await call(url, "tasks/get", { taskId })).result;
    expect(task).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect(task?.error.message).toMatch(
      /^The task's result is 2\d\d bytes of JSON, more than the 100 this server keeps$/,
    );
    expect(task).not.toHaveProperty("result");
  });

  it("fails a task with the McpError its work throws, and completes one whose tool result is an error", async () => {
    const tasks = new TaskManager();
    const server = new Server("jobs", {
      logger: silentLogger,
      tasks,
      onCallTool: (ctx, params) =>
        tasks.run(ctx, async () => {
          if (params.arguments?.fail === true) throw new McpError(-32050, "no quota left", { left: 0 });
          return { isError: true, content: [{ type: "text", text: "bad input" }] };
        }),
    });
    const url = await served(server);
    const failed = nextChange(tasks, (t) => t.status === "failed");
    const failing = (await call(url, "tools/call", { name: "job", arguments: { fail: true } })).result
      ?.taskId;
    await failed;
    expect((await call(url, "tasks/get", { taskId: failing })).result).toMatchObject({
      status: "failed",
      statusMessage: "no quota left",
      error: { code: -32050, message: "no quota left", data: { left: 0 } },
    });
    const completed = nextChange(tasks, (t) => t.status === "completed");
    const toolError = (await call(url, "tools/call", { name: "job", arguments: {} })).result?.taskId;
    await completed;
    const task = (await call(url, "tasks/get", { taskId: toolError })).result;
    expect(task).toMatchObject({ status: "completed", result: { isError: true } });
    expect(task).not.toHaveProperty("error");
  });

  it("reads a task whose lease lapsed (its server stopped renewing it) as failed, with the reason, from another server on the store", async () => {
    const clock = manualClock();
    const store = new MemoryTaskStore({ clock });
    const leaseMs = 60_000;
    const runner = new TaskManager({ store, clock, leaseMs, logger: silentLogger });
    const reader = new TaskManager({ store, clock, leaseMs, logger: silentLogger });
    const never = new Promise<never>(() => {});
    const runnerUrl = await served(jobServer(runner, () => never));
    const readerUrl = await served(jobServer(reader, () => never));
    const taskId = (await call(runnerUrl, "tools/call", { name: "job", arguments: {} })).result?.taskId;
    expect((await call(readerUrl, "tasks/get", { taskId })).result?.status).toBe("working");

    clock.advance(leaseMs);
    const lapsed = await call(readerUrl, "tasks/get", { taskId });
    expect(lapsed.result).toMatchObject({
      status: "failed",
      statusMessage: LEASE_LAPSED_MESSAGE,
      error: { code: -32603, message: LEASE_LAPSED_MESSAGE },
    });
    expect((await call(runnerUrl, "tasks/get", { taskId })).result?.status).toBe("failed");
    await runner.close();
  });
});
