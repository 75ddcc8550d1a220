/**
 * The 2025-11-25 core tasks on a `Server`'s handshake-era path, on fake sessions: what a server
 * without tasks does with `params.task`, the wire shapes of a low-level `Server` that runs tasks
 * with `TaskManager.run`, owner scope without auth, a client's error to a forwarded question, a
 * `tasks/result` served by another replica than the one running the task, and status
 * notifications.
 */
import { describe, expect, it } from "vitest";

import { McpError } from "../../protocol/errors.js";
import { MemoryMessageBus } from "../../state/memory-message-bus.js";
import { MemoryTaskStore } from "../../state/memory-task-store.js";
import {
  errorOf,
  handshake,
  legacyEnv,
  legacyRequest,
  resultOf,
  tableBackChannel,
  testSession,
} from "../legacy/legacy-test-fixtures.js";
import { MCPServer } from "../mcp/server.js";
import { Server } from "../server.js";
import { TaskManager } from "./manager.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";
const ALICE = { token: "a", clientId: "tests", subject: "alice" };

/** A low-level server whose `tools/call` runs as a task when the request allows it. */
function taskServer(tasks = new TaskManager({ pollIntervalMs: 5 })) {
  return new Server("jobs", {
    tasks,
    onListTools: () => ({ tools: [] }),
    onCallTool: (ctx, params) => {
      const answer = { content: [{ type: "text" as const, text: `ran ${params.name}` }] };
      return tasks.accepts(ctx) ? tasks.run(ctx, () => answer) : answer;
    },
  });
}

/** An MCPServer with `ask`, a task tool that asks a question and answers what it learnt. */
function askingServer(options: { store?: MemoryTaskStore; bus?: MemoryMessageBus } = {}) {
  const mcp = new MCPServer("asking", {
    tasks: { ...options, pollIntervalMs: 5, leaseMs: 60 },
  });
  mcp.tool("ask", { task: "required" }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return `hello ${String(answer.content?.name)}`;
  });
  return mcp;
}

const ELICITATION = { elicitation: { form: {} } };

describe("a server without tasks, on a 2025-era session", () => {
  it("declares no tasks capability, ignores params.task, and has no tasks/* methods", async () => {
    const server = new Server("plain", {
      onCallTool: () => ({ content: [{ type: "text", text: "at once" }] }),
    });
    const session = testSession("s1");
    const init = await handshake(server, session);
    expect(init.capabilities).not.toHaveProperty("tasks");
    const call = legacyRequest("tools/call", { name: "x", task: { ttl: 1000 } });
    expect(resultOf(await server.handle(call, legacyEnv(session)))).toEqual({
      content: [{ type: "text", text: "at once" }],
    });
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) {
      const answer = await server.handle(legacyRequest(method, { taskId: "t" }), legacyEnv(session));
      expect(errorOf(answer).code, method).toBe(-32601);
    }
  });
});

describe("a low-level Server with tasks, on a 2025-era session", () => {
  it("answers params.task with CreateTaskResult { task } in the 2025 shape, the ttl asked for", async () => {
    const server = taskServer();
    const session = testSession("s1");
    const init = await handshake(server, session);
    expect(init.capabilities).toMatchObject({
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    const call = legacyRequest("tools/call", { name: "job", task: { ttl: 60_000 } });
    const created = resultOf(await server.handle(call, legacyEnv(session)));
    expect(Object.keys(created)).toEqual(["task"]);
    const task = created.task as Record<string, unknown>;
    expect(task).toEqual({
      taskId: expect.any(String),
      status: "working",
      createdAt: expect.any(String),
      lastUpdatedAt: expect.any(String),
      ttl: 60_000,
      pollInterval: 5,
    });
    const result = await server.handle(
      legacyRequest("tasks/result", { taskId: task.taskId }),
      legacyEnv(session),
    );
    expect(resultOf(result)).toEqual({
      content: [{ type: "text", text: "ran job" }],
      _meta: { [RELATED_TASK]: { taskId: task.taskId } },
    });
  });

  it("answers a call without params.task at once", async () => {
    const server = taskServer();
    const session = testSession("s1");
    await handshake(server, session);
    const answer = await server.handle(legacyRequest("tools/call", { name: "job" }), legacyEnv(session));
    expect(resultOf(answer)).toEqual({ content: [{ type: "text", text: "ran job" }] });
  });

  it("refuses a params.task that is not a task's params with -32602", async () => {
    const server = taskServer();
    const session = testSession("s1");
    await handshake(server, session);
    const call = legacyRequest("tools/call", { name: "job", task: { ttl: "soon" } });
    const refused = errorOf(await server.handle(call, legacyEnv(session)));
    expect(refused).toMatchObject({ code: -32602, message: expect.stringContaining("task.ttl") });
  });

  it("keeps unauthenticated sessions' tasks apart, and lists each one's own", async () => {
    const server = taskServer();
    const [one, two] = [testSession("s1"), testSession("s2")];
    await handshake(server, one);
    await handshake(server, two);
    const call = () => legacyRequest("tools/call", { name: "job", task: {} });
    const mine = resultOf(await server.handle(call(), legacyEnv(one))).task as { taskId: string };
    const theirs = resultOf(await server.handle(call(), legacyEnv(two))).task as { taskId: string };
    const listed = resultOf(await server.handle(legacyRequest("tasks/list"), legacyEnv(one)));
    expect((listed.tasks as { taskId: string }[]).map((task) => task.taskId)).toEqual([mine.taskId]);
    const stolen = await server.handle(legacyRequest("tasks/get", { taskId: theirs.taskId }), legacyEnv(one));
    expect(errorOf(stolen)).toMatchObject({ code: -32602 });
  });

  it("offers no tasks/list on HTTP without a principal or a session id", async () => {
    const server = taskServer();
    const session = testSession(undefined);
    const headers = new Headers();
    const init = await server.handle(
      legacyRequest("initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "c", version: "1" },
      }),
      legacyEnv(session, { headers }),
    );
    expect(resultOf(init).capabilities).toMatchObject({
      tasks: { cancel: {}, requests: { tools: { call: {} } } },
    });
    expect((resultOf(init).capabilities as { tasks: object }).tasks).not.toHaveProperty("list");
    const list = await server.handle(legacyRequest("tasks/list"), legacyEnv(session, { headers }));
    expect(errorOf(list).code).toBe(-32601);
  });

  it("sends notifications/tasks/status to the session that created the task", async () => {
    const tasks = new TaskManager({ pollIntervalMs: 5 });
    let finish: () => void = () => {};
    const server = new Server("jobs", {
      tasks,
      onCallTool: (ctx) =>
        tasks.run(ctx, async (_taskCtx, task) => {
          await new Promise<void>((resolve) => {
            finish = resolve;
          });
          await task.setStatusMessage("nearly");
          return { content: [] };
        }),
    });
    const session = testSession("s1");
    await handshake(server, session);
    const call = legacyRequest("tools/call", { name: "job", task: {} });
    const { taskId } = resultOf(await server.handle(call, legacyEnv(session))).task as { taskId: string };
    finish();
    await server.handle(legacyRequest("tasks/result", { taskId }), legacyEnv(session));
    const statuses = session.notified
      .filter((n) => n.method === "notifications/tasks/status")
      .map((n) => n.params as { taskId: string; status: string; statusMessage?: string; _meta?: unknown });
    expect(statuses.map((s) => [s.taskId, s.status, s.statusMessage])).toEqual([
      [taskId, "working", "nearly"],
      [taskId, "completed", "nearly"],
    ]);
    expect(statuses.every((s) => s._meta === undefined)).toBe(true);
  });
});

describe("a task tool refused at the cap, on a 2025-era session", () => {
  it("answers -32600 without running the tool's handler", async () => {
    const mcp = new MCPServer("capped", { tasks: { maxActivePerPrincipal: 1 } });
    let started = 0;
    mcp.tool("hold", { task: "optional" }, async (_args, ctx) => {
      started++;
      await new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)),
      );
      return "never";
    });
    const session = testSession("s1");
    await handshake(mcp, session);
    const call = () => legacyRequest("tools/call", { name: "hold", task: {} });
    const { taskId } = resultOf(await mcp.handle(call(), legacyEnv(session))).task as { taskId: string };
    expect(errorOf(await mcp.handle(call(), legacyEnv(session)))).toMatchObject({ code: -32600 });
    expect(started).toBe(1);
    await mcp.handle(legacyRequest("tasks/cancel", { taskId }), legacyEnv(session));
    mcp.close();
  });
});

describe("input of a 2025-era task through tasks/result", () => {
  it("fails the question inside the task with the client's error, and tasks/result answers it", async () => {
    const mcp = askingServer();
    const session = testSession("s1");
    await handshake(mcp, session, ELICITATION);
    const call = legacyRequest("tools/call", { name: "ask", task: {} });
    const { taskId } = resultOf(await mcp.handle(call, legacyEnv(session))).task as { taskId: string };
    const request = tableBackChannel({
      "elicitation/create": () => {
        throw new McpError(-32042, "The user closed the dialog");
      },
    });
    const answer = await mcp.handle(
      legacyRequest("tasks/result", { taskId }),
      legacyEnv(session, { request }),
    );
    expect(errorOf(answer)).toMatchObject({ code: -32042, message: "The user closed the dialog" });
    expect(request.sent[0]?.params?._meta).toEqual({ [RELATED_TASK]: { taskId } });
  });

  it("withdraws a question still waiting when tasks/result ends (the task was cancelled)", async () => {
    const mcp = askingServer();
    const session = testSession("s1");
    await handshake(mcp, session, ELICITATION);
    const call = legacyRequest("tools/call", { name: "ask", task: {} });
    const { taskId } = resultOf(await mcp.handle(call, legacyEnv(session))).task as { taskId: string };
    const request = tableBackChannel({
      "elicitation/create": async () => {
        await mcp.handle(legacyRequest("tasks/cancel", { taskId }), legacyEnv(session));
        return await new Promise(() => {});
      },
    });
    const answer = await mcp.handle(
      legacyRequest("tasks/result", { taskId }),
      legacyEnv(session, { request }),
    );
    expect(errorOf(answer)).toMatchObject({ code: -32600, data: { taskId, status: "cancelled" } });
    expect(request.sent[0]?.options?.signal?.aborted).toBe(true);
  });

  it("forwards the question from another replica than the one running the task", async () => {
    const store = new MemoryTaskStore();
    const bus = new MemoryMessageBus();
    const [runner, other] = [askingServer({ store, bus }), askingServer({ store, bus })];
    const [here, there] = [testSession("s1"), testSession("s2")];
    await handshake(runner, here, ELICITATION);
    await handshake(other, there, ELICITATION);
    const call = legacyRequest("tools/call", { name: "ask", task: {} });
    const created = await runner.handle(call, legacyEnv(here, { auth: ALICE }));
    const { taskId } = resultOf(created).task as { taskId: string };
    const request = tableBackChannel({
      "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }),
    });
    const answer = await other.handle(
      legacyRequest("tasks/result", { taskId }),
      legacyEnv(there, { auth: ALICE, request }),
    );
    expect(resultOf(answer).content).toEqual([{ type: "text", text: "hello Ada" }]);
    expect(request.sent.map((sent) => sent.method)).toEqual(["elicitation/create"]);
    runner.close();
    other.close();
  });

  it("needs the task's owner: another principal's tasks/result is -32602", async () => {
    const mcp = askingServer();
    const session = testSession("s1");
    await handshake(mcp, session, ELICITATION);
    const call = legacyRequest("tools/call", { name: "ask", task: {} });
    const created = await mcp.handle(call, legacyEnv(session, { auth: ALICE }));
    const { taskId } = resultOf(created).task as { taskId: string };
    const bob = { ...ALICE, token: "b", subject: "bob" };
    const answer = await mcp.handle(
      legacyRequest("tasks/result", { taskId }),
      legacyEnv(session, { auth: bob }),
    );
    expect(errorOf(answer)).toMatchObject({ code: -32602 });
    await mcp.handle(legacyRequest("tasks/cancel", { taskId }), legacyEnv(session, { auth: ALICE }));
    mcp.close();
  });
});
