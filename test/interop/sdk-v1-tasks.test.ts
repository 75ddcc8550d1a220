/**
 * The official 1.x client's experimental 2025-11-25 tasks (`client.experimental.tasks`) over
 * Streamable HTTP against a tsmcp `MCPServer` whose tools are declared with `task`: it sees
 * `capabilities.tasks` and `execution.taskSupport`, creates tasks with `callToolStream`, polls
 * `tasks/get`, answers the task's question (sent on the back-channel of its `tasks/result`) with its
 * elicitation handler, and uses `tasks/list`, `tasks/get` and `tasks/cancel`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";
import type { MCPServer } from "../../packages/tsmcp/src/server/index.js";
import { legacyTaskServer } from "../e2e/legacy-task-server.js";

const RELATED_TASK = "io.modelcontextprotocol/related-task";

let mcp: MCPServer;
let server: HttpServerHandle;
let client: Client;
const asked: { message: string; meta: unknown }[] = [];

beforeAll(async () => {
  mcp = legacyTaskServer();
  server = await serve(mcp, { host: "127.0.0.1", port: 0 });
  client = new Client(
    { name: "v1-tasks", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push({ message: request.params.message, meta: request.params._meta });
    return { action: "accept", content: { ok: true } };
  });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  await client.listTools();
});

afterAll(async () => {
  await client?.close();
  await server?.close();
  mcp?.close();
});

/** Every message of one `callToolStream`, in order. */
async function stream(name: string, args: Record<string, unknown> = {}) {
  const messages: { type: string; [key: string]: unknown }[] = [];
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    messages.push(message as { type: string });
  }
  return messages;
}

/** The task id of a `taskCreated` message. */
function taskIdOf(message: unknown): string {
  return (message as { task: { taskId: string } }).task.taskId;
}

describe("the official 1.x client's experimental tasks against a tsmcp server", () => {
  it("sees the tasks capability and each tool's execution.taskSupport", async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "crunch")?.execution).toEqual({ taskSupport: "optional" });
    expect(tools.find((tool) => tool.name === "pid")?.execution).toBeUndefined();
  });

  it("creates a task with callToolStream, polls it and gets the result with the related task", async () => {
    const messages = await stream("crunch", { label: "pi" });
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    const taskId = taskIdOf(messages[0]);
    const last = messages.at(-1) as { type: string; result?: { content: unknown; _meta?: unknown } };
    expect(last.type).toBe("result");
    expect(last.result?.content).toEqual([{ type: "text", text: "crunched pi" }]);
    expect(last.result?._meta).toMatchObject({ [RELATED_TASK]: { taskId } });
  });

  it("answers the task's question with its elicitation handler while tasks/result waits", async () => {
    const messages = await stream("confirm");
    const taskId = taskIdOf(messages[0]);
    expect(messages.at(-1)).toMatchObject({
      type: "result",
      result: { content: [{ type: "text", text: "deleted" }] },
    });
    expect(asked.at(-1)).toEqual({ message: "Delete everything?", meta: { [RELATED_TASK]: { taskId } } });
  });

  it("ends the stream with an error for a failed task", async () => {
    const messages = await stream("explode");
    expect(messages.at(-1)?.type).toBe("error");
  });

  it("lists, gets and cancels its tasks", async () => {
    const idle = client.experimental.tasks.callToolStream({ name: "idle", arguments: {} });
    const created = await idle.next();
    await idle.return(undefined);
    const taskId = (created.value as { task: { taskId: string } }).task.taskId;
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe("cancelled");
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
  });
});
