/**
 * The client side of the tasks guide: a tool call the server may run as a task, followed to its
 * result with its status changes shown and its questions answered by the elicitation callback; a
 * task picked up again from its id in another process; and a plain call that a task-only tool
 * turns into a task without the caller noticing. `examples/docs/tasks-client.test.ts` runs each
 * against a peer serving the tasks extension over Streamable HTTP on 127.0.0.1.
 */
import { Client, type ElicitationCallback } from "tsmcp/client";
import type { CallToolResult } from "tsmcp/types";

/** Answers every form question with the one field it asks for. */
const elicitationCallback: ElicitationCallback = async (params) =>
  params.mode === "form"
    ? { action: "accept", content: { [Object.keys(params.requestedSchema.properties)[0] ?? "value"]: "Ada" } }
    : { action: "decline" };

/** Calls `tool` as a task, shows each status change, keeps the task id, and waits for the result. */
export async function runAsTask(
  url: string | URL,
  tool: string,
  keep: (taskId: string) => void,
): Promise<CallToolResult> {
  const client = await Client.connect(url, { elicitationCallback });
  try {
    const task = await client.callTool(tool, {}, { task: true });
    if (task.taskId !== undefined) keep(task.taskId); // undefined: the server answered at once
    task.onStatus(({ status, statusMessage }) => console.error(`${status}: ${statusMessage ?? ""}`));
    return await task.result(); // polls tasks/get, answers inputRequests with tasks/update
  } finally {
    await client.close();
  }
}

/** Picks a task up again from its id (after a restart, in another process) and waits for its result. */
export async function resume(url: string | URL, taskId: string): Promise<CallToolResult> {
  const client = await Client.connect(url, { elicitationCallback });
  try {
    const task = await client.task(taskId); // one tasks/get: UnknownTaskError if the server lost it
    return await task.result({ signal: AbortSignal.timeout(60_000) });
  } finally {
    await client.close();
  }
}

/** Stops a task: the server may still finish it, and a pending result() settles with what it ends as. */
export async function stop(url: string | URL, taskId: string): Promise<void> {
  const client = await Client.connect(url);
  try {
    await (await client.task(taskId)).cancel();
  } finally {
    await client.close();
  }
}
