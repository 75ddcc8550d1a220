/**
 * `npm run test:fleet`: three `MCPServer` processes sharing requestState keys behind nginx on
 * 127.0.0.1, with the configuration of `examples/fleet/nginx.conf` (its ports replaced).
 *
 * 1. 200 MRTR flows of two and three questions from 20 concurrent clients, round-robin; one
 *    instance is killed (SIGKILL) mid-run and started again. Every flow completes, and the
 *    instances' request logs show the rounds of a flow landing on different instances.
 * 2. A key rotation in three phases, each a rolling restart of the instances while flows run:
 *    [OLD, NEW] (NEW opens), then [NEW, OLD] (NEW seals), then, one TTL later, [NEW]. No flow
 *    fails, no instance refuses a state, and the sealing key did change.
 * 3. Handshake-era (2025-11-25) clients: sessions are created round-robin and then stay on the
 *    instance that created them (nginx tags the session id), so elicitation over the back-channel
 *    completes.
 *
 * 4. Without affinity (see `no-affinity.ts`): the same handshake-era flows, from tsmcp and official
 *    1.x clients, on three instances sharing a Redis behind nginx round-robin with no session
 *    hashing, while an instance is killed and Redis restarted; then tasks (see `tasks.ts`): an
 *    instance killed under its tasks, which read `failed` on the others, and a cancel sent to one
 *    instance stopping the handler on another.
 *
 * Prints `fleet: N flows, 0 failed, rounds on K instances, rotation: 0 failed` and `fleet without
 * affinity: N flows, 0 failed, 0 lost events, ...` and `fleet tasks: N tasks, K failed after their
 * replica died, ...`, and exits non-zero on any failure. Not part of
 * vitest: it installs and runs nginx and Redis and takes about two minutes.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "tsmcp/client";
import { type FlowOutcome, runFlows, toolOf } from "./flows.js";
import { freePort, Instance, type RequestLine } from "./instances.js";
import { configFrom, ensureNginx, type RunningNginx, startNginx } from "./nginx.js";
import { runWithoutAffinity } from "./no-affinity.js";

const TEMPLATE = fileURLToPath(new URL("../../examples/fleet/nginx.conf", import.meta.url));
/** The addresses the template is written with: nginx's port, then instances a, b and c. */
const TEMPLATE_PORTS = { listen: 8100, a: 8101, b: 8102, c: 8103 } as const;
const FLOWS = 200;
const CLIENTS = 20;
/** Each round's state lifetime in the run: short, so phase 3 of the rotation waits one TTL only. */
const TTL_MS = 5_000;
/** The whole run normally takes about a minute on 2 cores. */
const WATCHDOG_MS = 300_000;

const started = Date.now();
const problems: string[] = [];
const check = (ok: boolean, problem: string) => {
  if (!ok) problems.push(problem);
};
const key = () => randomBytes(32).toString("base64url");

/** The template with its ports replaced; throws when one of them is missing from it. */
function fleetConfig(ports: Record<keyof typeof TEMPLATE_PORTS, number>): string {
  return configFrom(TEMPLATE, TEMPLATE_PORTS, ports);
}

/** Resolves once `count` more flows finished (completed or failed) in `outcome`-reporting runs. */
class FlowCounter {
  #done = 0;
  #waiters: { at: number; resolve: () => void }[] = [];
  get done(): number {
    return this.#done;
  }
  tick = (_outcome: FlowOutcome) => {
    this.#done++;
    for (const waiter of this.#waiters.filter((w) => w.at <= this.#done)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  more(count: number): Promise<void> {
    const at = this.#done + count;
    return at <= this.#done
      ? Promise.resolve()
      : new Promise((resolve) => this.#waiters.push({ at, resolve }));
  }
}

/** The sealing key id of a fresh state: the 4 bytes after `v1.` (see the built-in codec's format). */
async function sealingKid(url: string): Promise<string> {
  const client = await Client.connect(url, {
    protocolVersion: "2026-07-28",
    elicitationCallback: () => ({ action: "cancel" }),
  });
  try {
    const result = await client.session.callTool(
      "ask-twice",
      { flow: "probe" },
      { allowInputRequired: true },
    );
    const state = (result as { requestState?: string }).requestState;
    if (state === undefined) throw new Error(`no requestState in ${JSON.stringify(result)}`);
    return Buffer.from(state.slice(3), "base64url").subarray(0, 4).toString("hex");
  } finally {
    await client.close();
  }
}

function report(label: string, outcome: FlowOutcome): void {
  for (const { flow, error } of outcome.failed.slice(0, 5)) console.error(`  ${label} ${flow}: ${error}`);
}

const dir = mkdtempSync(join(tmpdir(), "tsmcp-fleet-"));
const requests: RequestLine[] = [];
const refusals: string[] = [];
const nginxBinary = ensureNginx();
const ports = {
  listen: await freePort(),
  a: await freePort(),
  b: await freePort(),
  c: await freePort(),
};
const fleet = (["a", "b", "c"] as const).map((id) => new Instance(id, ports[id], dir, requests, refusals));
const [, b] = fleet as [Instance, Instance, Instance];
writeFileSync(join(dir, "fleet.conf"), fleetConfig(ports));
const OLD = key();
const NEW = key();
let nginx: RunningNginx;
try {
  await Promise.all(fleet.map((instance) => instance.start([OLD], TTL_MS)));
  nginx = await startNginx(nginxBinary, dir, join(dir, "fleet.conf"));
} catch (error) {
  await Promise.all(fleet.map((instance) => instance.stop("SIGKILL")));
  console.error(`fleet: FAILED to start, logs kept in ${dir}`);
  throw error;
}
const url = `http://127.0.0.1:${ports.listen}/mcp`;

async function stopAll(): Promise<void> {
  await nginx.stop();
  await Promise.all(fleet.map((instance) => instance.stop("SIGTERM")));
}
/** Gives up (and leaves nothing running) when the run takes far longer than it should. */
const watchdog = setTimeout(() => {
  console.error(`fleet: FAILED, still running after ${WATCHDOG_MS} ms; logs kept in ${dir}`);
  void stopAll().finally(() => process.exit(1));
}, WATCHDOG_MS);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().finally(() => process.exit(1)));
}

let rotationFailed = 0;
let K = 0;
let main: FlowOutcome = { completed: [], failed: [], retried: [] };
try {
  // 1. 200 flows, round-robin; instance b killed and started again once 60 flows are done.
  const counter = new FlowCounter();
  const killedPid = b.pid;
  let killedAt = Number.POSITIVE_INFINITY;
  const restart = counter.more(60).then(async () => {
    killedAt = requests.length;
    await b.stop("SIGKILL");
    await b.start([OLD], TTL_MS);
  });
  main = await runFlows(url, { prefix: "flow", clients: CLIENTS, count: FLOWS, onFlowDone: counter.tick });
  await restart;
  report("flow", main);
  check(main.completed.length === FLOWS, `${main.failed.length} of ${FLOWS} flows failed`);

  const legsOf = new Map<string, RequestLine[]>();
  for (const line of requests) {
    if (line.flow?.startsWith("flow-")) legsOf.set(line.flow, [...(legsOf.get(line.flow) ?? []), line]);
  }
  let spread = 0;
  let crossed = 0;
  for (const flow of main.completed) {
    const lines = legsOf.get(flow) ?? [];
    const { questions } = toolOf(Number(flow.split("-").at(-1)));
    const legs = new Set(lines.map((line) => line.leg));
    for (let leg = 1; leg <= questions + 1; leg++) {
      check(legs.has(leg), `${flow}: leg ${leg} is in no instance's log`);
    }
    if (new Set(lines.map((line) => line.instance)).size > 1) spread++;
    const afterKill = lines.some((line) => requests.indexOf(line) >= killedAt);
    if (lines.some((line) => line.pid === killedPid) && afterKill) crossed++;
  }
  K = new Set(requests.filter((line) => line.flow?.startsWith("flow-")).map((line) => line.instance)).size;
  console.log(
    `main: ${main.completed.length}/${FLOWS} flows completed; ${spread} had rounds on more than one instance; ` +
      `${crossed} were in progress when instance b was killed and finished after it`,
  );
  check(K === fleet.length, `rounds landed on ${K} instances, expected ${fleet.length}`);
  check(spread >= FLOWS / 2, `only ${spread} flows had rounds on more than one instance`);
  check(crossed > 0, "no flow was in progress on the killed instance");

  // 2. Rotation in three phases, each a rolling restart while flows run.
  const kidBefore = await sealingKid(url);
  let rotating = true;
  const rotationCounter = new FlowCounter();
  const rotationFlows = runFlows(url, {
    prefix: "rotation",
    clients: 12,
    keepGoing: () => rotating,
    onFlowDone: rotationCounter.tick,
  });
  const rolling = async (keys: string[]) => {
    for (const instance of fleet) {
      // An instance goes down only while every other one is in nginx's rotation.
      await Promise.all(fleet.map((other) => other.serving()));
      await instance.stop("SIGTERM");
      await instance.start(keys, TTL_MS);
      await rotationCounter.more(10);
    }
  };
  await rolling([OLD, NEW]); // every instance opens NEW; OLD still seals
  await rolling([NEW, OLD]); // NEW seals; OLD still opens what was sealed before
  // One TTL after the last instance switched, no state sealed under OLD is still valid.
  await new Promise((resolve) => setTimeout(resolve, TTL_MS));
  await rolling([NEW]); // OLD is gone
  await rotationCounter.more(20);
  rotating = false;
  const rotation = await rotationFlows;
  const kidAfter = await sealingKid(url);
  report("rotation", rotation);
  rotationFailed = rotation.failed.length;
  console.log(
    `rotation: ${rotation.completed.length} flows completed during 9 rolling restarts, ${rotationFailed} failed; ` +
      `sealing key ${kidBefore} -> ${kidAfter}; ${refusals.length} states refused`,
  );
  check(rotationFailed === 0, `${rotationFailed} flows failed during the rotation`);
  check(kidBefore !== kidAfter, "the sealing key did not change");
  check(refusals.length === 0, `instances refused states:\n${refusals.slice(0, 5).join("\n")}`);

  // 3. Handshake-era sessions: sticky to the instance that created them.
  const legacy = await runFlows(url, { prefix: "legacy", clients: 6, count: 18, protocolVersion: "legacy" });
  report("legacy", legacy);
  const legacyLines = requests.filter((line) => line.flow?.startsWith("legacy-"));
  const instancesOfClient = new Map<string, Set<string>>();
  for (const line of legacyLines) {
    const client = line.flow!.split("-")[1]!;
    instancesOfClient.set(client, (instancesOfClient.get(client) ?? new Set()).add(line.instance));
  }
  const sessionInstances = new Set(legacyLines.map((line) => line.instance));
  const sticky = [...instancesOfClient.values()].filter((instances) => instances.size === 1).length;
  console.log(
    `legacy: ${legacy.completed.length}/18 flows with elicitation over the back-channel completed; ` +
      `sessions on ${sessionInstances.size} instances; ${sticky} of ${instancesOfClient.size} sessions ` +
      "had every call on one instance",
  );
  check(legacy.failed.length === 0, `${legacy.failed.length} legacy flows failed`);
  check(sessionInstances.size > 1, "every legacy session was created on the same instance");
  for (const [client, instances] of instancesOfClient) {
    check(
      instances.size === 1,
      `legacy session of client ${client} was served by ${[...instances].join(", ")}`,
    );
  }
  const upstreamErrors = new Map<string, number>();
  for (const line of nginx.errorLog) {
    const kind = /\] \d+#\d+: \*\d+ ([^,]+?)(?: while [^,]+)?, client/.exec(line)?.[1];
    if (kind !== undefined) upstreamErrors.set(kind, (upstreamErrors.get(kind) ?? 0) + 1);
  }
  const kinds = [...upstreamErrors].map(([kind, count]) => `${count} × ${kind}`).join("; ");
  console.log(`nginx: upstream errors, each request passed to the next instance: ${kinds || "none"}`);
} catch (error) {
  problems.push(String(error instanceof Error ? (error.stack ?? error.message) : error));
} finally {
  clearTimeout(watchdog);
  await stopAll();
}

// 4. Without affinity: handshake-era sessions on Redis, any instance serving any request.
const noAffinityWatchdog = setTimeout(() => {
  console.error(`fleet: FAILED, the run without affinity still runs after ${WATCHDOG_MS} ms; logs in ${dir}`);
  process.exit(1);
}, WATCHDOG_MS);
const noAffinity = await runWithoutAffinity(nginxBinary, dir, [NEW], TTL_MS);
clearTimeout(noAffinityWatchdog);
problems.push(...noAffinity.problems);

const failed = main.failed.length + (main.completed.length + main.failed.length === FLOWS ? 0 : FLOWS);
console.log(`elapsed: ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `fleet: ${FLOWS} flows, ${failed} failed, rounds on ${K} instances, rotation: ${rotationFailed} failed`,
);
console.log(noAffinity.line);
console.log(noAffinity.tasksLine);
if (problems.length > 0) {
  console.error(`fleet: FAILED, logs kept in ${dir}\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
rmSync(dir, { recursive: true, force: true });
