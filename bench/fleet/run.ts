/**
 * `npm run bench:fleet`: the throughput of a fleet of three tsmcp instances behind nginx, on
 * 127.0.0.1, plain `tools/call` (the `echo` tool of `bench/fixtures/`), in one run:
 *
 * - **sticky, in-memory**: 2025-11-25 sessions through `examples/fleet/nginx.conf` (each session
 *   id tagged with the instance that minted it, which serves all its requests), three instances
 *   with the default in-memory stores;
 * - **no affinity, Redis**: 2025-11-25 sessions through `examples/fleet/nginx-no-affinity.conf`
 *   (round-robin, no session hashing), three instances sharing one Redis (`createRedisState`);
 * - **2026-07-28, round-robin**: the stateless revision's plain call through the sticky
 *   configuration's round-robin upstream (no session), to the in-memory instances, for reference.
 *
 * The instances are the benchmarks' tsmcp server (`bench/server-process.ts`, from the build), the
 * Redis a `redis-server` of the run's own, nginx the one `test/fleet/` runs (installed from
 * Debian's packages when missing). Each 2025-11-25 connection opens its own session through nginx
 * first. The three variants take turns (rotating who goes first) after a warm-up each; CPU is the
 * instances' (summed) and Redis's during each variant's turns, per answered call.
 *
 * Usage: npm run bench:fleet [-- --quick] [-- --connections=N]
 *   --quick        one short turn each (numbers not meaningful)
 *   --connections  concurrent connections (default 12), one session each
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../test/fleet/instances.js";
import { configFrom, ensureNginx, type RunningNginx, startNginx } from "../../test/fleet/nginx.js";
import { ECHO_TOOL } from "../fixtures/tools.js";
import { plainCall, sessionHeaders, sessionPlainCall, toolCallHeaders } from "../fixtures/wire.js";
import { ensureBuild } from "../lib/build.js";
import { type ServerChild, startServer } from "../lib/child.js";
import { type LoadOptions, type LoadResult, mergeLoads, runConcurrentLoads } from "../lib/load.js";
import { describeMachine, formatMachine } from "../lib/machine.js";
import { type BenchRedis, startBenchRedis } from "../lib/redis.js";
import { REDIS_CHILD_ENV } from "../servers/tsmcp-redis.js";
import { checkSessionCall, openSession } from "../stages/session-load.js";

const EXAMPLES = new URL("../../examples/fleet/", import.meta.url);
const RESULTS_DIR = fileURLToPath(new URL("../../.bench-results/", import.meta.url));
const STICKY = {
  file: fileURLToPath(new URL("nginx.conf", EXAMPLES)),
  ports: { listen: 8100, a: 8101, b: 8102, c: 8103 },
};
const NO_AFFINITY = {
  file: fileURLToPath(new URL("nginx-no-affinity.conf", EXAMPLES)),
  ports: { listen: 8200, a: 8201, b: 8202, c: 8203 },
};

type Variant = "sticky, in-memory" | "no affinity, Redis" | "2026-07-28, round-robin";
const VARIANTS: readonly Variant[] = ["sticky, in-memory", "no affinity, Redis", "2026-07-28, round-robin"];

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const connections = Number(argv.find((arg) => arg.startsWith("--connections="))?.split("=")[1] ?? 12);
const bounds = quick ? { warmupS: 1, durationS: 1, rounds: 1 } : { warmupS: 3, durationS: 9, rounds: 3 };
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Three instances of `impl`, each in its child process. */
async function startInstances(impl: "tsmcp" | "tsmcp-redis", redis?: BenchRedis): Promise<ServerChild[]> {
  const env = redis === undefined ? undefined : { ...REDIS_CHILD_ENV, REDIS_URL: redis.url };
  const spec = { plainTools: 1, mrtr: false };
  return Promise.all([0, 1, 2].map(() => startServer({ impl, spec }, env === undefined ? {} : { env })));
}

/** nginx on `template` (a file of `examples/fleet/`) with its ports replaced by `instances`' and a free one. */
async function startProxy(
  binary: string,
  dir: string,
  template: { file: string; ports: Record<"listen" | "a" | "b" | "c", number> },
  instances: readonly ServerChild[],
): Promise<{ nginx: RunningNginx; url: URL }> {
  mkdirSync(dir, { recursive: true });
  const [a, b, c] = instances.map((child) => Number(child.url.port)) as [number, number, number];
  const listen = await freePort();
  writeFileSync(join(dir, "fleet.conf"), configFrom(template.file, template.ports, { listen, a, b, c }));
  const nginx = await startNginx(binary, dir, join(dir, "fleet.conf"));
  return { nginx, url: new URL(`http://127.0.0.1:${listen}/mcp`) };
}

/** The loads of a 2025-11-25 variant: one connection per session, each opened through `url`. */
async function sessionLoads(url: URL, name: string): Promise<(durationS: number) => LoadOptions[]> {
  const sessions: string[] = [];
  for (let i = 0; i < connections; i++) sessions.push(await openSession(url, name));
  await checkSessionCall(url, name, sessions[0] as string);
  const body = JSON.stringify(sessionPlainCall(ECHO_TOOL));
  return (durationS) =>
    sessions.map((id) => ({ url, headers: sessionHeaders(id), body, connections: 1, durationS }));
}

/** The load of the 2026-07-28 variant: `connections` connections sending the stateless plain call. */
async function statelessLoad(url: URL): Promise<(durationS: number) => LoadOptions[]> {
  const headers = toolCallHeaders(ECHO_TOOL);
  const body = JSON.stringify(plainCall(ECHO_TOOL));
  const check = await fetch(url, { method: "POST", headers, body });
  const text = await check.text();
  if (check.status !== 200 || !text.includes('"text":"hello"'))
    throw new Error(`2026-07-28 call through nginx answered ${check.status}: ${text.slice(0, 300)}`);
  return (durationS) => [{ url, headers, body, connections, durationS }];
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

async function main(): Promise<void> {
  const startedAt = process.hrtime.bigint();
  const machine = describeMachine();
  log(
    `tsmcp fleet benchmark on ${formatMachine(machine)}${quick ? " [--quick: numbers not meaningful]" : ""}`,
  );
  ensureBuild(log);
  const nginxBinary = ensureNginx();
  const dir = mkdtempSync(join(tmpdir(), "tsmcp-bench-fleet-"));
  const stops: (() => Promise<void>)[] = [];
  try {
    const redis = await startBenchRedis();
    stops.push(() => redis.close());
    const memoryFleet = await startInstances("tsmcp");
    const redisFleet = await startInstances("tsmcp-redis", redis);
    for (const child of [...memoryFleet, ...redisFleet]) stops.unshift(() => child.stop());
    const sticky = await startProxy(nginxBinary, join(dir, "sticky"), STICKY, memoryFleet);
    stops.unshift(() => sticky.nginx.stop());
    const open = await startProxy(nginxBinary, join(dir, "no-affinity"), NO_AFFINITY, redisFleet);
    stops.unshift(() => open.nginx.stop());

    const loads = new Map<Variant, (durationS: number) => LoadOptions[]>([
      ["sticky, in-memory", await sessionLoads(sticky.url, "sticky")],
      ["no affinity, Redis", await sessionLoads(open.url, "no affinity")],
      ["2026-07-28, round-robin", await statelessLoad(sticky.url)],
    ]);
    const fleetOf = (variant: Variant) => (variant === "no affinity, Redis" ? redisFleet : memoryFleet);
    for (const variant of VARIANTS) {
      log(`warming up: ${variant}`);
      await runConcurrentLoads((loads.get(variant) as (s: number) => LoadOptions[])(bounds.warmupS));
    }
    const runs = new Map<Variant, LoadResult[]>(VARIANTS.map((variant) => [variant, []]));
    const cpuUs = new Map<Variant, number[]>(VARIANTS.map((variant) => [variant, [0, 0, 0]]));
    const redisUs = new Map<Variant, number>(VARIANTS.map((variant) => [variant, 0]));
    for (let round = 0; round < bounds.rounds; round++) {
      for (let turn = 0; turn < VARIANTS.length; turn++) {
        const variant = VARIANTS[(round + turn) % VARIANTS.length] as Variant;
        const fleet = fleetOf(variant);
        const before = await Promise.all(fleet.map((child) => child.cpuUs()));
        const redisBefore = await redis.cpuUs();
        const run = await runConcurrentLoads(
          (loads.get(variant) as (s: number) => LoadOptions[])(bounds.durationS / bounds.rounds),
        );
        const after = await Promise.all(fleet.map((child) => child.cpuUs()));
        const redisAfter = await redis.cpuUs();
        if (run.failures > 0) throw new Error(`${variant}: ${run.failures} failed calls under load`);
        runs.get(variant)?.push(run);
        cpuUs.set(
          variant,
          (cpuUs.get(variant) as number[]).map(
            (used, i) => used + (after[i] as number) - (before[i] as number),
          ),
        );
        redisUs.set(variant, (redisUs.get(variant) ?? 0) + redisAfter - redisBefore);
        log(`  ${variant}: ${run.requestsPerSecond.toFixed(0)} req/s`);
      }
    }

    const results = VARIANTS.map((variant) => {
      const merged = mergeLoads(runs.get(variant) ?? []);
      const perInstance = cpuUs.get(variant) as number[];
      return {
        variant,
        requestsPerSecond: merged.requestsPerSecond,
        p50Ms: merged.latencyMs.median,
        p99Ms: merged.latencyMs.p99,
        completed: merged.completed,
        instancesCpuUsPerRequest: sum(perInstance) / merged.completed,
        cpuShareByInstance: perInstance.map((used) => used / sum(perInstance)),
        redisCpuUsPerRequest:
          variant === "no affinity, Redis" ? (redisUs.get(variant) ?? 0) / merged.completed : undefined,
      };
    });
    const base = results[0]?.requestsPerSecond ?? Number.NaN;
    const wallS = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const lines = [
      `tsmcp fleet: three instances behind nginx, ${connections} connections (one session each on 2025-11-25)`,
      `machine: ${formatMachine(machine)}`,
      `run: ${new Date().toISOString()}, wall time ${wallS.toFixed(0)} s, ${bounds.durationS} s measured per variant in ${bounds.rounds} turns${quick ? " (--quick: numbers not meaningful)" : ""}`,
      "",
      "| variant | req/s | x sticky in-memory | p50 ms | p99 ms | instances' CPU per request (us) | redis-server CPU per request (us) | CPU share a / b / c |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
      ...results.map(
        (result) =>
          `| ${result.variant} | ${result.requestsPerSecond.toFixed(0)} | ${(result.requestsPerSecond / base).toFixed(2)}x | ` +
          `${result.p50Ms.toFixed(2)} | ${result.p99Ms.toFixed(2)} | ${result.instancesCpuUsPerRequest.toFixed(0)} | ` +
          `${result.redisCpuUsPerRequest === undefined ? "—" : result.redisCpuUsPerRequest.toFixed(0)} | ` +
          `${result.cpuShareByInstance.map((share) => `${(share * 100).toFixed(0)} %`).join(" / ")} |`,
      ),
    ];
    process.stdout.write(`\n${lines.join("\n")}\n`);
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(`${RESULTS_DIR}fleet.md`, `${lines.join("\n")}\n`);
    writeFileSync(
      `${RESULTS_DIR}fleet.json`,
      `${JSON.stringify({ machine, wallS, connections, bounds, results }, null, 2)}\n`,
    );
  } finally {
    for (const stop of stops) await stop().catch((error: unknown) => log(`stopping: ${String(error)}`));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
