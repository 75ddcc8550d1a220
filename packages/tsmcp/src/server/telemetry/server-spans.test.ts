import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { requestMeta } from "../../../../../test/helpers/meta.js";
import { setUpOtel } from "../../../../../test/helpers/otel.js";
import { silentLogger } from "../../protocol/logger.js";
import { InMemoryTransport } from "../../transport/memory.js";
import {
  handshake,
  legacyEnv,
  legacyRequest,
  resultOf,
  testSession,
} from "../legacy/legacy-test-fixtures.js";
import { Server } from "../server.js";
import { TaskManager } from "../tasks/manager.js";
import { TASK_CAPABILITIES } from "../tasks/tasks-test-fixtures.js";

const otelSetup = setUpOtel();
afterAll(() => otelSetup.teardown());
beforeEach(() => otelSetup.reset());

function jobServer(tasks: TaskManager): Server {
  return new Server("jobs", {
    logger: silentLogger,
    telemetry: otelSetup.telemetry,
    tasks,
    onListTools: () => ({ tools: [] }),
    onCallTool: (ctx) =>
      tasks.accepts(ctx)
        ? tasks.run(ctx, async () => ({ content: [{ type: "text", text: "done" }] }))
        : { content: [{ type: "text", text: "at once" }] },
  });
}

describe("server spans in memory", () => {
  it("records a tools/call answered with a task as tsmcp.result_type task, with no network.transport", async () => {
    const tasks = new TaskManager();
    const transport = new InMemoryTransport(jobServer(tasks));
    const response = await transport.request({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { _meta: requestMeta(TASK_CAPABILITIES), name: "job", arguments: {} },
    });
    expect(response).toMatchObject({ result: { resultType: "task" } });
    const [span] = otelSetup.spans();
    expect(span?.name).toBe("tools/call job");
    expect(span?.attributes["tsmcp.result_type"]).toBe("task");
    expect(span?.attributes["network.transport"]).toBeUndefined();
    expect(span?.attributes["tsmcp.era"]).toBe("stateless");
    await tasks.close();
  });

  it("records a 2025-era tools/call answered with a task as tsmcp.result_type task", async () => {
    const tasks = new TaskManager();
    const server = jobServer(tasks);
    const session = testSession();
    await handshake(server, session);
    const response = await server.handle(
      legacyRequest("tools/call", { name: "job", arguments: {}, task: { ttl: 60_000 } }),
      legacyEnv(session),
    );
    expect(resultOf(response)).toMatchObject({ task: { status: "working" } });
    const call = otelSetup.spans().find((span) => span.name === "tools/call job");
    expect(call?.attributes).toMatchObject({ "tsmcp.era": "handshake", "tsmcp.result_type": "task" });
    expect(call?.attributes["mcp.session.id"]).toBeUndefined();
    await tasks.close();
  });
});
