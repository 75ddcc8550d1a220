/**
 * Tasks across the replicas of a fleet: two servers over real HTTP sharing one task store and one
 * message bus. Any replica answers for a task another one runs; answers and cancels reach the
 * replica running it; status changes reach listen streams on every replica, for the task's owner
 * only.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import { deferred } from "../../protocol/async.js";
import type { JSONRPCNotification } from "../../protocol/jsonrpc.js";
import { silentLogger } from "../../protocol/logger.js";
import { MemoryMessageBus } from "../../state/memory-message-bus.js";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { MCPServer } from "../mcp/server.js";
import { TaskManager } from "./manager.js";
import { caller, nextChange, PRINCIPALS, served, TASK_CAPABILITIES } from "./tasks-test-fixtures.js";

/** Two replicas of one MCPServer over a shared store and bus, with the tool `ask` run as a task. */
async function fleet() {
  const store = new MemoryTaskStore();
  const bus = new MemoryMessageBus();
  const aborted = deferred<unknown>();
  const replica = async () => {
    const tasks = new TaskManager({ store, bus, logger: silentLogger });
    onTestFinished(() => tasks.close());
    const mcp = new MCPServer("fleet", { logger: silentLogger, tasks });
    mcp.tool("ask", { task: "required" }, async (_args, ctx) => {
      ctx.signal.addEventListener("abort", () => aborted.resolve(ctx.signal.reason));
      const answer = await ctx.elicit({
        mode: "form",
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      return `Hello, ${String(answer.content?.name)}`;
    });
    return { mcp, tasks, url: await served(mcp) };
  };
  return { a: await replica(), b: await replica(), aborted };
}

/** Opens a `subscriptions/listen` stream on `mcp` as `auth`; resolves with what it receives once acknowledged. */
async function listen(mcp: MCPServer, taskIds: string[], auth?: AuthInfo) {
  const received: JSONRPCNotification[] = [];
  const controller = new AbortController();
  onTestFinished(() => controller.abort());
  const acknowledged = deferred<void>();
  void mcp.handle(
    {
      jsonrpc: "2.0",
      id: "listen",
      method: "subscriptions/listen",
      params: { notifications: { taskIds }, _meta: requestMeta(TASK_CAPABILITIES) },
    },
    {
      signal: controller.signal,
      ...(auth === undefined ? {} : { auth }),
      notify: (notification) => {
        received.push(notification);
        if (notification.method === "notifications/subscriptions/acknowledged") acknowledged.resolve();
      },
    },
  );
  await acknowledged.promise;
  return received;
}

describe("tasks on two replicas sharing a store and a bus", () => {
  it("serve tasks/get on the other replica, and carry its tasks/update to the replica running the task", async () => {
    const { a, b } = await fleet();
    const asking = nextChange(a.tasks, (t) => t.status === "input_required");
    const taskId = (await caller(a.url)("tools/call", { name: "ask", arguments: {} })).result
      ?.taskId as string;
    await asking;
    const onB = caller(b.url);
    expect((await onB("tasks/get", { taskId })).result).toMatchObject({
      status: "input_required",
      inputRequests: { elicitation: { method: "elicitation/create" } },
    });
    const completed = nextChange(a.tasks, (t) => t.status === "completed");
    await onB("tasks/update", {
      taskId,
      inputResponses: { elicitation: { action: "accept", content: { name: "Flo" } } },
    });
    await completed;
    expect((await onB("tasks/get", { taskId })).result?.result).toMatchObject({
      content: [{ text: "Hello, Flo" }],
    });
  });

  it("carry tasks/cancel on the other replica to the running handler's signal", async () => {
    const { a, b, aborted } = await fleet();
    const asking = nextChange(a.tasks, (t) => t.status === "input_required");
    const taskId = (await caller(a.url)("tools/call", { name: "ask", arguments: {} })).result
      ?.taskId as string;
    await asking;
    await caller(b.url)("tasks/cancel", { taskId });
    expect(await aborted.promise).toMatchObject({ message: "The task was cancelled" });
    expect((await caller(a.url)("tasks/get", { taskId })).result?.status).toBe("cancelled");
  });

  it("deliver notifications/tasks with the full task to listen streams on either replica, for the task's owner only", async () => {
    const { a, b } = await fleet();
    const asking = nextChange(a.tasks, (t) => t.status === "input_required");
    // In-process listens (the HTTP stream is the transport's); requests carry the principals' AuthInfo.
    const taskIdPromise = a.mcp.handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "ask", arguments: {}, _meta: requestMeta(TASK_CAPABILITIES) },
      },
      { signal: new AbortController().signal, auth: PRINCIPALS.alice as AuthInfo },
    );
    const response = (await taskIdPromise) as unknown as { result: { taskId: string } };
    const taskId = response.result.taskId;
    await asking;
    const alice = await listen(b.mcp, [taskId], PRINCIPALS.alice);
    const bob = await listen(b.mcp, [taskId], PRINCIPALS.bob);
    const other = await listen(b.mcp, ["another-task"], PRINCIPALS.alice);
    const cancelled = nextChange(b.tasks, (t) => t.status === "cancelled");
    await b.tasks.cancel(b.tasks.ownerOf(PRINCIPALS.alice), taskId);
    await cancelled;
    expect(alice[0]?.params?.notifications).toEqual({ taskIds: [taskId] });
    const tasks = alice.filter((n) => n.method === "notifications/tasks");
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.params).toMatchObject({ taskId, status: "cancelled", ttlMs: 3_600_000 });
    expect(tasks[0]?.params).not.toHaveProperty("requestState");
    expect(tasks[0]?.params?._meta).toEqual({ "io.modelcontextprotocol/subscriptionId": "listen" });
    expect(bob.map((n) => n.method)).toEqual(["notifications/subscriptions/acknowledged"]);
    expect(other.map((n) => n.method)).toEqual(["notifications/subscriptions/acknowledged"]);
  });
});
