/**
 * The fleet without affinity: three instances sharing one Redis (`REDIS_URL`: sessions, SSE events
 * and the messages between instances) behind nginx round-robin with no session hashing
 * (`examples/fleet/nginx-no-affinity.conf`), so every request of a handshake-era session may land
 * on any instance.
 *
 * While tsmcp clients and official 1.x clients, all in the handshake era (2025-11-25 sessions),
 * run elicitation flows of two and three questions (each question asked over the back-channel by
 * the instance running the tool, its answer POSTed to whichever instance nginx picks), and two
 * watchers (one of each client) are subscribed to {@link NEWS} resources whose updates a driver
 * triggers through any instance: instance b is killed (SIGKILL) and started again, and Redis is
 * restarted once (its append-only file keeps the data). A call whose instance died under it ends
 * with a JSON-RPC error on resumption and is sent again, as the error asks (counted as retried).
 *
 * Then tasks (see `tasks.ts`): an instance is killed under the tasks it runs, which read `failed`
 * on the others, and a cancel sent to one instance stops the handler running on another.
 *
 * Reports `fleet without affinity: N flows, F failed, L lost events, sessions served by K
 * instances, notifications delivered D/D`: lost events are updates a watcher never received; and
 * the tasks phase's line.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client } from "tsmcp/client";
import { startRedisServer } from "../helpers/redis-server.js";
import { type FlowOutcome, runFlows } from "./flows.js";
import { freePort, Instance, type RequestLine, TaskLog } from "./instances.js";
import { configFrom, startNginx } from "./nginx.js";
import { runTaskFaults } from "./tasks.js";

const TEMPLATE = fileURLToPath(new URL("../../examples/fleet/nginx-no-affinity.conf", import.meta.url));
const TEMPLATE_PORTS = { listen: 8200, a: 8201, b: 8202, c: 8203 } as const;
/** Flows per kind of client. */
const FLOWS_EACH = 60;
const CLIENTS_EACH = 6;
/** News items the watchers subscribe to; the driver updates each once, spread over the run. */
export const NEWS = 60;
/** How long the watchers may take to receive the last updates once everything else finished. */
const DELIVERY_GRACE_MS = 15_000;
/** The instances' task lease: short, so a dead instance's tasks read failed soon. */
const TASK_LEASE_MS = 1_000;

/** What the run found. */
export interface NoAffinityReport {
  readonly line: string;
  /** The tasks phase's summary. */
  readonly tasksLine: string;
  readonly problems: string[];
}

/** Resolves once `count` more flows finished. */
class Progress {
  done = 0;
  #waiters: { at: number; resolve: () => void }[] = [];
  tick = () => {
    this.done++;
    for (const waiter of this.#waiters.filter((w) => w.at <= this.done)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  reach(at: number): Promise<void> {
    return at <= this.done
      ? Promise.resolve()
      : new Promise((resolve) => this.#waiters.push({ at, resolve }));
  }
}

/** A subscriber to every news item: which updates it received, and how many times in all. */
interface Watcher {
  readonly name: string;
  readonly received: Set<string>;
  deliveries: number;
  close(): Promise<void>;
}

const newsUri = (n: number) => `fleet://news/${n}`;
const allNews = () => Array.from({ length: NEWS }, (_, n) => newsUri(n));

/**
 * The news items the driver began updating. An instance whose bus subscription had a gap tells
 * its subscribers every item may have changed; a watcher counts an item only from when its update
 * began, so such a notice cannot stand in for an update that was never made.
 */
type Begun = ReadonlySet<string>;

async function tsmcpWatcher(url: string, begun: Begun): Promise<Watcher> {
  const client = await Client.connect(url, {
    protocolVersion: "legacy",
    clientInfo: { name: "fleet-watcher", version: "1.0.0" },
  });
  const watcher: Watcher = {
    name: "tsmcp watcher",
    received: new Set(),
    deliveries: 0,
    close: () => client.close(),
  };
  const subscription = client.listen({ resourceSubscriptions: allNews() }, (notification) => {
    const uri = (notification.params as { uri?: string } | undefined)?.uri;
    if (notification.method === "notifications/resources/updated" && uri !== undefined && begun.has(uri)) {
      watcher.received.add(uri);
      watcher.deliveries++;
    }
  });
  await subscription.acknowledged;
  return watcher;
}

async function sdkWatcher(url: string, begun: Begun): Promise<Watcher> {
  const client = new ClientV1({ name: "fleet-sdk-watcher", version: "1.0.0" }, { capabilities: {} });
  const watcher: Watcher = {
    name: "1.x watcher",
    received: new Set(),
    deliveries: 0,
    close: () => client.close(),
  };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    if (!begun.has(notification.params.uri)) return;
    watcher.received.add(notification.params.uri);
    watcher.deliveries++;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  for (const uri of allNews()) await client.subscribeResource({ uri });
  return watcher;
}

/** Updates news item `n` through any instance, until an instance acknowledges it. */
async function touch(driver: Client, n: number, begun: Set<string>): Promise<void> {
  begun.add(newsUri(n));
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await driver.callTool("touch", { n: String(n) });
      if (result.isError !== true) return;
      if (attempt >= 40) throw new Error(`touch ${n}: ${JSON.stringify(result.content)}`);
    } catch (error) {
      if (attempt >= 40) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Resolves once every watcher received every update, or after `graceMs`. */
async function delivered(watchers: readonly Watcher[], graceMs: number): Promise<void> {
  const until = Date.now() + graceMs;
  while (Date.now() < until && watchers.some((watcher) => watcher.received.size < NEWS)) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs the fleet without affinity in `dir` (logs kept there on failure) with `nginxBinary` and
 * the requestState `keys`; resolves with the report line and what went wrong.
 */
export async function runWithoutAffinity(
  nginxBinary: string,
  dir: string,
  keys: readonly string[],
  ttlMs: number,
): Promise<NoAffinityReport> {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const requests: RequestLine[] = [];
  const refusals: string[] = [];
  const taskLog = new TaskLog();
  const redis = await startRedisServer({ persistent: true, dir: join(dir, "redis") });
  const ports = { listen: await freePort(), a: await freePort(), b: await freePort(), c: await freePort() };
  const fleet = (["a", "b", "c"] as const).map(
    (id) => new Instance(id, ports[id], dir, requests, refusals, taskLog),
  );
  const b = fleet[1] as Instance;
  const env = { REDIS_URL: redis.url, MCP_TASK_LEASE_MS: String(TASK_LEASE_MS) };
  const conf = join(dir, "no-affinity.conf");
  writeFileSync(conf, configFrom(TEMPLATE, TEMPLATE_PORTS, ports));
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  const watchers: Watcher[] = [];
  const begun = new Set<string>();
  let flows: FlowOutcome[] = [];
  let acknowledged = 0;
  let tasksLine = "fleet tasks: not run";
  try {
    await Promise.all(fleet.map((instance) => instance.start(keys, ttlMs, env)));
    nginx = await startNginx(nginxBinary, dir, conf);
    const url = `http://127.0.0.1:${ports.listen}/mcp`;
    watchers.push(await tsmcpWatcher(url, begun), await sdkWatcher(url, begun));

    const total = 2 * FLOWS_EACH;
    const progress = new Progress();
    const faults = (async () => {
      await progress.reach(Math.round(total / 3));
      await b.stop("SIGKILL");
      await b.start(keys, ttlMs, env);
      await progress.reach(Math.round((2 * total) / 3));
      await redis.restart();
    })();
    const driver = await Client.connect(url, { protocolVersion: "2026-07-28" });
    const touches = (async () => {
      try {
        for (let n = 0; n < NEWS; n++) {
          await progress.reach(Math.floor((n * total) / NEWS));
          await touch(driver, n, begun);
          acknowledged++;
        }
      } finally {
        await driver.close();
      }
    })();
    const common = {
      count: FLOWS_EACH,
      clients: CLIENTS_EACH,
      retryInterrupted: true,
      onFlowDone: progress.tick,
    };
    flows = await Promise.all([
      runFlows(url, { ...common, prefix: "na-tsmcp", protocolVersion: "legacy" }),
      runFlows(url, { ...common, prefix: "na-sdk", client: "sdk-v1" }),
    ]);
    await Promise.all([faults, touches]);
    await delivered(watchers, DELIVERY_GRACE_MS);

    const tasks = await runTaskFaults({
      url,
      fleet,
      log: taskLog,
      leaseMs: TASK_LEASE_MS,
      restart: (instance) => instance.start(keys, ttlMs, env),
    });
    tasksLine = tasks.line;
    problems.push(...tasks.problems);
  } catch (error) {
    problems.push(String(error instanceof Error ? (error.stack ?? error.message) : error));
  } finally {
    await Promise.allSettled(watchers.map((watcher) => watcher.close()));
    await nginx?.stop();
    await Promise.all(fleet.map((instance) => instance.stop("SIGTERM")));
    await redis.close();
  }

  const completed = flows.reduce((sum, outcome) => sum + outcome.completed.length, 0);
  const failed = 2 * FLOWS_EACH - completed;
  const retried = flows.reduce((sum, outcome) => sum + outcome.retried.length, 0);
  for (const outcome of flows) {
    for (const { flow, error } of outcome.failed.slice(0, 5))
      console.error(`  no-affinity ${flow}: ${error}`);
  }
  // The instances that served each client's session (flow ids: <prefix>-c<client>-<n>).
  const instancesOf = new Map<string, Set<string>>();
  for (const line of requests) {
    if (!line.flow?.startsWith("na-")) continue;
    const session = line.flow.split("-").slice(0, 3).join("-");
    instancesOf.set(session, (instancesOf.get(session) ?? new Set()).add(line.instance));
  }
  const K = new Set(requests.filter((line) => line.flow?.startsWith("na-")).map((line) => line.instance))
    .size;
  const spread = [...instancesOf.values()].filter((instances) => instances.size > 1).length;
  const expected = NEWS * watchers.length;
  const received = watchers.reduce((sum, watcher) => sum + watcher.received.size, 0);
  const duplicates = watchers.reduce((sum, watcher) => sum + watcher.deliveries - watcher.received.size, 0);
  const lost = expected - received;
  console.log(
    `no-affinity: ${completed}/${2 * FLOWS_EACH} handshake-era flows completed (${retried} sent again after ` +
      `their instance died); ${spread} of ${instancesOf.size} sessions were served by more than one instance; ` +
      `${acknowledged}/${NEWS} updates acknowledged; watchers: ${watchers
        .map((watcher) => `${watcher.name} ${watcher.received.size}/${NEWS}`)
        .join(", ")}; ${duplicates} repeated deliveries`,
  );
  check(failed === 0, `${failed} of ${2 * FLOWS_EACH} flows without affinity failed`);
  check(K === fleet.length, `sessions were served by ${K} instances, expected ${fleet.length}`);
  check(spread >= instancesOf.size / 2, `only ${spread} of ${instancesOf.size} sessions crossed instances`);
  check(acknowledged === NEWS, `only ${acknowledged} of ${NEWS} updates were acknowledged`);
  check(
    lost === 0,
    `${lost} updates never reached a watcher: ${watchers
      .map(
        (watcher) =>
          `${watcher.name} missed ${allNews()
            .filter((uri) => !watcher.received.has(uri))
            .join(" ")}`,
      )
      .join("; ")}`,
  );
  check(refusals.length === 0, `instances refused states:\n${refusals.slice(0, 5).join("\n")}`);
  return {
    line:
      `fleet without affinity: ${2 * FLOWS_EACH} flows, ${failed} failed, ${lost} lost events, ` +
      `sessions served by ${K} instances, notifications delivered ${received}/${expected}`,
    tasksLine,
    problems,
  };
}
