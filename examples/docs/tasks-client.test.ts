/**
 * The tasks guide's client (examples/docs/tasks-client.ts) against a peer serving the tasks
 * extension over Streamable HTTP on 127.0.0.1 (test/helpers/task-peer.ts).
 */
import { Client, TaskCancelledError } from "tsmcp/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { consoleLines } from "../../test/helpers/logs.js";
import { DEFAULT_TOOLS, startTaskPeer, type TaskPeer } from "../../test/helpers/task-peer.js";
import { resume, runAsTask, stop } from "./tasks-client.js";

let peer: TaskPeer;

beforeEach(async () => {
  peer = await startTaskPeer({
    multi_input: { ...DEFAULT_TOOLS.multi_input, pollIntervalMs: 100 },
    forever: { pollIntervalMs: 100, step: () => {} },
  });
});

afterEach(async () => {
  await peer.close();
});

const textOf = (result: { content: readonly { type: string; text?: string }[] }) => result.content[0]?.text;

describe("the tasks guide's client", () => {
  it("follows a task to its result, showing each status and answering its questions", async () => {
    const printed = consoleLines("error");
    const kept: string[] = [];
    const result = await runAsTask(peer.url, "multi_input", (taskId) => kept.push(taskId));
    expect(textOf(result)).toBe("Ada lives in Ada");
    expect(kept).toEqual([...peer.tasks.keys()]);
    expect(printed).toEqual([
      "input_required: waiting for first",
      "input_required: waiting for second",
      "completed: answered",
    ]);
  });

  it("resumes a task from its id in another client", async () => {
    const client = await Client.connect(peer.url);
    const task = await client.callTool("slow_compute", { steps: 1, label: "resumed" }, { task: true });
    await client.close();
    expect(textOf(await resume(peer.url, task.taskId as string))).toBe("computed resumed");
  });

  it("stops a task; a resumed wait then ends with TaskCancelledError", async () => {
    const client = await Client.connect(peer.url);
    const task = await client.callTool("forever", {}, { task: true });
    await client.close();
    await stop(peer.url, task.taskId as string);
    await expect(resume(peer.url, task.taskId as string)).rejects.toBeInstanceOf(TaskCancelledError);
  });
});
