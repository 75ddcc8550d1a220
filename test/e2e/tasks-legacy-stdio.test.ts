/**
 * The 2025-11-25 revision's core tasks on tsmcp's `MCPServer` over stdio (a real child process),
 * driven by the tsmcp `Client` on `protocolVersion: "legacy"`: a task created with `params.task`,
 * its question answered while `tasks/result` waits, a failed task's error, cancellation, the
 * session's `tasks/list`, and `notifications/tasks/status` for the tasks the session created.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, TaskCancelledError, UnknownTaskError } from "../../packages/tsmcp/src/client/index.js";
import { McpError } from "../../packages/tsmcp/src/protocol/errors.js";
import type { Clock, JSONRPCMessage } from "../../packages/tsmcp/src/protocol/index.js";
import { ROOT } from "../interop/peers.js";
import { EXPLODE_CODE } from "./legacy-task-server.js";

/** Waits end at once: the server's work decides how many polls a task takes. */
const immediate: Clock = {
  now: () => Date.now(),
  sleep: async (_ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setImmediate(resolve));
  },
};

let client: Client;
const questions: string[] = [];
const statuses: { taskId: string; status: string }[] = [];
let onStatus: () => void = () => {};

beforeAll(async () => {
  client = await Client.connect(
    {
      command: process.execPath,
      args: ["--import", "tsx", "test/e2e/legacy-task-server.ts"],
      cwd: ROOT,
    },
    {
      protocolVersion: "legacy",
      clock: immediate,
      timeoutMs: 10_000,
      elicitationCallback: async (params) => {
        questions.push(params.message);
        return { action: "accept", content: { ok: false } };
      },
      onMessage: (message: JSONRPCMessage, direction) => {
        if (direction !== "received" || !("method" in message)) return;
        if (message.method !== "notifications/tasks/status") return;
        statuses.push(message.params as { taskId: string; status: string });
        onStatus();
      },
    },
  );
});

afterAll(async () => {
  await client?.close();
});

const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text?: string }).text;

/** Resolves once a `notifications/tasks/status` for `taskId` with `status` arrived. */
function statusSeen(taskId: string, status: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (statuses.some((seen) => seen.taskId === taskId && seen.status === status)) resolve();
    };
    const previous = onStatus;
    onStatus = () => {
      previous();
      check();
    };
    check();
  });
}

describe("2025-11-25 tasks on an MCPServer over stdio", () => {
  it("declares the tasks capability, with tasks/list (stdio has one peer)", () => {
    expect(client.era).toBe("legacy");
    expect(client.serverCapabilities?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
  });

  it("runs an optional tool as a task and collects its result", async () => {
    const task = await client.callTool("crunch", { label: "pi" }, { task: true });
    expect(task.taskId).toEqual(expect.any(String));
    expect(textOf(await task.result())).toBe("crunched pi");
  });

  it("sends the task's question while tasks/result waits, and the answer reaches the tool", async () => {
    const task = await client.callTool("confirm", {}, { task: true });
    expect(textOf(await task.result())).toBe("kept");
    expect(questions).toEqual(["Delete everything?"]);
  });

  it("rejects the result of a failed task with its error", async () => {
    const task = await client.callTool("explode", {}, { task: true });
    await expect(task.result()).rejects.toMatchObject({ code: EXPLODE_CODE });
    await expect(task.result()).rejects.toBeInstanceOf(McpError);
  });

  it("tells the session of its task's changes with notifications/tasks/status", async () => {
    const task = await client.callTool("idle", {}, { task: true });
    const cancelled = statusSeen(task.taskId as string, "cancelled");
    await task.cancel();
    await cancelled;
    expect(statuses.find((seen) => seen.taskId === task.taskId)).toMatchObject({
      status: "cancelled",
      createdAt: expect.any(String),
      ttl: expect.any(Number),
    });
    await expect(task.result()).rejects.toBeInstanceOf(TaskCancelledError);
  });

  it("lists the session's tasks, newest first, and knows no other id", async () => {
    const { tasks } = await client.session.listTasks();
    expect(tasks.length).toBe(4);
    expect(tasks.map((task) => task.status)).toEqual(["cancelled", "failed", "completed", "completed"]);
    await expect(client.task("no-such-task")).rejects.toBeInstanceOf(UnknownTaskError);
  });
});
