/**
 * The tasks guide's servers over Streamable HTTP on 127.0.0.1, driven with plain JSON-RPC posts as a
 * client of the tasks extension sends them; waits on the servers' task status changes, never sleeps.
 */
import { serve } from "tsmcp/node";
import type { TaskManager, TaskSnapshot } from "tsmcp/server";
import type { Dispatcher } from "tsmcp/transport";
import { TASKS_EXTENSION } from "tsmcp/types";
import { describe, expect, it, onTestFinished } from "vitest";
import { post } from "../../test/helpers/mcp-post.js";
import { requestMeta } from "../../test/helpers/meta.js";
import { createExportServer, createReportServer } from "./tasks.js";

const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };

async function served(dispatcher: Dispatcher): Promise<URL> {
  const handle = await serve(dispatcher, { host: "127.0.0.1", port: 0 });
  onTestFinished(() => handle.close());
  return handle.url;
}

/** Posts a 2026-07-28 request declaring `capabilities`; resolves with its result or error. */
async function rpc(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  capabilities: object = WITH_TASKS,
) {
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { ...params, _meta: requestMeta({ ...capabilities }) },
  };
  const body = (await post(url, message)).body;
  return { result: body.result, error: body.error };
}

/** Resolves with the first status change of `tasks` that `matches`. */
function change(
  tasks: TaskManager | undefined,
  matches: (task: TaskSnapshot) => boolean,
): Promise<TaskSnapshot> {
  return new Promise((resolve) => {
    const stop = tasks?.onChange((task) => {
      if (matches(task)) {
        stop?.();
        resolve(task);
      }
    });
  });
}

describe("the tasks guide's MCPServer", () => {
  it("runs build_report as a task for a client of the extension, its progress the status message", async () => {
    const mcp = createReportServer();
    const url = await served(mcp);
    const done = change(mcp.tasks, (task) => task.status === "completed");
    const created = await rpc(url, "tools/call", { name: "build_report", arguments: { pages: 3 } });
    expect(created.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 600_000 });
    await done;
    const task = await rpc(url, "tasks/get", { taskId: created.result.taskId });
    expect(task.result).toMatchObject({
      status: "completed",
      statusMessage: "Rendered page 3 of 3",
      result: { content: [{ type: "text", text: "Report of 3 pages ready" }] },
    });
    const plain = await rpc(url, "tools/call", { name: "build_report", arguments: { pages: 1 } }, {});
    expect(plain.result).toMatchObject({
      resultType: "complete",
      content: [{ text: "Report of 1 pages ready" }],
    });
  });

  it("asks purge_archive's question inside the task and finishes once tasks/update answers it", async () => {
    const mcp = createReportServer();
    const url = await served(mcp);
    const asking = change(mcp.tasks, (task) => task.status === "input_required");
    const taskId = (await rpc(url, "tools/call", { name: "purge_archive", arguments: {} })).result.taskId;
    await asking;
    const waiting = await rpc(url, "tasks/get", { taskId });
    expect(Object.keys(waiting.result.inputRequests)).toEqual(["elicitation"]);
    const done = change(mcp.tasks, (task) => task.status === "completed");
    const answer = { action: "accept", content: { confirm: true } };
    expect(
      (await rpc(url, "tasks/update", { taskId, inputResponses: { elicitation: answer } })).result,
    ).toMatchObject({
      resultType: "complete",
    });
    await done;
    expect((await rpc(url, "tasks/get", { taskId })).result.result.content[0].text).toBe(
      "Purged the archive",
    );
    const refused = await rpc(
      url,
      "tools/call",
      { name: "purge_archive", arguments: {} },
      { elicitation: {} },
    );
    expect(refused.error).toMatchObject({ code: -32021 });
  });

  it("asks rebuild_index's round before creating its task, and stops a cancelled report", async () => {
    const mcp = createReportServer();
    const url = await served(mcp);
    const round = (await rpc(url, "tools/call", { name: "rebuild_index", arguments: {} })).result;
    expect(round).toMatchObject({ resultType: "input_required" });
    expect(round).not.toHaveProperty("taskId");
    const final = await rpc(url, "tools/call", {
      name: "rebuild_index",
      arguments: {},
      inputResponses: { index: { action: "accept", content: { name: "titles" } } },
      requestState: round.requestState,
    });
    expect(final.result).toMatchObject({ resultType: "task" });

    const long = (await rpc(url, "tools/call", { name: "build_report", arguments: { pages: 100 } })).result
      .taskId;
    expect((await rpc(url, "tasks/cancel", { taskId: long })).result).toMatchObject({
      resultType: "complete",
    });
    expect((await rpc(url, "tasks/get", { taskId: long })).result.status).toBe("cancelled");
  });
});

describe("the tasks guide's low-level Server", () => {
  it("answers export with a task when the request allows it, and at once otherwise", async () => {
    const server = createExportServer();
    const url = await served(server);
    const done = change(server.tasks, (task) => task.status === "completed");
    const created = await rpc(url, "tools/call", { name: "export", arguments: {} });
    expect(created.result.resultType).toBe("task");
    await done;
    expect((await rpc(url, "tasks/get", { taskId: created.result.taskId })).result.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "Exported" }],
    });
    const plain = await rpc(url, "tools/call", { name: "export", arguments: {} }, {});
    expect(plain.result.content[0].text).toBe("Exported (synchronously)");
  });
});
