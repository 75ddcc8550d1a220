/**
 * The 2025-11-25 revision's core tasks on tsmcp's `MCPServer` over real Streamable HTTP sessions,
 * driven by the tsmcp `Client` on `protocolVersion: "legacy"` (and by hand where the wire itself is
 * the point): `capabilities.tasks`, `execution.taskSupport`, `params.task` answered with
 * `CreateTaskResult { task }`, `tasks/get`, `tasks/result` (with the task's question sent on its
 * back-channel), `tasks/list` scoped to the caller (two bearer principals), `tasks/cancel`, and the
 * errors of each. The same server's tools seen at 2026-07-28 carry no `execution`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client,
  type ClientOptions,
  TaskCancelledError,
  type ToolTask,
  UnknownTaskError,
} from "../../packages/tsmcp/src/client/index.js";
import { McpError } from "../../packages/tsmcp/src/protocol/errors.js";
import type { Clock, JSONRPCMessage } from "../../packages/tsmcp/src/protocol/index.js";
import { bearerAuth, InvalidTokenError, type MCPServer } from "../../packages/tsmcp/src/server/index.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/transport/http/node/node.js";
import { initialize, legacy, onSession, post } from "../helpers/mcp-post.js";
import { EXPLODE_CODE, legacyTaskServer } from "./legacy-task-server.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const TOKENS: Record<string, string> = { "alice-token": "alice", "bob-token": "bob" };

/** Waits end at once: the server's work decides how many polls a task takes. */
const immediate: Clock = {
  now: () => Date.now(),
  sleep: async (_ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    await new Promise((resolve) => setImmediate(resolve));
  },
};

let mcp: MCPServer;
let handle: HttpServerHandle;
let alice: Client;
let bob: Client;
const received: JSONRPCMessage[] = [];
const sent: JSONRPCMessage[] = [];
const questions: string[] = [];

function options(token: string, record = false): ClientOptions {
  return {
    protocolVersion: "legacy",
    auth: { headers: () => ({ authorization: `Bearer ${token}` }), onChallenge: () => false },
    clock: immediate,
    timeoutMs: 10_000,
    elicitationCallback: async (params) => {
      questions.push(params.message);
      return { action: "accept", content: { ok: true } };
    },
    ...(record
      ? {
          onMessage: (message: JSONRPCMessage, direction: "sent" | "received") =>
            (direction === "sent" ? sent : received).push(message),
        }
      : {}),
  };
}

beforeAll(async () => {
  mcp = legacyTaskServer();
  handle = await serve(mcp, {
    port: 0,
    authenticate: bearerAuth({
      verifier: {
        verify: async (token) => {
          const subject = TOKENS[token];
          if (subject === undefined) throw new InvalidTokenError("unknown token");
          return { token, clientId: "tests", subject };
        },
      },
    }),
  });
  alice = await Client.connect(handle.url, options("alice-token", true));
  bob = await Client.connect(handle.url, options("bob-token"));
});

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await handle?.close();
  mcp?.close();
});

const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text?: string }).text;

/** A raw 2025-era session of `token`, for requests the client would not send. */
async function rawSession(token: string) {
  const opened = await post(handle.url, initialize(), token);
  const headers = onSession(opened.sessionId as string);
  await post(handle.url, { jsonrpc: "2.0", method: "notifications/initialized" }, token, headers);
  return {
    capabilities: opened.body.result.capabilities as Record<string, unknown>,
    send: (method: string, params: Record<string, unknown> = {}) =>
      post(handle.url, legacy(method, params), token, headers),
  };
}

describe("2025-11-25 tasks on an MCPServer over HTTP sessions", () => {
  it("declares capabilities.tasks at initialize and lists each task tool's execution.taskSupport", async () => {
    expect(alice.era).toBe("legacy");
    expect(alice.serverCapabilities?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await alice.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution]));
    expect(support).toEqual({
      crunch: { taskSupport: "optional" },
      confirm: { taskSupport: "required" },
      idle: { taskSupport: "optional" },
      explode: { taskSupport: "optional" },
      oops: { taskSupport: "optional" },
      pid: undefined,
    });
  });

  it("shows no execution field to a 2026-07-28 client of the same server", async () => {
    const modern = await Client.connect(handle.url, {
      auth: { headers: () => ({ authorization: "Bearer alice-token" }), onChallenge: () => false },
      protocolVersion: "2026-07-28",
    });
    try {
      const { tools } = await modern.listTools();
      expect(tools.every((tool) => tool.execution === undefined)).toBe(true);
    } finally {
      await modern.close();
    }
  });

  it("runs an optional tool as a task: CreateTaskResult, the asked ttl, then tasks/result", async () => {
    const task = await alice.callTool("crunch", { label: "pi" }, { task: { ttlMs: 30_000 } });
    expect(task.taskId).toEqual(expect.any(String));
    expect(task.task).toMatchObject({ status: "working", ttlMs: 30_000, pollIntervalMs: 20 });
    const result = await task.result();
    expect(textOf(result)).toBe("crunched pi");
    expect(result._meta?.[RELATED_TASK]).toEqual({ taskId: task.taskId });
    expect(task.status).toBe("completed");
    const methods = sent.flatMap((message) => ("method" in message ? [message.method] : []));
    expect(methods).toContain("tasks/result");
  });

  it("cuts a ttl longer than the manager's maxTtlMs to it", async () => {
    const task = await alice.callTool("crunch", { label: "e" }, { task: { ttlMs: 10 * 86_400_000 } });
    expect(task.task?.ttlMs).toBe(mcp.tasks?.maxTtlMs);
    await task.result();
  });

  it("runs an optional tool plainly when the call does not ask for a task", async () => {
    expect(textOf(await alice.callTool("crunch", { label: "tau" }))).toBe("crunched tau");
  });

  it("refuses a required tool called without params.task with -32601", async () => {
    const refused = await alice.callTool("confirm", {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: -32601 });
  });

  it("refuses params.task on a tool without task support with -32601", async () => {
    const raw = await rawSession("alice-token");
    const answer = await raw.send("tools/call", { name: "pid", arguments: {}, task: {} });
    expect(answer.body.error).toMatchObject({ code: -32601 });
  });

  it("sends the task's question on tasks/result's back-channel, tagged with the task, and resolves", async () => {
    const task = await alice.callTool("confirm", {}, { task: true });
    expect(textOf(await task.result())).toBe("deleted");
    expect(questions).toContain("Delete everything?");
    const asked = received.find((message) => "method" in message && message.method === "elicitation/create");
    expect((asked as { params?: { _meta?: unknown } }).params?._meta).toEqual({
      [RELATED_TASK]: { taskId: task.taskId },
    });
  });

  it("answers tasks/result of a failed task with the task's JSON-RPC error", async () => {
    const task = await alice.callTool("explode", {}, { task: true });
    const failure = await task.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({
      code: EXPLODE_CODE,
      message: "The reactor exploded",
      data: { core: "breached" },
    });
    expect(task.status).toBe("failed");
  });

  it("shows a tool's isError result as failed, and tasks/result answers that result", async () => {
    const task = await alice.callTool("oops", {}, { task: true });
    const result = await task.result();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("the tool failed");
    const polled = await alice.session.getTask(task.taskId as string);
    expect(polled).toMatchObject({ status: "failed", statusMessage: "the tool failed" });
  });

  it("cancels a running task: the cancelled Task, then -32602 for a second cancel", async () => {
    const task = await alice.callTool("idle", {}, { task: true });
    await task.cancel();
    expect(task.status).toBe("cancelled");
    expect((await alice.session.getTask(task.taskId as string)).status).toBe("cancelled");
    await expect(alice.session.cancelTask(task.taskId as string)).rejects.toBeInstanceOf(UnknownTaskError);
    await expect(task.result()).rejects.toBeInstanceOf(TaskCancelledError);
  });

  it("answers a tasks/result waiting on a task that gets cancelled with -32600 naming it cancelled", async () => {
    const task = await alice.callTool("idle", {}, { task: true });
    const taskId = task.taskId as string;
    const waiting = alice.session.taskResult(taskId, { timeoutMs: Number.POSITIVE_INFINITY });
    await alice.session.cancelTask(taskId);
    const failure = await waiting.catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: -32600, data: { taskId, status: "cancelled" } });
  });

  it("settles a handle whose task is cancelled while it answers the task's question as cancelled", async () => {
    let current: ToolTask | undefined;
    const carol = await Client.connect(handle.url, {
      ...options("alice-token"),
      elicitationCallback: async () => {
        await carol.session.cancelTask(current?.taskId as string);
        return { action: "accept", content: { ok: true } };
      },
    });
    try {
      current = await carol.callTool("confirm", {}, { task: true });
      await expect(current.result()).rejects.toBeInstanceOf(TaskCancelledError);
      expect(current.status).toBe("cancelled");
    } finally {
      await carol.close();
    }
  });

  it("lists only the caller's own tasks to each principal", async () => {
    const mine = await bob.callTool("idle", {}, { task: true });
    const aliceIds = (await alice.session.listTasks()).tasks.map((task) => task.taskId);
    const bobIds = (await bob.session.listTasks()).tasks.map((task) => task.taskId);
    expect(bobIds).toEqual([mine.taskId]);
    expect(aliceIds).not.toContain(mine.taskId);
    expect(aliceIds.length).toBeGreaterThan(3);
    await expect(alice.session.getTask(mine.taskId as string)).rejects.toBeInstanceOf(UnknownTaskError);
    await expect(alice.session.cancelTask(mine.taskId as string)).rejects.toBeInstanceOf(UnknownTaskError);
    await mine.cancel();
  });

  it("answers -32602 for an unknown task id on tasks/get, tasks/result and tasks/cancel", async () => {
    const raw = await rawSession("alice-token");
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      const answer = await raw.send(method, { taskId: "no-such-task" });
      expect(answer.body.error, method).toMatchObject({
        code: -32602,
        message: "Failed to retrieve task: Task not found",
      });
    }
    await expect(alice.task("no-such-task")).rejects.toBeInstanceOf(UnknownTaskError);
  });
});
