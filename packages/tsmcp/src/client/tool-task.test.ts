/**
 * `client.callTool(name, args, { task: true })` and the `ToolTask` handle against a peer that
 * serves the tasks extension over Streamable HTTP on 127.0.0.1 (test/helpers/task-peer.ts): an
 * immediate result, polling to the end, a failed task, input requests answered once per key across
 * polls, cancellation, a handle rebuilt from its id in a fresh client, the poll back-off (the waits
 * asked of an injected clock, counted, never timed), the routing headers, and the transparent task
 * for a plain call refused with -32021.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type PeerRequest, startTaskPeer, TASKS, type TaskPeer } from "../../../../test/helpers/task-peer.js";
import type { Clock } from "../protocol/clock.js";
import { McpError } from "../protocol/errors.js";
import type { ElicitRequestParams, ElicitResult } from "../protocol/schema/input.js";
import type { InputRequestContext } from "./callbacks.js";
import { Client, type ClientOptions } from "./client.js";
import { MethodNotInEraError, TaskCancelledError, UnknownTaskError } from "./errors.js";
import {
  DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS,
  nextPollDelayMs,
  TASK_POLL_BACKOFF_FACTOR,
  TASK_POLL_INTERVAL_HINT_MAX_MS,
  TASK_POLL_INTERVAL_MAX_MS,
  TASK_POLL_INTERVAL_MIN_MS,
} from "./task-poll.js";

/** A clock whose waits end at once, recorded; past `limit` waits it aborts the wait with "stop". */
function recordingClock(limit = Number.POSITIVE_INFINITY): Clock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      if (waits.length >= limit) throw new Error("stop");
      waits.push(ms);
    },
  };
}

let peer: TaskPeer;
const clients: Client[] = [];

beforeEach(async () => {
  peer = await startTaskPeer({
    quick: { pollIntervalMs: 1, step: () => {} },
    unhinted: { step: () => {} },
    patient: { pollIntervalMs: 120_000, step: () => {} },
    absurd: { pollIntervalMs: 36_000_000, step: () => {} },
  });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await peer.close();
});

async function connect(
  options: ClientOptions = {},
): Promise<Client & { clock: ReturnType<typeof recordingClock> }> {
  const clock = (options.clock as ReturnType<typeof recordingClock> | undefined) ?? recordingClock();
  const client = await Client.connect(peer.url, { ...options, clock });
  clients.push(client);
  return Object.assign(client, { clock });
}

const textOf = (result: { content: readonly { type: string; text?: string }[] }) => result.content[0]?.text;

describe("ToolTask against a peer serving the tasks extension", () => {
  it("holds a result the server gave at once, without a taskId and without polling", async () => {
    const client = await connect();
    const task = await client.callTool("greet", { name: "Ada" }, { task: true });
    expect(task.taskId).toBeUndefined();
    expect(task.status).toBe("completed");
    expect(textOf(await task.result())).toBe("Hello, Ada!");
    expect(peer.of("tools/call").map((request) => request.declaresTasks)).toEqual([true]);
    expect(peer.of("tasks/get")).toEqual([]);
  });

  it("polls tasks/get at the server's pollIntervalMs, reports each status message, and resolves the inlined result", async () => {
    const client = await connect();
    const task = await client.callTool("slow_compute", { steps: 2, label: "pi" }, { task: true });
    expect(task.taskId).toMatch(/^task-/);
    expect(task.status).toBe("working");
    expect(task.statusMessage).toBe("The operation is now in progress.");
    const seen: string[] = [];
    task.onStatus((update) => seen.push(`${update.status}: ${update.statusMessage}`));
    expect(textOf(await task.result())).toBe("computed pi");
    expect(seen).toEqual(["working: step 1 of 2", "working: step 2 of 2", "completed: done"]);
    expect(task.status).toBe("completed");
    expect(peer.of("tasks/get")).toHaveLength(3);
    expect(client.clock.waits).toEqual([200, 200, 200]);
    expect(textOf(await task.result())).toBe("computed pi");
    expect(peer.of("tasks/get")).toHaveLength(3);
  });

  it("rejects result() of a failed task with an McpError carrying the task's error", async () => {
    const client = await connect();
    const task = await client.callTool("failing_job", {}, { task: true });
    const error = await task.result().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32603,
      message: "API rate limit exceeded",
      data: { retryAfterMs: 5000 },
    });
    expect(task.status).toBe("failed");
    expect(task.statusMessage).toBe("Tool execution failed: rate limited");
  });

  it("answers each input request key once through the elicitation callback, across polls that list it again", async () => {
    const asked: { key: string; round: number; method: string | undefined; target: string | undefined }[] =
      [];
    const elicitationCallback = async (
      params: ElicitRequestParams,
      context: InputRequestContext,
    ): Promise<ElicitResult> => {
      asked.push({ key: context.key, round: context.round, method: context.method, target: context.target });
      const field = params.mode === "form" ? Object.keys(params.requestedSchema.properties)[0] : "url";
      return { action: "accept", content: { [field as string]: field === "name" ? "Ada" : "Paris" } };
    };
    const client = await connect({ elicitationCallback });
    const task = await client.callTool("multi_input", {}, { task: true });
    const statuses: string[] = [];
    task.onStatus((update) => statuses.push(`${update.status}: ${update.statusMessage}`));
    expect(textOf(await task.result())).toBe("Ada lives in Paris");
    expect(asked).toEqual([
      { key: "first", round: 1, method: "tools/call", target: "multi_input" },
      { key: "second", round: 2, method: "tools/call", target: "multi_input" },
    ]);
    const served = peer.tasks.get(task.taskId as string);
    expect(served?.answerCounts).toEqual({ first: 1, second: 1 });
    expect(
      peer.of("tasks/update").map((request) => Object.keys(request.params.inputResponses as object)),
    ).toEqual([["first"], ["second"]]);
    expect(statuses).toEqual([
      "input_required: waiting for first",
      "input_required: waiting for second",
      "completed: answered",
    ]);
  });

  it("cancels with tasks/cancel; the next poll sees the task cancelled and result() rejects with TaskCancelledError", async () => {
    const client = await connect();
    const task = await client.callTool("forever", {}, { task: true });
    await task.cancel();
    const error = await task.result().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TaskCancelledError);
    expect(error).toMatchObject({ taskId: task.taskId, statusMessage: "The task was cancelled by request." });
    expect(task.status).toBe("cancelled");
    expect(peer.of("tasks/cancel")).toHaveLength(1);
  });

  it("sends nothing to cancel a call the server answered at once", async () => {
    const client = await connect();
    const task = await client.callTool("greet", { name: "Ada" }, { task: true });
    await task.cancel();
    expect(peer.of("tasks/cancel")).toEqual([]);
  });

  it("rebuilds a handle from the task id in a fresh client and follows it to its result", async () => {
    const first = await connect();
    const created = await first.callTool("slow_compute", { steps: 1, label: "e" }, { task: true });
    await first.close();
    const second = await connect();
    const rebuilt = await second.task(created.taskId as string);
    expect(rebuilt.taskId).toBe(created.taskId);
    expect(rebuilt.status).toBe("working");
    expect(rebuilt.statusMessage).toBe("step 1 of 1");
    expect(textOf(await rebuilt.result())).toBe("computed e");
    // The look that rebuilt it counts as the first poll: no wait before acting on it.
    expect(second.clock.waits).toEqual([200]);
  });

  it("refuses an id the server does not know with UnknownTaskError, the server's -32602 as its cause", async () => {
    const client = await connect();
    const error = await client.task("no-such-task").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownTaskError);
    expect((error as UnknownTaskError).taskId).toBe("no-such-task");
    expect((error as UnknownTaskError).message).toContain("no-such-task");
    expect((error as Error).cause).toBeInstanceOf(McpError);
    expect(((error as Error).cause as McpError).code).toBe(-32602);
  });

  it("sends Mcp-Method and Mcp-Name: <taskId> on tasks/get, tasks/update and tasks/cancel, each declaring the extension", async () => {
    const client = await connect({
      elicitationCallback: async () => ({ action: "accept", content: { name: "x", city: "y" } }),
    });
    const asked = await client.callTool("multi_input", {}, { task: true });
    await asked.result();
    const forever = await client.callTool("forever", {}, { task: true });
    await forever.cancel();
    const taskRequests = peer.requests.filter((request: PeerRequest) => request.method.startsWith("tasks/"));
    expect(new Set(taskRequests.map((request) => request.method))).toEqual(
      new Set(["tasks/get", "tasks/update", "tasks/cancel"]),
    );
    for (const request of taskRequests) {
      expect(request.mcpMethod).toBe(request.method);
      expect(request.mcpName).toBe(request.params.taskId);
      expect(request.declaresTasks).toBe(true);
    }
  });

  it("runs a plain callTool refused with -32021 naming the extension as a task, once, and returns its result", async () => {
    const client = await connect();
    const result = await client.callTool("slow_compute", { steps: 1, label: "again" });
    expect(textOf(result)).toBe("computed again");
    expect(peer.of("tools/call").map((request) => request.declaresTasks)).toEqual([false, true]);
    expect(peer.of("tasks/get")).toHaveLength(2);
  });

  it("keeps a plain callTool plain for a server that answers at once: no extension declared", async () => {
    const client = await connect();
    expect(textOf(await client.callTool("greet", { name: "Bo" }))).toBe("Hello, Bo!");
    expect(peer.of("tools/call").map((request) => request.declaresTasks)).toEqual([false]);
  });

  it("follows a task for a plain callTool when the client declares the extension for every request", async () => {
    const client = await connect({ capabilities: { extensions: { [TASKS]: {} } } });
    expect(textOf(await client.callTool("slow_compute", { steps: 1, label: "x" }))).toBe("computed x");
    expect(peer.of("tools/call")).toHaveLength(1);
  });

  it("refuses tasks/list at 2026-07-28 locally, naming why", async () => {
    const client = await connect();
    await expect(client.session.listTasks()).rejects.toBeInstanceOf(MethodNotInEraError);
    expect(peer.of("tasks/list")).toEqual([]);
  });
});

describe("the poll back-off", () => {
  it("pins its constants", () => {
    expect(DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS).toBe(1000);
    expect(TASK_POLL_INTERVAL_MIN_MS).toBe(100);
    expect(TASK_POLL_INTERVAL_MAX_MS).toBe(30_000);
    expect(TASK_POLL_BACKOFF_FACTOR).toBe(1.5);
    expect(TASK_POLL_INTERVAL_HINT_MAX_MS).toBe(3_600_000);
  });

  it("grows by the factor while nothing changes and stops at the ceiling", async () => {
    const clock = recordingClock(14);
    const client = await connect({ clock });
    const task = await client.callTool("forever", {}, { task: true });
    await expect(task.result()).rejects.toThrow("stop");
    expect(clock.waits).toEqual([
      500, 750, 1125, 1688, 2531, 3797, 5695, 8543, 12814, 19222, 28833, 30000, 30000, 30000,
    ]);
    expect(peer.of("tasks/get")).toHaveLength(14);
  });

  it("never polls faster than the floor, and uses the default interval when the server suggests none", async () => {
    const fast = recordingClock(2);
    const quick = await (await connect({ clock: fast })).callTool("quick", {}, { task: true });
    await expect(quick.result()).rejects.toThrow("stop");
    expect(fast.waits).toEqual([100, 150]);
    const slow = recordingClock(2);
    const unhinted = await (await connect({ clock: slow })).callTool("unhinted", {}, { task: true });
    await expect(unhinted.result()).rejects.toThrow("stop");
    expect(slow.waits).toEqual([1000, 1500]);
  });

  it("honours a server's suggestion above the back-off ceiling, polling no faster than it asked", async () => {
    const clock = recordingClock(3);
    const task = await (await connect({ clock })).callTool("patient", {}, { task: true });
    await expect(task.result()).rejects.toThrow("stop");
    expect(clock.waits).toEqual([120_000, 120_000, 120_000]);
    expect(nextPollDelayMs(40_000, 5)).toBe(40_000);
    expect(nextPollDelayMs(20_000, 0)).toBe(20_000);
    expect(nextPollDelayMs(20_000, 1)).toBe(TASK_POLL_INTERVAL_MAX_MS);
    expect(nextPollDelayMs(undefined, 0)).toBe(DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS);
  });

  it("caps an absurd suggestion at the sanity ceiling of one hour", async () => {
    const clock = recordingClock(2);
    const task = await (await connect({ clock })).callTool("absurd", {}, { task: true });
    await expect(task.result()).rejects.toThrow("stop");
    expect(clock.waits).toEqual([TASK_POLL_INTERVAL_HINT_MAX_MS, TASK_POLL_INTERVAL_HINT_MAX_MS]);
  });

  it("stops waiting when the caller's signal aborts, without cancelling the task", async () => {
    const controller = new AbortController();
    controller.abort(new Error("caller gave up"));
    const client = await connect();
    const task = await client.callTool("forever", {}, { task: true });
    await expect(task.result({ signal: controller.signal })).rejects.toThrow("caller gave up");
    expect(peer.of("tasks/cancel")).toEqual([]);
    expect(peer.tasks.get(task.taskId as string)?.status).toBe("working");
  });
});
