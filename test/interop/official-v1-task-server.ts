/**
 * A server built on the official 1.x SDK (`@modelcontextprotocol/sdk` 1.32.2) with its experimental
 * 2025-11-25 tasks: `capabilities.tasks { list, cancel, requests.tools.call }`, the SDK's
 * `InMemoryTaskStore` and `InMemoryTaskMessageQueue`, and task tools registered with
 * `experimental.tasks.registerToolTask`: `crunch` (finishes after its first `tasks/get`),
 * `confirm` (asks the client with `elicitation/create` inside the task: the SDK queues the request
 * and delivers it on `tasks/result`), `explode` (the task fails with a JSON-RPC error) and `idle`
 * (runs until cancelled); `plain`, an ordinary tool (no task support). Run over stdio as a child
 * process: `node --import tsx test/interop/official-v1-task-server.ts`.
 */
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestTaskStore, TaskRequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { type CallToolResult, ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

const taskStore = new InMemoryTaskStore();
const mcp = new McpServer(
  { name: "official-v1-tasks", version: "1.32.2" },
  {
    capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    taskStore,
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  },
);

mcp.registerTool("plain", { description: "An ordinary tool" }, async () => text("plain answer"));

/** The store's answer for `tasks/get` (a task the store lost is an error). */
async function stored(extra: { taskId: string; taskStore: RequestTaskStore }) {
  const task = await extra.taskStore.getTask(extra.taskId);
  if (task === null) throw new Error(`no task ${extra.taskId}`);
  return task;
}

/** The handlers of a task tool without arguments that read the task and its result from the store. */
const reads = {
  getTask: stored,
  getTaskResult: async (extra: { taskId: string; taskStore: RequestTaskStore }) =>
    (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
};

mcp.experimental.tasks.registerToolTask(
  "crunch",
  {
    description: "Crunches numbers as a task",
    inputSchema: { label: z.string() },
    execution: { taskSupport: "optional" },
  },
  {
    createTask: async ({ label }, extra) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
      await extra.taskStore.updateTaskStatus(task.taskId, "working", `crunching ${label}`);
      setImmediate(() => {
        void extra.taskStore.storeTaskResult(task.taskId, "completed", text(`crunched ${label}`));
      });
      return { task };
    },
    getTask: (_args, extra) => stored(extra),
    getTaskResult: (_args, extra) => reads.getTaskResult(extra),
  },
);

mcp.experimental.tasks.registerToolTask(
  "confirm",
  { description: "Asks for confirmation inside a task", execution: { taskSupport: "required" } },
  {
    createTask: async (extra) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
      void (async () => {
        const answer = await extra.sendRequest(
          {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Delete everything?",
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
            },
          },
          ElicitResultSchema,
          // The SDK's types leave relatedTask out of these options, but its runtime reads it: the
          // request is then queued for tasks/result and the task turns input_required.
          { relatedTask: { taskId: task.taskId } } as TaskRequestOptions,
        );
        const ok = answer.action === "accept" && answer.content?.ok === true;
        await extra.taskStore.storeTaskResult(task.taskId, "completed", text(ok ? "deleted" : "kept"));
      })();
      return { task };
    },
    ...reads,
  },
);

mcp.experimental.tasks.registerToolTask(
  "explode",
  { description: "A task that fails", execution: { taskSupport: "optional" } },
  {
    createTask: async (extra) => {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 });
      setImmediate(() => {
        void extra.taskStore.storeTaskResult(task.taskId, "failed", {
          content: [{ type: "text", text: "the reactor exploded" }],
          isError: true,
        });
      });
      return { task };
    },
    ...reads,
  },
);

mcp.experimental.tasks.registerToolTask(
  "idle",
  { description: "Runs until cancelled", execution: { taskSupport: "optional" } },
  {
    createTask: async (extra) => ({
      task: await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 50 }),
    }),
    ...reads,
  },
);

await mcp.connect(new StdioServerTransport());
