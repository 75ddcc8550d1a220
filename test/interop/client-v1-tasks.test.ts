/**
 * The tsmcp `Client`'s task handle on a 2025-11-25 session, against the official 1.x SDK's
 * experimental server-side tasks over stdio (a real child process): `params.task` is sent only for
 * a tool whose `execution.taskSupport` allows it, the task is polled with `tasks/get` and collected
 * with `tasks/result`, a question asked inside the task reaches the same elicitation callback as
 * any other, `tasks/list` pages the session's tasks, and `tasks/cancel` answers the cancelled task.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientOptions } from "../../packages/tsmcp/src/client/index.js";
import type { Clock, JSONRPCMessage } from "../../packages/tsmcp/src/protocol/index.js";
import { ROOT } from "./peers.js";

let client: Client;
const sent: JSONRPCMessage[] = [];
const questions: string[] = [];

/** Waits end at once: the server's own work decides how many polls a task takes. */
const immediate: Clock = {
  now: () => Date.now(),
  sleep: async (_ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setImmediate(resolve));
  },
};

const options: ClientOptions = {
  timeoutMs: 10_000,
  clock: immediate,
  elicitationCallback: async (params) => {
    questions.push(params.message);
    return { action: "accept", content: { ok: true } };
  },
  onMessage: (message, direction) => {
    if (direction === "sent") sent.push(message);
  },
};

beforeAll(async () => {
  client = await Client.connect(
    {
      command: process.execPath,
      args: ["--import", "tsx", "test/interop/official-v1-task-server.ts"],
      cwd: ROOT,
    },
    options,
  );
});

afterAll(async () => {
  await client?.close();
});

const textOf = (result: { content: readonly { type: string; text?: string }[] }) => result.content[0]?.text;

/** The params of the `tools/call` requests sent for `tool`. */
function callsOf(tool: string): Record<string, unknown>[] {
  return sent.flatMap((message) =>
    "method" in message && message.method === "tools/call" && message.params?.name === tool
      ? [message.params as Record<string, unknown>]
      : [],
  );
}

describe("the tsmcp task handle against the official 1.x server's 2025-11-25 tasks", () => {
  it("speaks the 2025-11-25 handshake and sees the server's tasks capability", () => {
    expect(client.era).toBe("legacy");
    expect(client.serverCapabilities?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
  });

  it("sends params.task with the ttl, polls tasks/get and collects the result with tasks/result", async () => {
    const task = await client.callTool("crunch", { label: "pi" }, { task: { ttlMs: 30_000 } });
    expect(task.taskId).toEqual(expect.any(String));
    expect(task.task?.pollIntervalMs).toBe(50);
    expect(task.task?.ttlMs).toEqual(expect.any(Number));
    expect(textOf(await task.result())).toBe("crunched pi");
    expect(task.status).toBe("completed");
    expect(callsOf("crunch").at(-1)?.task).toEqual({ ttl: 30_000 });
    const methods = sent.flatMap((message) => ("method" in message ? [message.method] : []));
    expect(methods).toContain("tasks/get");
    expect(methods).toContain("tasks/result");
  });

  it("calls a tool without task support plainly, even when asked for a task", async () => {
    const task = await client.callTool("plain", {}, { task: true });
    expect(task.taskId).toBeUndefined();
    expect(textOf(await task.result())).toBe("plain answer");
    expect(callsOf("plain").at(-1)?.task).toBeUndefined();
  });

  it("answers a question asked inside the task with the elicitation callback, then resolves", async () => {
    const task = await client.callTool("confirm", {}, { task: true });
    expect(textOf(await task.result())).toBe("deleted");
    expect(questions).toContain("Delete everything?");
  });

  it("resolves a failed task with what tasks/result answers, and shows the failed status", async () => {
    const task = await client.callTool("explode", {}, { task: true });
    // The 1.x SDK answers tasks/result of a failed task with the stored result (isError) rather
    // than a JSON-RPC error; the handle hands over what the server answered.
    const result = await task.result();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("the reactor exploded");
    expect(task.status).toBe("failed");
  });

  it("lists the session's tasks with tasks/list, under the extension's field names", async () => {
    const page = await client.session.listTasks();
    expect(page.tasks.length).toBeGreaterThan(0);
    expect(page.tasks[0]).toMatchObject({ taskId: expect.any(String), status: expect.any(String) });
    expect(page.tasks[0]).toHaveProperty("ttlMs");
  });

  it("cancels a running task: tasks/cancel answers the cancelled task and the handle shows it", async () => {
    const task = await client.callTool("idle", {}, { task: true });
    await task.cancel();
    expect(task.status).toBe("cancelled");
    const polled = await client.session.getTask(task.taskId as string);
    expect(polled.status).toBe("cancelled");
  });
});
