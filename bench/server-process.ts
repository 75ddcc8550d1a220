/**
 * A benchmarked server in its own process, so the load generator and the clients never share its
 * event loop. Started by `lib/child.ts` with `fork`; argv[2] is a JSON {@link ServerLaunch}.
 *
 * IPC protocol (parent <-> child):
 * - child -> parent `{ type: "ready", url }` once listening on 127.0.0.1;
 * - parent -> child `{ type: "heap" }`, answered `{ type: "heap", heapUsedBytes }` after full GCs
 *   (the process runs with `--expose-gc`);
 * - parent -> child `{ type: "cpu" }`, answered `{ type: "cpu", cpuUs }`: the process's CPU time so
 *   far (user + system, all threads), in microseconds;
 * - parent -> child `{ type: "stop" }`: close and exit (a lost parent also ends the child).
 */
import type { ServerSpec } from "./fixtures/tools.js";
import { serveFloor } from "./servers/floor.js";
import { type RunningServer, serveOfficial } from "./servers/official.js";
import { serveOfficialSession } from "./servers/official-session.js";
import { serveTsmcp } from "./servers/tsmcp.js";
import { serveTsmcpRedis } from "./servers/tsmcp-redis.js";
import { serveTsmcpTelemetry } from "./servers/tsmcp-telemetry.js";

/**
 * Which server to run: tsmcp, tsmcp with its handshake-era sessions in Redis (`tsmcp-redis`, on
 * the Redis the child's `REDIS_URL` names), tsmcp with the OpenTelemetry setup the child's
 * `TSMCP_BENCH_TELEMETRY` names (`tsmcp-telemetry`), the official SDK 2.4.0 (2026-07-28 stateless entry),
 * the official SDK 1.x with 2025-11-25 sessions (`official-session`), or the floor.
 */
export type Implementation =
  | "tsmcp"
  | "tsmcp-redis"
  | "tsmcp-telemetry"
  | "official"
  | "official-session"
  | "floor";

/** What `server-process.ts` is told to run. */
export interface ServerLaunch {
  readonly impl: Implementation;
  readonly spec: ServerSpec;
}

/** Messages the child sends. */
export type ChildMessage =
  | { type: "ready"; url: string }
  | { type: "heap"; heapUsedBytes: number }
  | { type: "cpu"; cpuUs: number };

/** Messages the parent sends. */
export type ParentMessage = { type: "heap" } | { type: "cpu" } | { type: "stop" };

async function start(launch: ServerLaunch): Promise<RunningServer> {
  switch (launch.impl) {
    case "tsmcp":
      return serveTsmcp(launch.spec);
    case "tsmcp-redis":
      return serveTsmcpRedis(launch.spec);
    case "tsmcp-telemetry":
      return serveTsmcpTelemetry(launch.spec);
    case "official":
      return serveOfficial(launch.spec);
    case "official-session":
      return serveOfficialSession(launch.spec);
    case "floor":
      return serveFloor();
  }
}

/** How long to let closed connections and pending finalizers settle before collecting. */
const SETTLE_MS = 200;

/** Heap used after collecting garbage until it stops shrinking (at most 10 rounds). */
async function heapAfterGc(): Promise<number> {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error("server-process: run with --expose-gc");
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  let previous = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 10; round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    const used = process.memoryUsage().heapUsed;
    if (used >= previous) return Math.min(used, previous);
    previous = used;
  }
  return previous;
}

function send(message: ChildMessage): void {
  process.send?.(message);
}

const launch = JSON.parse(process.argv[2] ?? "{}") as ServerLaunch;
const server = await start(launch);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
};
process.on("disconnect", () => void stop());
process.on("message", (message: ParentMessage) => {
  if (message.type === "heap")
    void heapAfterGc().then((heapUsedBytes) => send({ type: "heap", heapUsedBytes }));
  else if (message.type === "cpu") {
    const { user, system } = process.cpuUsage();
    send({ type: "cpu", cpuUs: user + system });
  } else if (message.type === "stop") void stop();
});
send({ type: "ready", url: server.url.href });
