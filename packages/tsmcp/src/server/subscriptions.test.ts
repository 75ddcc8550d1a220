/**
 * `subscriptions/listen` for the tasks extension's `taskIds`: the cap on ids per listen, the
 * acknowledgement, and delivery that costs only the streams watching the changed task.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { requestMeta, rpc } from "../../../../test/helpers/meta.js";
import { deferred } from "../protocol/async.js";
import type { JSONRPCNotification, JSONRPCResponse } from "../protocol/jsonrpc.js";
import { silentLogger } from "../protocol/logger.js";
import type { SubscriptionFilter } from "../protocol/schema/methods.js";
import type { AuthInfo, Dispatcher } from "../transport/dispatcher.js";
import { MCPServer } from "./mcp/server.js";
import { Server, type ServerOptions } from "./server.js";
import { DEFAULT_MAX_TASK_SUBSCRIPTIONS, SubscriptionHub } from "./subscriptions.js";
import { TaskManager } from "./tasks/manager.js";
import { PRINCIPALS, TASK_CAPABILITIES } from "./tasks/tasks-test-fixtures.js";

/** A server whose tool calls become tasks that wait until the test ends. */
function taskServer(options: ServerOptions = {}): Server {
  const tasks = new TaskManager({ logger: silentLogger });
  const server = new Server("s", {
    logger: silentLogger,
    tasks,
    onCallTool: (ctx) => tasks.run(ctx, () => new Promise(() => {})),
    ...options,
  });
  onTestFinished(() => server.close());
  return server;
}

/** Creates a task as `auth`; resolves with its id. */
async function createTask(server: Server, auth: AuthInfo): Promise<string> {
  const response = await server.handle(
    rpc("tools/call", { name: "job", arguments: {}, _meta: requestMeta(TASK_CAPABILITIES) }),
    { signal: new AbortController().signal, auth },
  );
  if (response === undefined || !("result" in response)) throw new Error("expected a task");
  return response.result.taskId as string;
}

/**
 * Opens a listen for `taskIds` as `auth`: resolves with the acknowledgement's `notifications`
 * (the stream then stays open until the test ends), or with the error the listen was refused with.
 */
async function listen(
  server: Dispatcher,
  taskIds: string[],
  auth?: AuthInfo,
): Promise<{ acknowledged?: SubscriptionFilter; error?: { code: number; message: string } }> {
  const controller = new AbortController();
  onTestFinished(() => controller.abort());
  const acknowledged = deferred<SubscriptionFilter>();
  const answered = server.handle(
    rpc("subscriptions/listen", { notifications: { taskIds }, _meta: requestMeta(TASK_CAPABILITIES) }, 9),
    {
      signal: controller.signal,
      ...(auth === undefined ? {} : { auth }),
      notify: (notification) => {
        if (notification.method === "notifications/subscriptions/acknowledged") {
          acknowledged.resolve(notification.params?.notifications as SubscriptionFilter);
        }
      },
    },
  ) as Promise<JSONRPCResponse>;
  return await Promise.race([
    acknowledged.promise.then((filter) => ({ acknowledged: filter })),
    answered.then((response) => ("error" in response ? { error: response.error } : {})),
  ]);
}

const ids = (count: number, prefix = "t") => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe("subscriptions/listen for task ids", () => {
  it("refuses a listen for more task ids than the default cap with -32602 naming the limit, and takes one at the cap", async () => {
    const server = taskServer();
    const over = await listen(server, ids(1001));
    expect(over.error?.code).toBe(-32602);
    expect(over.error?.message).toBe(
      "Invalid params: notifications.taskIds lists 1001 task ids, more than the 1000 one subscriptions/listen may watch",
    );
    expect(over.acknowledged).toBeUndefined();
    expect(DEFAULT_MAX_TASK_SUBSCRIPTIONS).toBe(1000);
    const at = await listen(server, ids(1000));
    expect(at.acknowledged?.taskIds).toHaveLength(1000);
  });

  it("takes its cap from the maxTaskSubscriptions option, and checks the option when the server is built", async () => {
    const server = taskServer({ maxTaskSubscriptions: 2 });
    expect((await listen(server, ids(3))).error).toEqual({
      code: -32602,
      message:
        "Invalid params: notifications.taskIds lists 3 task ids, more than the 2 one subscriptions/listen may watch",
    });
    expect((await listen(server, ["a", "b"])).acknowledged).toEqual({ taskIds: ["a", "b"] });
    const mcp = new MCPServer("m", { logger: silentLogger, tasks: {}, maxTaskSubscriptions: 1 });
    onTestFinished(() => mcp.close());
    expect((await listen(mcp, ["a", "b"])).error?.message).toContain("more than the 1 one");
    expect(() => new Server("s", { maxTaskSubscriptions: 0 })).toThrow(RangeError);
    expect(() => new MCPServer("m", { maxTaskSubscriptions: 0 })).toThrow(RangeError);
    expect(() => new Server("s", { maxTaskSubscriptions: 1.5 })).toThrow(RangeError);
    expect(() => new Server("s", { maxTaskSubscriptions: "9" as unknown as number })).toThrow(TypeError);
  });

  it("acknowledges each requested task id once, the same whether the task is the caller's, another principal's or unknown", async () => {
    const server = taskServer();
    const alices = await createTask(server, PRINCIPALS.alice as AuthInfo);
    const bobs = await createTask(server, PRINCIPALS.bob as AuthInfo);
    const requested = [alices, bobs, "no-such-task", alices];
    const asAlice = await listen(server, requested, PRINCIPALS.alice);
    const asBob = await listen(server, requested, PRINCIPALS.bob);
    expect(asAlice.acknowledged).toEqual({ taskIds: [alices, bobs, "no-such-task"] });
    expect(asBob.acknowledged).toEqual(asAlice.acknowledged);
  });
});

describe("SubscriptionHub.publishTask", () => {
  /** A filter whose `taskIds` counts how often it is read. */
  function countingFilter(taskIds: string[]) {
    const reads = { count: 0 };
    const filter = {
      get taskIds() {
        reads.count++;
        return taskIds;
      },
    } as SubscriptionFilter;
    return { filter, reads };
  }

  it("reaches the owner's streams watching the task, and never reads the lists of streams that do not watch it", async () => {
    const hub = new SubscriptionHub();
    const controller = new AbortController();
    onTestFinished(() => controller.abort());
    const sent: { stream: string; notification: JSONRPCNotification }[] = [];
    const watchers = [
      { stream: "alice-watching", owner: "alice", taskIds: ["t1", "t2"] },
      { stream: "bob-watching", owner: "bob", taskIds: ["t1"] },
      { stream: "alice-elsewhere", owner: "alice", taskIds: ids(1000, "other") },
    ];
    const filters = watchers.map(({ stream, owner, taskIds }) => {
      const { filter, reads } = countingFilter(taskIds);
      void hub.listen(
        stream,
        filter,
        (notification) => sent.push({ stream, notification }),
        controller.signal,
        owner,
      );
      return reads;
    });
    sent.length = 0;
    for (const reads of filters) reads.count = 0;

    for (let i = 0; i < 100; i++) hub.publishTask("alice", "unwatched", { taskId: "unwatched" });
    hub.publishTask("alice", "t1", { taskId: "t1", status: "completed" });

    expect(filters.map((reads) => reads.count)).toEqual([0, 0, 0]);
    expect(sent).toEqual([
      {
        stream: "alice-watching",
        notification: {
          jsonrpc: "2.0",
          method: "notifications/tasks",
          params: {
            taskId: "t1",
            status: "completed",
            _meta: { "io.modelcontextprotocol/subscriptionId": "alice-watching" },
          },
        },
      },
    ]);
    controller.abort();
    await Promise.resolve();
    hub.publishTask("alice", "t1", { taskId: "t1" });
    expect(sent).toHaveLength(1);
    expect(hub.size).toBe(0);
  });

  it("keeps no stream whose listener aborted while its acknowledgement went out", async () => {
    const hub = new SubscriptionHub();
    const controller = new AbortController();
    const sent: string[] = [];
    const notify = (notification: JSONRPCNotification) => {
      sent.push(notification.method);
      controller.abort();
    };
    const outcome = hub.listen("gone", { taskIds: ["t1"] }, notify, controller.signal, "alice");
    expect(await outcome).toBe("aborted");
    expect(hub.size).toBe(0);
    hub.publishTask("alice", "t1", { taskId: "t1" });
    expect(sent).toEqual(["notifications/subscriptions/acknowledged"]);
  });
});
