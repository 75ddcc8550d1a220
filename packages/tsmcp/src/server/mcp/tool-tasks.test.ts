/**
 * `MCPServer` tools declared with `task`, over real HTTP: synchronous without the extension (or
 * -32021 when required), a task with it; input inside the task (single and partial answers);
 * cancel reaching the handler; multi round-trip rounds (resolvers and hand-built) before the task;
 * a hand-built round after the first wait fulfilled through the task; the status message.
 */
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { deferred } from "../../protocol/async.js";
import { McpError } from "../../protocol/errors.js";
import { silentLogger } from "../../protocol/logger.js";
import { TASKS_EXTENSION } from "../../protocol/schema/tasks.js";
import { StateUnavailableError } from "../../state/errors.js";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import { elicitationRequest, inputRequired } from "../input-required.js";
import { elicit } from "../resolve/elicit.js";
import { resolver } from "../resolve/resolver.js";
import { ANONYMOUS_TASK_OWNER } from "../tasks/identity.js";
import type { TaskManager } from "../tasks/manager.js";
import { call, caller, nextChange, PLAIN_CAPABILITIES, served } from "../tasks/tasks-test-fixtures.js";
import { MCPServer } from "./server.js";

const ASK_NAME = elicitationRequest({
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
});

function accept(content: Record<string, unknown>) {
  return { action: "accept", content };
}

/** An MCPServer and its task manager. */
function taskServer(): { mcp: MCPServer; tasks: TaskManager } {
  const mcp = new MCPServer("tasks", { logger: silentLogger, tasks: {} });
  return { mcp, tasks: mcp.tasks as TaskManager };
}

describe("an MCPServer tool declared with task", () => {
  it("runs synchronously for a request without the extension, and as a task for one with it", async () => {
    const { mcp, tasks } = taskServer();
    mcp.tool("double", { inputSchema: z.object({ n: z.number() }), task: "optional" }, ({ n }, ctx) => {
      return `${2 * n} ${ctx.task === undefined ? "at once" : "in a task"}`;
    });
    const url = await served(mcp);
    const sync = await call(
      url,
      "tools/call",
      { name: "double", arguments: { n: 2 } },
      { capabilities: PLAIN_CAPABILITIES },
    );
    expect(sync.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "4 at once" }],
    });

    const completed = nextChange(tasks, (t) => t.status === "completed");
    const created = await call(url, "tools/call", { name: "double", arguments: { n: 3 } });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    await completed;
    const task = await call(url, "tasks/get", { taskId: created.result?.taskId });
    expect(task.result).toMatchObject({
      status: "completed",
      result: { content: [{ text: "6 in a task" }] },
    });
  });

  it("refuses a required task tool with -32021 naming the extension when the request did not declare it, before the handler runs", async () => {
    const { mcp } = taskServer();
    let ran = false;
    mcp.tool("batch", { task: "required" }, () => {
      ran = true;
      return "ran";
    });
    const answer = await call(
      await served(mcp),
      "tools/call",
      { name: "batch", arguments: {} },
      { capabilities: PLAIN_CAPABILITIES },
    );
    expect(answer.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    expect(ran).toBe(false);
  });

  it("advertises the extension once a tool declares task, without the tasks option", async () => {
    const mcp = new MCPServer("lazy", { logger: silentLogger });
    const url = await served(mcp);
    expect((await call(url, "server/discover")).result?.capabilities).not.toHaveProperty("extensions");
    mcp.tool("job", { task: "optional" }, () => "done");
    expect((await call(url, "server/discover")).result?.capabilities.extensions).toEqual({
      [TASKS_EXTENSION]: {},
    });
    expect(mcp.tasks).toBeDefined();
  });

  it("asks through the task with ctx.elicit: input_required with the request, then tasks/update resumes it", async () => {
    const { mcp, tasks } = taskServer();
    mcp.tool("greet", { task: "optional" }, async (_args, ctx) => {
      const answer = await ctx.elicit(ASK_NAME.params);
      return `Hello, ${String(answer.content?.name)}!`;
    });
    const url = await served(mcp);
    const rpc = caller(url);
    const asking = nextChange(tasks, (t) => t.status === "input_required");
    const taskId = (await rpc("tools/call", { name: "greet", arguments: {} })).result?.taskId as string;
    await asking;
    const waiting = (await rpc("tasks/get", { taskId })).result;
    expect(waiting).toMatchObject({ status: "input_required", inputRequests: { elicitation: ASK_NAME } });

    const completed = nextChange(tasks, (t) => t.status === "completed");
    const ack = await rpc("tasks/update", {
      taskId,
      inputResponses: { elicitation: accept({ name: "Ada" }), stale: { x: 1 } },
    });
    expect(ack.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    await completed;
    expect((await rpc("tasks/get", { taskId })).result).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Hello, Ada!" }] },
    });
  });

  it("keeps a task input_required with only the unanswered key after a partial answer, and never reuses a key", async () => {
    const { mcp, tasks } = taskServer();
    mcp.tool("pair", { task: "optional" }, async (_args, ctx) => {
      const [a, b] = await Promise.all([ctx.elicit(ASK_NAME.params), ctx.elicit(ASK_NAME.params)]);
      const c = await ctx.elicit(ASK_NAME.params);
      return [a, b, c].map((answer) => String(answer.content?.name)).join(" ");
    });
    const rpc = caller(await served(mcp));
    const both = nextChange(tasks, (t) => Object.keys(t.inputRequests ?? {}).length === 2);
    const taskId = (await rpc("tools/call", { name: "pair", arguments: {} })).result?.taskId as string;
    await both;
    const keys = Object.keys((await rpc("tasks/get", { taskId })).result?.inputRequests ?? {});
    expect(keys).toEqual(["elicitation", "elicitation-2"]);

    await rpc("tasks/update", { taskId, inputResponses: { elicitation: accept({ name: "a" }) } });
    const partial = (await rpc("tasks/get", { taskId })).result;
    expect(partial?.status).toBe("input_required");
    expect(Object.keys(partial?.inputRequests ?? {})).toEqual(["elicitation-2"]);

    const third = nextChange(tasks, (t) => t.inputRequests?.["elicitation-3"] !== undefined);
    await rpc("tasks/update", { taskId, inputResponses: { "elicitation-2": accept({ name: "b" }) } });
    await third;
    const completed = nextChange(tasks, (t) => t.status === "completed");
    await rpc("tasks/update", {
      taskId,
      inputResponses: { elicitation: accept({ name: "again" }), "elicitation-3": accept({ name: "c" }) },
    });
    await completed;
    expect((await rpc("tasks/get", { taskId })).result?.result).toMatchObject({
      content: [{ text: "a b c" }],
    });
  });

  it("aborts the handler's ctx.signal on tasks/cancel, acknowledges, and the task stays cancelled", async () => {
    const { mcp } = taskServer();
    const started = deferred<void>();
    const aborted = deferred<unknown>();
    mcp.tool("forever", { task: "required" }, async (_args, ctx) => {
      started.resolve();
      await new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => {
          aborted.resolve(ctx.signal.reason);
          reject(ctx.signal.reason);
        }),
      );
      return "never";
    });
    const rpc = caller(await served(mcp));
    const taskId = (await rpc("tools/call", { name: "forever", arguments: {} })).result?.taskId as string;
    await started.promise;
    const ack = await rpc("tasks/cancel", { taskId });
    expect(ack.result).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    expect(await aborted.promise).toMatchObject({ name: "AbortError", message: "The task was cancelled" });
    expect((await rpc("tasks/get", { taskId })).result).toMatchObject({ status: "cancelled" });
    expect((await rpc("tasks/cancel", { taskId })).result).toMatchObject({ resultType: "complete" });
  });

  it("answers a hand-built InputRequiredResult round before any task exists, and creates the task on the final round without requestState", async () => {
    const { mcp, tasks } = taskServer();
    let created = 0;
    tasks.onChange((t) => {
      if (t.status === "working" && t.createdAtMs === t.lastUpdatedAtMs) created++;
    });
    mcp.tool("hello", { task: "required" }, (_args, ctx) => {
      const answer = ctx.inputResponses?.user_name as { content?: { name?: string } } | undefined;
      if (answer === undefined)
        return inputRequired({ inputRequests: { user_name: ASK_NAME }, requestState: "asked" });
      return `Hello, ${answer.content?.name} (${ctx.requestState})`;
    });
    const rpc = caller(await served(mcp));
    const round = (await rpc("tools/call", { name: "hello", arguments: {} })).result;
    expect(round).toMatchObject({ resultType: "input_required", inputRequests: { user_name: ASK_NAME } });
    expect(round).not.toHaveProperty("taskId");
    expect(typeof round?.requestState).toBe("string");
    expect(round?.requestState).not.toBe("asked");
    expect(created).toBe(0);

    const completed = nextChange(tasks, (t) => t.status === "completed");
    const final = (
      await rpc("tools/call", {
        name: "hello",
        arguments: {},
        inputResponses: { user_name: accept({ name: "Alice" }) },
        requestState: round?.requestState,
      })
    ).result;
    expect(final).toMatchObject({ resultType: "task" });
    expect(final).not.toHaveProperty("requestState");
    expect(final).not.toHaveProperty("inputRequests");
    await completed;
    expect((await rpc("tasks/get", { taskId: final?.taskId })).result?.result).toMatchObject({
      content: [{ text: "Hello, Alice (asked)" }],
    });
  });

  it("withdraws the task of a round answered at once: it is not kept, and leaves the caller's cap free", async () => {
    const store = new MemoryTaskStore();
    const mcp = new MCPServer("rounds", { logger: silentLogger, tasks: { store, maxActivePerPrincipal: 1 } });
    mcp.tool("hello", { task: "required" }, (_args, ctx) => {
      if (ctx.inputResponses?.user_name === undefined)
        return inputRequired({ inputRequests: { user_name: ASK_NAME } });
      return "Hello";
    });
    const rpc = caller(await served(mcp));
    const round = (await rpc("tools/call", { name: "hello", arguments: {} })).result;
    expect(round?.resultType).toBe("input_required");
    expect((await store.list(ANONYMOUS_TASK_OWNER, { limit: 10 })).tasks).toEqual([]);
    const final = await rpc("tools/call", {
      name: "hello",
      arguments: {},
      inputResponses: { user_name: accept({ name: "Alice" }) },
      requestState: round?.requestState,
    });
    expect(final.result?.resultType).toBe("task");
  });

  it("runs a tool's resolvers as multi round-trip rounds first, and hands their values to the handler in the task", async () => {
    const { mcp, tasks } = taskServer();
    const region = resolver("region", () => elicit("Which region?", z.object({ region: z.string() })));
    mcp.tool("provision", { task: "required", resolve: { region } }, (_args, ctx) => {
      return `Provisioned in ${ctx.resolved.region.region} as task ${ctx.task?.taskId}`;
    });
    const rpc = caller(await served(mcp));
    const round = (await rpc("tools/call", { name: "provision", arguments: {} })).result;
    expect(round).toMatchObject({ resultType: "input_required" });
    expect(round).not.toHaveProperty("taskId");
    const [key] = Object.keys(round?.inputRequests ?? {});
    const completed = nextChange(tasks, (t) => t.status === "completed");
    const final = (
      await rpc("tools/call", {
        name: "provision",
        arguments: {},
        inputResponses: { [key as string]: accept({ region: "eu" }) },
        requestState: round?.requestState,
      })
    ).result;
    expect(final?.resultType).toBe("task");
    await completed;
    expect((await rpc("tasks/get", { taskId: final?.taskId })).result?.result).toMatchObject({
      content: [{ text: `Provisioned in eu as task ${final?.taskId}` }],
    });
  });

  it("fulfils an InputRequiredResult the handler answers after it first waited through the task, calling it again with the answers", async () => {
    const { mcp, tasks } = taskServer();
    const calls: unknown[] = [];
    mcp.tool("later", { task: "optional" }, async (_args, ctx) => {
      calls.push(ctx.inputResponses);
      await new Promise((resolve) => setTimeout(resolve, 1));
      const answer = ctx.inputResponses?.user_name as { content?: { name?: string } } | undefined;
      if (answer === undefined)
        return inputRequired({ inputRequests: { user_name: ASK_NAME }, requestState: "r1" });
      return `Hi ${answer.content?.name}, state ${ctx.requestState}`;
    });
    const rpc = caller(await served(mcp));
    const asking = nextChange(tasks, (t) => t.status === "input_required");
    const taskId = (await rpc("tools/call", { name: "later", arguments: {} })).result?.taskId as string;
    expect(taskId).toBeDefined();
    await asking;
    expect((await rpc("tasks/get", { taskId })).result?.inputRequests).toEqual({ user_name: ASK_NAME });
    const completed = nextChange(tasks, (t) => t.status === "completed");
    await rpc("tasks/update", { taskId, inputResponses: { user_name: accept({ name: "Bo" }) } });
    await completed;
    expect((await rpc("tasks/get", { taskId })).result?.result).toMatchObject({
      content: [{ text: "Hi Bo, state r1" }],
    });
    expect(calls).toEqual([undefined, { user_name: accept({ name: "Bo" }) }]);
  });

  it("sets the task's status message from ctx.task.setStatusMessage and ctx.sendProgress", async () => {
    const { mcp, tasks } = taskServer();
    const proceed = deferred<void>();
    mcp.tool("report", { task: "optional" }, async (_args, ctx) => {
      await ctx.task?.setStatusMessage("starting");
      await proceed.promise;
      ctx.sendProgress({ progress: 1, total: 4 });
      return "done";
    });
    const rpc = caller(await served(mcp));
    const started = nextChange(tasks, (t) => t.statusMessage === "starting");
    const taskId = (await rpc("tools/call", { name: "report", arguments: {} })).result?.taskId as string;
    await started;
    expect((await rpc("tasks/get", { taskId })).result?.statusMessage).toBe("starting");
    const progressed = nextChange(tasks, (t) => t.statusMessage === "1/4");
    proceed.resolve();
    await progressed;
  });

  it("fails the task with an McpError the handler throws, and completes it with a tool error result", async () => {
    const { mcp, tasks } = taskServer();
    mcp.tool("quota", { task: "optional", inputSchema: z.object({ hard: z.boolean() }) }, ({ hard }) => {
      if (hard) throw new McpError(-32603, "The job lost its worker");
      throw new Error("soft failure");
    });
    const rpc = caller(await served(mcp));
    const failed = nextChange(tasks, (t) => t.status === "failed");
    const hard = (await rpc("tools/call", { name: "quota", arguments: { hard: true } })).result?.taskId;
    await failed;
    expect((await rpc("tasks/get", { taskId: hard })).result).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "The job lost its worker" },
    });
    const completed = nextChange(tasks, (t) => t.status === "completed");
    const soft = (await rpc("tools/call", { name: "quota", arguments: { hard: false } })).result?.taskId;
    await completed;
    expect((await rpc("tasks/get", { taskId: soft })).result).toMatchObject({
      status: "completed",
      result: { isError: true, content: [{ text: "soft failure" }] },
    });
  });

  it("refuses a call past the principal's task cap with -32600 before its handler runs", async () => {
    const mcp = new MCPServer("capped", { logger: silentLogger, tasks: { maxActivePerPrincipal: 1 } });
    let started = 0;
    mcp.tool("hold", { task: "optional" }, async (_args, ctx) => {
      started++;
      await new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
      );
      return "never";
    });
    const rpc = caller(await served(mcp));
    const first = (await rpc("tools/call", { name: "hold", arguments: {} })).result?.taskId as string;
    const refused = await rpc("tools/call", { name: "hold", arguments: {} });
    expect(refused.error).toMatchObject({
      code: -32600,
      data: { reason: "too_many_tasks", maxActiveTasks: 1 },
    });
    expect(started).toBe(1);
    await rpc("tasks/cancel", { taskId: first });
  });

  it("runs no handler for a call whose task the store cannot create, and answers -32603", async () => {
    const store = new MemoryTaskStore();
    store.create = async () => {
      throw new StateUnavailableError("the task store is unreachable");
    };
    const mcp = new MCPServer("unreachable", { logger: silentLogger, tasks: { store } });
    let started = 0;
    mcp.tool("job", { task: "optional" }, () => {
      started++;
      return "done";
    });
    const refused = await caller(await served(mcp))("tools/call", { name: "job", arguments: {} });
    expect(refused.error).toMatchObject({ code: -32603, message: "Internal error" });
    expect(started).toBe(0);
  });

  it("keeps a principal's running handlers within maxActivePerPrincipal even when they ignore cancellation", async () => {
    const mcp = new MCPServer("stubborn", { logger: silentLogger, tasks: { maxActivePerPrincipal: 3 } });
    const release = deferred<void>();
    let running = 0;
    let ended = 0;
    mcp.tool("stubborn", { task: "optional" }, async () => {
      running++;
      await release.promise;
      running--;
      ended++;
      return "finished anyway";
    });
    const rpc = caller(await served(mcp));
    let created = 0;
    let refused: unknown;
    for (let i = 0; i < 10; i++) {
      const answer = await rpc("tools/call", { name: "stubborn", arguments: {} });
      if (answer.result?.taskId === undefined) {
        refused = answer.error;
        continue;
      }
      created++;
      await rpc("tasks/cancel", { taskId: answer.result.taskId });
    }
    expect({ created, running }).toEqual({ created: 3, running: 3 });
    expect(refused).toMatchObject({ code: -32600, data: { reason: "too_many_tasks", maxActiveTasks: 3 } });

    release.resolve();
    await vi.waitFor(() => expect(ended).toBe(3));
    const again = await rpc("tools/call", { name: "stubborn", arguments: {} });
    expect(again.result?.resultType).toBe("task");
    await rpc("tasks/cancel", { taskId: again.result?.taskId });
  });

  it("tells unauthenticated callers at the task cap that they share one limit, and that auth gives each its own", async () => {
    const mcp = new MCPServer("shared", { logger: silentLogger, tasks: { maxActivePerPrincipal: 1 } });
    mcp.tool("hold", { task: "optional" }, async (_args, ctx) => {
      await new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
      );
      return "never";
    });
    const rpc = caller(await served(mcp));
    const first = (await rpc("tools/call", { name: "hold", arguments: {} })).result?.taskId as string;
    const refused = await rpc("tools/call", { name: "hold", arguments: {} });
    expect(refused.error).toMatchObject({
      code: -32600,
      data: { reason: "too_many_tasks", maxActiveTasks: 1 },
    });
    expect(refused.error?.message).toBe(
      "Too many tasks: unauthenticated callers share one limit of 1 running task, and it is reached; wait for one to finish or cancel one (the server can require authentication to give each caller its own limit)",
    );
    await rpc("tasks/cancel", { taskId: first });
  });

  it("leaves tasks/* to the tasks methods: the requestState boundary neither opens nor seals anything there", async () => {
    const { mcp, tasks } = taskServer();
    mcp.tool("quick", { task: "optional" }, () => "done");
    const rpc = caller(await served(mcp));
    const completed = nextChange(tasks, (t) => t.status === "completed");
    const taskId = (await rpc("tools/call", { name: "quick", arguments: {} })).result?.taskId as string;
    await completed;
    const got = await rpc("tasks/get", { taskId, requestState: "not a sealed token" });
    expect(got.result).toMatchObject({ status: "completed" });
    expect(got.result).not.toHaveProperty("requestState");
    const updated = await rpc("tasks/update", {
      taskId,
      inputResponses: {},
      requestState: "not a sealed token",
    });
    expect(updated.result).toMatchObject({ resultType: "complete" });
  });
});
