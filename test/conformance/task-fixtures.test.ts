/**
 * The tsmcp `Client`'s task handle (`callTool(name, args, { task: true })` -> `ToolTask`) against the
 * conformance server's task fixtures, the server run as `npm run conformance:server` runs it (a
 * child process, `test/conformance/server.ts` over HTTP on a 127.0.0.1 ephemeral port) at
 * 2026-07-28: `slow_compute` to its end and cancelled, `failing_job` (a tool error: completed),
 * `protocol_error_job` (failed: the McpError), `confirm_delete` and `multi_input` (questions
 * inside the task reach the elicitation callback and go back with `tasks/update`),
 * `test_tool_with_task` (a multi round-trip round, then the task), and `greet` (no task: answered
 * at once).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientOptions, TaskCancelledError } from "../../packages/tsmcp/src/client/index.js";
import {
  type Clock,
  type ElicitResult,
  type JSONRPCMessage,
  McpError,
} from "../../packages/tsmcp/src/protocol/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The longest wait between polls: the fixtures suggest 1 s, which would only slow the suite. */
const POLL_WAIT_MS = 20;

/** Waits between polls capped at {@link POLL_WAIT_MS}, still ended early by the signal. */
const shortWaits: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.min(ms, POLL_WAIT_MS),
      );
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

let server: ChildProcess;
let client: Client;
const sent: JSONRPCMessage[] = [];
const questions: { message: string; key: string; target: string | undefined }[] = [];

/** Answers by question: "yes" to the delete, one/two to multi_input, a name to test_tool_with_task. */
const options: ClientOptions = {
  clock: shortWaits,
  timeoutMs: 20_000,
  elicitationCallback: (params, context): ElicitResult => {
    questions.push({ message: params.message, key: context.key, target: context.target });
    if (params.message.startsWith("Delete ")) return { action: "accept", content: { answer: "yes" } };
    if (params.message === "First?") return { action: "accept", content: { value: "one" } };
    if (params.message === "Second?") return { action: "accept", content: { value: "two" } };
    return { action: "accept", content: { name: "Ada" } };
  },
  onMessage: (message, direction) => {
    if (direction === "sent") sent.push(message);
  },
};

/** Starts the conformance server on an ephemeral port; resolves its URL once it says it listens. */
function startServer(): Promise<URL> {
  server = spawn(process.execPath, ["--import", "tsx", "test/conformance/server.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const child = server;
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the conformance server exited (${code}) before listening`)),
    );
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const match = /^conformance server listening on (\S+)$/.exec(line);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
  });
}

beforeAll(async () => {
  client = await Client.connect(await startServer(), options);
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (server !== undefined && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.kill();
    await exited;
  }
});

const textOf = (result: { content: readonly { type: string; text?: string }[] }) => result.content[0]?.text;

/** The `tasks/update` requests sent for `taskId`, as their `inputResponses`. */
function updatesOf(taskId: string | undefined): Record<string, unknown>[] {
  return sent.flatMap((message) =>
    "method" in message && message.method === "tasks/update" && message.params?.taskId === taskId
      ? [message.params?.inputResponses as Record<string, unknown>]
      : [],
  );
}

describe("the tsmcp task handle against the conformance server's task fixtures at 2026-07-28", () => {
  it("speaks 2026-07-28 with a server that advertises the tasks extension", () => {
    expect(client.era).toBe("modern");
    expect(client.serverCapabilities?.extensions).toHaveProperty(["io.modelcontextprotocol/tasks"]);
  });

  it("slow_compute: runs as a task and completes with its result", async () => {
    const task = await client.callTool("slow_compute", { seconds: 0, label: "pi" }, { task: true });
    expect(task.taskId).toEqual(expect.any(String));
    expect(textOf(await task.result())).toBe("Computed pi after 0 s");
    expect(task.status).toBe("completed");
  });

  it("slow_compute: a cancel ends the task cancelled, and result() rejects with TaskCancelledError", async () => {
    const task = await client.callTool("slow_compute", { seconds: 60 }, { task: true });
    expect(task.status).toBe("working");
    await task.cancel();
    await expect(task.result()).rejects.toBeInstanceOf(TaskCancelledError);
    expect(task.status).toBe("cancelled");
    expect((await client.session.getTask(task.taskId as string)).status).toBe("cancelled");
  });

  it("failing_job: a tool error completes the task, and result() resolves it with isError", async () => {
    const task = await client.callTool("failing_job", {}, { task: true });
    expect(task.taskId).toEqual(expect.any(String));
    const result = await task.result();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("The job failed.");
    expect(task.status).toBe("completed");
  });

  it("protocol_error_job: the task fails, and result() rejects with the McpError it failed with", async () => {
    const task = await client.callTool("protocol_error_job", {}, { task: true });
    const failure = await task.result().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: -32603, message: "The job lost its worker" });
    expect(task.status).toBe("failed");
  });

  it("confirm_delete: the question inside the task reaches the elicitation callback, the answer the result", async () => {
    const task = await client.callTool("confirm_delete", { filename: "notes.txt" }, { task: true });
    const result = await task.result();
    expect(textOf(result)).toBe('notes.txt: action=accept, content={"answer":"yes"}');
    expect(questions).toContainEqual(
      expect.objectContaining({ message: "Delete notes.txt? Type yes.", target: "confirm_delete" }),
    );
    const updates = updatesOf(task.taskId);
    expect(updates).toHaveLength(1);
    expect(Object.values(updates[0] ?? {})).toEqual([{ action: "accept", content: { answer: "yes" } }]);
  });

  it("multi_input: both questions are asked, each under its own key, and both answers reach the result", async () => {
    const task = await client.callTool("multi_input", {}, { task: true });
    const result = await task.result();
    expect(textOf(result)).toBe(
      'Both answers received: action=accept, content={"value":"one"}; action=accept, content={"value":"two"}',
    );
    const answered = Object.assign({}, ...updatesOf(task.taskId)) as Record<string, unknown>;
    expect(Object.keys(answered)).toHaveLength(2);
    expect(Object.values(answered)).toEqual(
      expect.arrayContaining([
        { action: "accept", content: { value: "one" } },
        { action: "accept", content: { value: "two" } },
      ]),
    );
    const asked = questions.filter((question) => question.target === "multi_input");
    expect(asked.map((question) => question.message).sort()).toEqual(["First?", "Second?"]);
    expect(new Set(asked.map((question) => question.key)).size).toBe(2);
  });

  it("test_tool_with_task: answers the multi round-trip round, then follows the task to a result naming the answer", async () => {
    const task = await client.callTool("test_tool_with_task", {}, { task: true });
    expect(task.taskId).toEqual(expect.any(String));
    expect(questions).toContainEqual(
      expect.objectContaining({ message: "What is your name?", target: "test_tool_with_task" }),
    );
    expect(textOf(await task.result())).toBe(`Hello, Ada! (greeted in task ${task.taskId})`);
    expect(updatesOf(task.taskId)).toEqual([]);
  });

  it("greet: a tool that never runs as a task is answered at once, with no task to poll", async () => {
    const before = sent.length;
    const task = await client.callTool("greet", { name: "Ada" }, { task: true });
    expect(task.taskId).toBeUndefined();
    expect(task.status).toBe("completed");
    expect(textOf(await task.result())).toBe("Hello, Ada!");
    const methods = sent.slice(before).flatMap((message) => ("method" in message ? [message.method] : []));
    expect(methods).toEqual(["tools/call"]);
  });
});
