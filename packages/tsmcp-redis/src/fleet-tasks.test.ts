/**
 * Tasks across two replicas of one MCPServer, each with a createRedisState of its own on one real
 * redis-server (as two processes would have), the task store and bus of the tasks engine in Redis:
 * a cancel sent to one replica stops the handler running on the other, and a task whose replica
 * can no longer renew its lease reads `failed`, saying why, on the other.
 */
import { Client } from "tsmcp/client";
import { MCPServer } from "tsmcp/server";
import { silentLogger } from "tsmcp/types";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { type RedisServer, startRedisServer } from "../../../test/helpers/redis-server.js";
import { type Replicas, startReplicas } from "../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../test/helpers/request-state.js";
import { createRedisState, type RedisState } from "./state.js";

let redis: RedisServer;
let fleets = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});

afterAll(async () => {
  await redis?.close();
});

/** A handler run of the `build` tool: on which replica, for which task, and how it ended. */
interface BuildRun {
  readonly replica: number;
  readonly taskId: string | undefined;
  /** Resolves with the reason the handler's signal gave when it aborted. */
  readonly aborted: Promise<unknown>;
}

/** Two replicas whose task store and bus live in Redis, each on its own connections. */
async function taskFleet(leaseMs: number) {
  const keyPrefix = `ft${++fleets}:`;
  const states: RedisState[] = await Promise.all(
    [0, 1].map(() => createRedisState({ url: redis.url, keyPrefix })),
  );
  const runs: BuildRun[] = [];
  const started: ((run: BuildRun) => void)[] = [];
  const replicaServer = (replica: number): MCPServer => {
    const state = states[replica] as RedisState;
    const mcp = new MCPServer("fleet-tasks", {
      version: "1.0.0",
      logger: silentLogger,
      requestStateSecurity: testRequestStateSecurity(),
      tasks: { store: state.tasks, bus: state.bus, leaseMs },
    });
    mcp.tool("build", { description: "Works until cancelled.", task: "required" }, async (_args, ctx) => {
      const aborted = new Promise<unknown>((resolve) =>
        ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason), { once: true }),
      );
      const run = { replica, taskId: ctx.task?.taskId, aborted };
      runs.push(run);
      for (const waiter of started.splice(0)) waiter(run);
      await aborted;
      return "stopped";
    });
    return mcp;
  };
  const fleet: Replicas = await startReplicas(2, replicaServer, {
    http: { logger: silentLogger },
    state: (index) => states[index] as RedisState,
  });
  const clients = await Promise.all(
    fleet.urls.map((url) => Client.connect(url.href, { protocolVersion: "2026-07-28" })),
  );
  onTestFinished(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await fleet.close();
    for (const server of fleet.servers) server.close();
    await Promise.all(fleet.servers.map((server) => (server as MCPServer).tasks?.close()));
    await Promise.all(states.map((state) => state.close()));
  });
  /** Resolves with the next handler run to start. */
  const nextRun = () => new Promise<BuildRun>((resolve) => started.push(resolve));
  return { states, fleet, clients: clients as [Client, Client], runs, nextRun };
}

describe("tasks on Redis across replicas", () => {
  it("a cancel sent to one replica aborts the handler running the task on the other", async () => {
    const { clients, nextRun } = await taskFleet(15_000);
    const [onA, onB] = clients;
    const running = nextRun();
    const task = await onA.callTool("build", {}, { task: true });
    const run = await running;
    expect(run).toMatchObject({ replica: 0, taskId: task.taskId });
    const taskId = task.taskId as string;

    await onB.session.cancelTask(taskId);
    const reason = await run.aborted;
    expect(reason).toMatchObject({ name: "AbortError", message: "The task was cancelled" });
    await expect(onB.session.getTask(taskId)).resolves.toMatchObject({ taskId, status: "cancelled" });
    await expect(onA.session.getTask(taskId)).resolves.toMatchObject({ taskId, status: "cancelled" });
  });

  it("a task whose replica stopped renewing its lease reads failed, saying why, on the other", async () => {
    const { clients, fleet, states, nextRun } = await taskFleet(300);
    const [onA, onB] = clients;
    const running = nextRun();
    const task = await onA.callTool("build", {}, { task: true });
    expect(await running).toMatchObject({ replica: 0, taskId: task.taskId });
    const taskId = task.taskId as string;

    // Replica A is cut off as a dead process would be: no more requests, no more Redis writes, so
    // its lease is never renewed. (Closing its task manager would not do: a manager that closes
    // marks its running tasks failed itself, and the lease would never have to lapse.)
    await fleet.stop(0);
    await (states[0] as RedisState).close();

    const failed = await vi.waitFor(
      async () => {
        const read = await onB.session.getTask(taskId);
        expect(read.status).not.toBe("working");
        return read;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(failed).toMatchObject({
      taskId,
      status: "failed",
      statusMessage: "The server running this task stopped before it finished",
      error: { code: -32603, message: "The server running this task stopped before it finished" },
    });
  });
});
