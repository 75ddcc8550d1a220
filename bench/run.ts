/**
 * `npm run bench`: tsmcp side by side with the official TypeScript SDK 2.4.0 and a bare
 * `node:http` floor, in one run on one machine, with the same tools and payloads (issue 7):
 *
 * 1. plain `tools/call` over Streamable HTTP under autocannon load, 1 and 50 registered tools;
 * 2. the two-leg MRTR flow end to end, every client against every server;
 * 3. in-process cost per request (plain call, MRTR first leg, retry leg);
 * 4. requestState seal and open, 1 KiB and 16 KiB;
 * 5. server heap growth per flow left pending at round one;
 * 6. install footprint of each server package;
 * 7. an invalid request's cost next to a valid one's (a huge invalid array, a backtracking pattern);
 * 8. plain `tools/call` on 2025-11-25 sessions over HTTP: tsmcp, the official SDK 1.x's stateful
 *    transport, the floor;
 * 9. the same call with tsmcp's sessions in Redis (`tsmcp-redis`, on a `redis-server` the stage
 *    starts) against its in-memory default, as ratios Redis / in-memory;
 * 10. what telemetry costs: tsmcp's server CPU per plain `tools/call` over HTTP with telemetry off,
 *    with `@opentelemetry/api` present and nothing registered, and with a real SDK exporting to
 *    nowhere, as ratios of the "off" row;
 * 11. MCP over stdio (servers in child processes, on their stdin/stdout): the plain `tools/call`
 *    and the two-round MRTR flow against tsmcp, the official SDK 2.4.0 and 1.x, and a bare
 *    line-delimited JSON floor; and the flow with each SDK's own client and stdio transport.
 * 12. type-check cost: `tsc --extendedDiagnostics` on a generated server of 100 and of 400 zod tools
 *    (check time on a CPU clock, instantiations, memory), tsmcp vs official; a resolver tool vs two plain tools.
 *
 * Prints progress to stderr and ONE Markdown table (absolute numbers, tsmcp/official and
 * tsmcp/floor ratios, the goals) to stdout; also writes it with the raw numbers to
 * `.bench-results/`. Every stage is bounded in count and time; servers listen on 127.0.0.1 only.
 *
 * Usage: npm run bench [-- --quick] [-- --only=1,3 | --only 10] [-- --profile] [-- --force]
 *   --quick    short runs, for checking the harness (numbers not meaningful; never waits for quiet)
 *   --force    measure even when the 1-minute load average stays above 1.5 (the table says so);
 *              without it the run waits up to 2 minutes for the machine to quiet down, then refuses
 *   --only     run only the listed stages (`--only=1,3` or `--only 1,3`)
 *   --profile  write V8 CPU profiles of the server children to .bench-results/profiles/
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./lib/build.js";
import {
  clientCpuGoal,
  cpuPerRequestGoal,
  flatGoal,
  flowGoal,
  invalidInputGoal,
  memoryGoal,
  p99Goal,
  resolverInstantiationsGoal,
  sealGoal,
  sessionCpuGoal,
  sessionThroughputGoal,
  stdioCpuGoal,
  throughputGoal,
  typeCheckTimeGoal,
} from "./lib/goals.js";
import { httpLoadRows } from "./lib/http-rows.js";
import { describeMachine, formatMachine } from "./lib/machine.js";
import { awaitQuietMachine, formatLoad, MachineBusyError, QUIET_LOAD } from "./lib/quiet.js";
import { type Column, type Row, ratio, renderTable, verdict, verdictText } from "./lib/report.js";
import type { SampleBounds } from "./lib/stats.js";
import { measureFootprint } from "./stages/footprint.js";
import { measureHttpLoad } from "./stages/http-load.js";
import { type Leg, measureInProcess } from "./stages/in-process.js";
import { type InvalidInputBounds, measureInvalidInput } from "./stages/invalid-input.js";
import { measureMemory } from "./stages/memory.js";
import { type FlowClient, type FlowResult, measureMrtrFlows } from "./stages/mrtr-flow.js";
import { measureRedisSessionLoad } from "./stages/redis-session-load.js";
import { measureSeal, type SealColumn } from "./stages/seal.js";
import { measureSessionLoad, type SessionLoadConfig } from "./stages/session-load.js";
import { measureStdio, type StdioConfig } from "./stages/stdio.js";
import { measureTelemetryCost, type TelemetryCostConfig } from "./stages/telemetry-cost.js";
import { measureTypeCheck, type TypeCheckConfig, type TypeCheckResult } from "./stages/type-check.js";

const RESULTS_DIR = fileURLToPath(new URL("../.bench-results/", import.meta.url));

interface Config {
  http: { connections: number; warmupS: number; durationS: number; rounds: number; toolCounts: number[] };
  flows: SampleBounds;
  inProcess: SampleBounds;
  seal: SampleBounds;
  memory: { warmupFlows: number; warmupMaxMs: number; pendingFlows: number; connections: number };
  invalidInput: InvalidInputBounds;
  session: SessionLoadConfig;
  redisSession: SessionLoadConfig;
  telemetry: TelemetryCostConfig;
  stdio: StdioConfig;
  typeCheck: TypeCheckConfig;
}

const FULL: Config = {
  http: { connections: 10, warmupS: 1, durationS: 6, rounds: 3, toolCounts: [1, 50] },
  flows: { warmup: 100, maxSamples: 2_000, maxMs: 3_000 },
  inProcess: { warmup: 500, maxSamples: 20_000, maxMs: 700 },
  seal: { warmup: 2_000, maxSamples: 20_000, maxMs: 1_000 },
  memory: { warmupFlows: 5_000, warmupMaxMs: 15_000, pendingFlows: 10_000, connections: 10 },
  invalidInput: { large: { warmup: 3, samples: 15 }, small: { warmup: 500, samples: 3_000 } },
  session: { connections: 10, warmupS: 1, durationS: 4.5, rounds: 3 },
  redisSession: { connections: 10, warmupS: 1, durationS: 6, rounds: 3 },
  telemetry: { connections: 10, warmupS: 1, durationS: 6, rounds: 3 },
  stdio: { warmup: 300, maxSamples: 4_000, maxMs: 2_500 },
  typeCheck: { sizes: [100, 400], rounds: 3, resolverBase: 96 },
};

const QUICK: Config = {
  http: { connections: 10, warmupS: 1, durationS: 1, rounds: 1, toolCounts: [1, 50] },
  flows: { warmup: 10, maxSamples: 100, maxMs: 1_000, minSamples: 10 },
  inProcess: { warmup: 50, maxSamples: 500, maxMs: 200, minSamples: 10 },
  seal: { warmup: 50, maxSamples: 500, maxMs: 200, minSamples: 10 },
  memory: { warmupFlows: 200, warmupMaxMs: 5_000, pendingFlows: 10_000, connections: 10 },
  invalidInput: { large: { warmup: 1, samples: 3 }, small: { warmup: 20, samples: 100 } },
  session: { connections: 10, warmupS: 1, durationS: 1, rounds: 1 },
  redisSession: { connections: 10, warmupS: 1, durationS: 1, rounds: 1 },
  telemetry: { connections: 10, warmupS: 1, durationS: 1, rounds: 1 },
  stdio: { warmup: 20, maxSamples: 200, maxMs: 300, minSamples: 20 },
  typeCheck: { sizes: [100, 400], rounds: 1, resolverBase: 96 },
};

function parseArgs(argv: readonly string[]): {
  config: Config;
  stages: Set<number>;
  profile: boolean;
  quick: boolean;
  force: boolean;
} {
  const quick = argv.includes("--quick");
  const at = argv.indexOf("--only");
  const only =
    at === -1 ? argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length) : argv[at + 1];
  const stages = new Set(
    only === undefined ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : only.split(",").map(Number),
  );
  return {
    config: quick ? QUICK : FULL,
    stages,
    profile: argv.includes("--profile"),
    quick,
    force: argv.includes("--force"),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const startedAt = process.hrtime.bigint();
  const { config, stages, profile, quick, force } = parseArgs(process.argv.slice(2));
  const machine = describeMachine();
  const cpuProfileDir = profile ? `${RESULTS_DIR}profiles` : undefined;
  if (cpuProfileDir !== undefined) mkdirSync(cpuProfileDir, { recursive: true });
  log(`tsmcp benchmarks on ${formatMachine(machine)}${quick ? " [--quick: numbers not meaningful]" : ""}`);
  ensureBuild(log);
  const quiet = await awaitQuietMachine({ force: force || quick, log });
  const loadBefore = formatLoad();
  log(
    `load average before measuring (1 / 5 / 15 min): ${loadBefore}${quiet.forced ? ` (above ${QUIET_LOAD}: forced)` : ""}`,
  );
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};

  if (stages.has(1)) {
    log(
      `1. plain tools/call over HTTP: ${config.http.connections} connections, ${config.http.warmupS} s warm-up, ` +
        `${config.http.durationS} s measured in ${config.http.rounds} turns`,
    );
    const results = await measureHttpLoad({ ...config.http, cpuProfileDir }, log);
    raw.httpLoad = Object.fromEntries(
      [...results].map(([tools, byImpl]) => [tools, Object.fromEntries(byImpl)]),
    );
    for (const [tools, byImpl] of results) {
      const label = `plain tools/call over HTTP, ${tools} tool${tools === 1 ? "" : "s"}`;
      const goals = { throughput: throughputGoal, cpu: cpuPerRequestGoal, p99: p99Goal };
      rows.push(...httpLoadRows({ stage: 1, label, goals }, (column) => byImpl.get(column)));
    }
    const one = results.get(1);
    const fifty = results.get(50);
    if (one !== undefined && fifty !== undefined) {
      const costRatio = (column: Column) =>
        ratio(fifty.get(column)?.serverCpuUsPerRequest, one.get(column)?.serverCpuUsPerRequest);
      rows.push({
        stage: 1,
        measure: "HTTP server CPU per call, 50 tools / 1 tool",
        unit: "x",
        tsmcp: costRatio("tsmcp"),
        official: costRatio("official"),
        floor: costRatio("floor"),
        goal: flatGoal,
        note: "server CPU per request with 50 tools divided by that with 1 tool; 1.00 is perfectly flat.",
      });
    }
  }

  if (stages.has(2)) {
    log(
      `2. MRTR flow end to end: ${config.flows.warmup} warm-up flows, then up to ${config.flows.maxSamples} flows or ${config.flows.maxMs} ms per pair`,
    );
    const flows = await measureMrtrFlows(config.flows, log, cpuProfileDir);
    raw.mrtrFlows = Object.fromEntries(
      [...flows].map(([client, byServer]) => [client, Object.fromEntries(byServer)]),
    );
    type Pick = (result: FlowResult) => number;
    const picks: [string, string, Pick][] = [
      ["median", "ms", (result) => result.latencyMs.median],
      ["p99", "ms", (result) => result.latencyMs.p99],
      ["server CPU per flow", "us", (result) => result.serverCpuUs],
      ["client CPU per flow", "us", (result) => result.clientCpuUs],
    ];
    const own = new Map([
      ["tsmcp", flows.get("tsmcp")?.get("tsmcp")],
      ["official", flows.get("official")?.get("official")],
      ["floor", flows.get("raw")?.get("floor")],
    ]);
    for (const [stat, unit, pick] of picks) {
      rows.push({
        stage: 2,
        measure: `MRTR flow, each SDK's own client: ${stat}`,
        unit,
        tsmcp: maybe(own.get("tsmcp"), pick),
        official: maybe(own.get("official"), pick),
        floor: maybe(own.get("floor"), pick),
        ...(stat === "median" ? { goal: flowGoal } : {}),
        ...(stat === "client CPU per flow" ? { goal: clientCpuGoal } : {}),
      });
    }
    const clientLabels: [FlowClient, string][] = [
      ["tsmcp", "tsmcp client -> each server"],
      ["official", "official client -> each server"],
      ["raw", "raw fetch client -> each server"],
    ];
    for (const [client, label] of clientLabels) {
      const byServer = flows.get(client);
      for (const [stat, unit, pick] of picks.filter(([stat]) => stat !== "client CPU per flow")) {
        rows.push({
          stage: 2,
          measure: `MRTR flow, ${label}: ${stat}`,
          unit,
          tsmcp: maybe(byServer?.get("tsmcp"), pick),
          official: maybe(byServer?.get("official"), pick),
          floor: maybe(byServer?.get("floor"), pick),
        });
      }
    }
  }

  if (stages.has(3)) {
    log(
      `3. in-process per request: ${config.inProcess.warmup} warm-up, up to ${config.inProcess.maxSamples} samples or ${config.inProcess.maxMs} ms per row`,
    );
    const inProcess = await measureInProcess(config.inProcess, log);
    raw.inProcess = Object.fromEntries(
      [...inProcess].map(([level, byLeg]) => [
        level,
        Object.fromEntries([...byLeg].map(([leg, byColumn]) => [leg, Object.fromEntries(byColumn)])),
      ]),
    );
    const legs: Leg[] = ["plain, 1 tool", "plain, 50 tools", "MRTR first leg", "MRTR retry leg"];
    for (const [level, byLeg] of inProcess) {
      for (const leg of legs) {
        const byColumn = byLeg.get(leg);
        rows.push({
          stage: 3,
          measure: `in-process ${level}: ${leg} (median)`,
          unit: "us",
          tsmcp: byColumn?.get("tsmcp")?.median,
          official: byColumn?.get("official")?.median,
          floor: byColumn?.get("floor")?.median,
        });
      }
      const flat = (column: Column) =>
        ratio(
          byLeg.get("plain, 50 tools")?.get(column)?.median,
          byLeg.get("plain, 1 tool")?.get(column)?.median,
        );
      rows.push({
        stage: 3,
        measure: `in-process ${level}: cost per call, 50 tools / 1 tool`,
        unit: "x",
        tsmcp: flat("tsmcp"),
        official: flat("official"),
        floor: flat("floor"),
        goal: flatGoal,
      });
    }
  }

  if (stages.has(4)) {
    log(
      `4. requestState seal/open: ${config.seal.warmup} warm-up, up to ${config.seal.maxSamples} samples or ${config.seal.maxMs} ms per row`,
    );
    const seal = await measureSeal(config.seal, log);
    raw.seal = Object.fromEntries(
      [...seal].map(([size, ops]) => [
        size,
        { seal: Object.fromEntries(ops.seal), open: Object.fromEntries(ops.open) },
      ]),
    );
    for (const [size, ops] of seal) {
      rows.push({
        stage: 4,
        measure: `requestState seal, ${size} (median)`,
        unit: "us",
        tsmcp: ops.seal.get("tsmcp")?.median,
        official: ops.seal.get("official")?.median,
        floor: ops.seal.get("floor")?.median,
      });
      rows.push({
        stage: 4,
        measure: `requestState open, ${size} (median)`,
        unit: "us",
        tsmcp: ops.open.get("tsmcp")?.median,
        official: ops.open.get("official")?.median,
        floor: ops.open.get("floor")?.median,
      });
      const sum = (column: SealColumn) => {
        const a = ops.seal.get(column)?.median;
        const b = ops.open.get(column)?.median;
        return a === undefined || b === undefined ? undefined : a + b;
      };
      rows.push({
        stage: 4,
        measure: `requestState seal + open, ${size}`,
        unit: "us",
        tsmcp: sum("tsmcp"),
        official: sum("official"),
        floor: sum("floor"),
        ...(size === "1 KiB"
          ? {
              goal: sealGoal,
              note: "tsmcp encrypts (AES-256-GCM) and binds the state to the request, audience and expiry; the official codec signs it (HMAC-SHA256, readable by the client) and binds only an expiry; the floor is bare AES-256-GCM with node:crypto (no envelope, no claims).",
            }
          : {}),
      });
    }
  }

  if (stages.has(5)) {
    log(
      `5. heap per pending flow: ${config.memory.warmupFlows} warm-up first legs (at most ${config.memory.warmupMaxMs / 1000} s), then ${config.memory.pendingFlows} left pending`,
    );
    const memory = await measureMemory(config.memory, log);
    raw.memory = Object.fromEntries(memory);
    const kib = (column: Column, key: "beforeBytes" | "afterBytes") => {
      const value = memory.get(column)?.[key];
      return value === undefined ? undefined : value / 1024;
    };
    rows.push({
      stage: 5,
      measure: `server heap growth per pending MRTR flow (${config.memory.pendingFlows.toLocaleString("en-US")} flows)`,
      unit: "B/flow",
      tsmcp: memory.get("tsmcp")?.bytesPerFlow,
      official: memory.get("official")?.bytesPerFlow,
      floor: memory.get("floor")?.bytesPerFlow,
      goal: memoryGoal,
      note:
        `heap used after GC before -> after, KiB: tsmcp ${fmt(kib("tsmcp", "beforeBytes"))} -> ${fmt(kib("tsmcp", "afterBytes"))}, ` +
        `official ${fmt(kib("official", "beforeBytes"))} -> ${fmt(kib("official", "afterBytes"))}, ` +
        `floor ${fmt(kib("floor", "beforeBytes"))} -> ${fmt(kib("floor", "afterBytes"))}.`,
    });
  }

  if (stages.has(6)) {
    log("6. install footprint (from node_modules; tsmcp's own files from npm pack --dry-run)");
    const footprint = measureFootprint(log);
    raw.footprint = footprint;
    rows.push({
      stage: 6,
      measure: "server package: runtime dependencies (transitive)",
      unit: "packages",
      tsmcp: footprint.tsmcp.dependencies.length,
      official: footprint.official.dependencies.length,
      note: `tsmcp: ${footprint.tsmcp.dependencies.join(", ")}; official: ${footprint.official.dependencies.join(", ")}. tsmcp is one package (server and client).`,
    });
    rows.push({
      stage: 6,
      measure: "server package: installed bytes (own + dependencies)",
      unit: "KiB",
      tsmcp: footprint.tsmcp.installedBytes / 1024,
      official: footprint.official.installedBytes / 1024,
    });
  }

  if (stages.has(7)) {
    log(
      `7. invalid vs valid input, in process through the web handler: ${config.invalidInput.large.samples} ` +
        `large and ${config.invalidInput.small.samples} small requests of each kind`,
    );
    const invalidInput = await measureInvalidInput(config.invalidInput, log);
    raw.invalidInput = Object.fromEntries(
      [...invalidInput].map(([label, byKind]) => [label, Object.fromEntries(byKind)]),
    );
    for (const [label, byKind] of invalidInput) {
      const valid = byKind.get("valid");
      const invalid = byKind.get("invalid");
      for (const [kind, cost] of [
        ["valid", valid],
        ["invalid", invalid],
      ] as const) {
        rows.push({
          stage: 7,
          measure: `${label}, ${kind}: CPU per request`,
          unit: "us",
          tsmcp: cost?.cpuUsPerRequest,
        });
        for (const [name, pick] of [
          ["median", (summary: { median: number }) => summary.median],
          ["p99", (summary: { p99: number }) => summary.p99],
        ] as const) {
          rows.push({
            stage: 7,
            measure: `${label}, ${kind}: ${name} wall time`,
            unit: "us",
            tsmcp: maybe(cost?.wallUs, pick),
          });
        }
      }
      rows.push({
        stage: 7,
        measure: `${label}: CPU per request, invalid / valid`,
        unit: "x",
        tsmcp: ratio(invalid?.cpuUsPerRequest, valid?.cpuUsPerRequest),
        goal: invalidInputGoal,
      });
      rows.push({
        stage: 7,
        measure: `${label}: median wall time, invalid / valid`,
        unit: "x",
        tsmcp: ratio(invalid?.wallUs.median, valid?.wallUs.median),
        goal: invalidInputGoal,
      });
      rows.push({
        stage: 7,
        measure: `${label}: p99 wall time, invalid / valid`,
        unit: "x",
        tsmcp: ratio(invalid?.wallUs.p99, valid?.wallUs.p99),
        ...(valid !== undefined && valid.wallUs.count < 100
          ? { note: `${valid.wallUs.count} requests of each kind: the p99 is the slowest one.` }
          : {}),
      });
    }
  }

  if (stages.has(8)) {
    const session = config.session;
    log(
      `8. plain tools/call on 2025-11-25 sessions over HTTP: ${session.connections} connections, one session ` +
        `each, ${session.warmupS} s warm-up, ${session.durationS} s measured in ${session.rounds} turns`,
    );
    const results = await measureSessionLoad({ ...session, cpuProfileDir }, log);
    raw.sessionLoad = Object.fromEntries(results);
    const answered = (column: Column) => results.get(column)?.answeredAs ?? "—";
    const note =
      "official here is @modelcontextprotocol/sdk 1.x's stateful StreamableHTTPServerTransport " +
      `(enableJsonResponse); answered as: tsmcp ${answered("tsmcp")}, official ${answered("official")}, ` +
      `floor ${answered("floor")}.`;
    const label = "plain tools/call on a 2025-11-25 session over HTTP, 1 tool";
    const goals = { throughput: sessionThroughputGoal, cpu: sessionCpuGoal };
    rows.push(...httpLoadRows({ stage: 8, label, note, goals }, (column) => results.get(column)));
  }

  if (stages.has(9)) {
    const session = config.redisSession;
    log(
      `9. plain tools/call on 2025-11-25 sessions, in-memory vs Redis stores: ${session.connections} connections, ` +
        `one session each, ${session.warmupS} s warm-up, ${session.durationS} s measured in ${session.rounds} turns`,
    );
    const results = await measureRedisSessionLoad({ ...session, cpuProfileDir }, log);
    raw.redisSessionLoad = Object.fromEntries(results);
    const memory = results.get("in-memory");
    const redis = results.get("redis");
    const label = "plain tools/call on a 2025-11-25 session, 1 tool";
    const tsmcpOnly = (load: typeof memory) => (column: Column) => (column === "tsmcp" ? load : undefined);
    rows.push(...httpLoadRows({ stage: 9, label: `${label}, in-memory stores` }, tsmcpOnly(memory)));
    rows.push(...httpLoadRows({ stage: 9, label: `${label}, Redis stores` }, tsmcpOnly(redis)));
    rows.push({
      stage: 9,
      measure: `${label}, Redis stores: redis-server CPU per request`,
      unit: "us",
      tsmcp: redis?.helperCpuUsPerRequest,
    });
    const picks: [string, (load: NonNullable<typeof memory>) => number][] = [
      ["throughput", (load) => load.requestsPerSecond],
      ["server CPU per request", (load) => load.serverCpuUsPerRequest],
      ["p50 latency", (load) => load.latencyMs.median],
      ["p99 latency", (load) => load.latencyMs.p99],
    ];
    for (const [name, pick] of picks) {
      rows.push({
        stage: 9,
        measure: `${label}: ${name}, Redis / in-memory`,
        unit: "x",
        tsmcp: ratio(maybe(redis, pick), maybe(memory, pick)),
        ...(name === "throughput"
          ? {
              note:
                "tsmcp's serve() with the default in-memory stores against createRedisState({ url }) on a " +
                "redis-server of the stage's own (127.0.0.1, no persistence); server CPU is the tsmcp process's, " +
                "the redis-server's is its own row.",
            }
          : {}),
      });
    }
  }

  if (stages.has(10)) {
    const telemetry = config.telemetry;
    log(
      `10. telemetry cost, plain tools/call over HTTP: off, API without a provider, SDK exporting to nowhere; ` +
        `${telemetry.connections} connections, ${telemetry.warmupS} s warm-up, ${telemetry.durationS} s measured in ${telemetry.rounds} turns`,
    );
    const results = await measureTelemetryCost({ ...telemetry, cpuProfileDir }, log);
    raw.telemetryCost = Object.fromEntries(results);
    const off = results.get("off")?.serverCpuUsPerRequest;
    const label = "plain tools/call over HTTP, 1 tool, server CPU per request";
    rows.push({
      stage: 10,
      measure: `${label}: telemetry off (telemetry: false)`,
      unit: "us",
      tsmcp: off,
      note:
        'tsmcp alone; "API, no provider" has @opentelemetry/api installed and nothing registered in it; ' +
        '"SDK, no-op exporter" passes a BasicTracerProvider (BatchSpanProcessor, an exporter that drops every ' +
        "batch) and a MeterProvider without a reader in the telemetry option, with the AsyncLocalStorageContextManager registered.",
    });
    for (const [mode, name] of [
      ["api", "API, no provider"],
      ["provider", "SDK, no-op exporter"],
    ] as const) {
      rows.push({
        stage: 10,
        measure: `${label}: ${name} / telemetry off`,
        unit: "x",
        tsmcp: ratio(results.get(mode)?.serverCpuUsPerRequest, off),
      });
    }
  }

  if (stages.has(11)) {
    log(
      `11. stdio: ${config.stdio.warmup} warm-up, then up to ${config.stdio.maxSamples} operations or ${config.stdio.maxMs} ms per operation and pair`,
    );
    const stdio = await measureStdio(config.stdio, log, cpuProfileDir);
    raw.stdio = {
      plain: Object.fromEntries(stdio.plain),
      flow: Object.fromEntries(stdio.flow),
      ownClient: Object.fromEntries(stdio.ownClient),
    };
    type Pick = (result: NonNullable<ReturnType<typeof stdio.plain.get>>) => number;
    const picks: [string, string, Pick][] = [
      ["median", "ms", (result) => result.latencyMs.median],
      ["p99", "ms", (result) => result.latencyMs.p99],
      ["server CPU per operation", "us", (result) => result.serverCpuUs],
    ];
    for (const [kind, byServer] of [
      ["plain tools/call", stdio.plain],
      ["MRTR flow", stdio.flow],
    ] as const) {
      for (const [official, version] of [
        ["official", "2.4.0"],
        ["official-v1", "1.x"],
      ] as const) {
        for (const [stat, unit, pick] of picks) {
          rows.push({
            stage: 11,
            measure: `stdio ${kind}, raw client (official: ${version}): ${stat}`,
            unit,
            tsmcp: maybe(byServer.get("tsmcp"), pick),
            official: maybe(byServer.get(official), pick),
            floor: maybe(byServer.get("floor"), pick),
            ...(stat === "server CPU per operation" && official === "official" && kind === "plain tools/call"
              ? { goal: stdioCpuGoal }
              : {}),
            ...(kind === "MRTR flow" && official === "official-v1" && stat === "median"
              ? {
                  note: "the 1.x server speaks 2025-11-25 (opened with initialize): its flow is one tools/call during which it asks the question as an in-band elicitation/create request that the client answers.",
                }
              : {}),
          });
        }
      }
    }
    for (const [stat, unit, pick] of [
      ...picks,
      ["client CPU per flow", "us", (result) => result.clientCpuUs] as [string, string, Pick],
    ]) {
      rows.push({
        stage: 11,
        measure: `stdio MRTR flow, each SDK's own client: ${stat}`,
        unit,
        tsmcp: maybe(stdio.ownClient.get("tsmcp"), pick),
        official: maybe(stdio.ownClient.get("official"), pick),
        floor: maybe(stdio.ownClient.get("floor"), pick),
        ...(stat === "client CPU per flow" ? { goal: clientCpuGoal } : {}),
      });
    }
  }

  if (stages.has(12)) {
    const typeCheck = config.typeCheck;
    log(
      `12. type-check cost: tsc --extendedDiagnostics on generated servers of ${typeCheck.sizes.join(" and ")} zod tools, ` +
        `${typeCheck.rounds} run${typeCheck.rounds === 1 ? "" : "s"} each (tsmcp from dist/)`,
    );
    const results = measureTypeCheck(typeCheck, log);
    raw.typeCheck = {
      bySize: Object.fromEntries(
        [...results.bySize].map(([size, bySdk]) => [size, Object.fromEntries(bySdk)]),
      ),
      resolver: results.resolver,
    };
    rows.push(...typeCheckRows(results));
  }

  const wallS = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const table = renderTable(rows);
  const header =
    `tsmcp vs @modelcontextprotocol/server + /client 2.4.0 (stage 8: @modelcontextprotocol/sdk 1.x; stage 11 also 1.x; stages 9 and 10: tsmcp alone) vs a bare floor (node:http; a line loop on stdio; the same schemas without an SDK for stage 12)\n` +
    `machine: ${formatMachine(machine)}\n` +
    `load average (1 / 5 / 15 min): ${loadBefore} before measuring, ${formatLoad()} after${quiet.forced ? ` — FORCED above ${QUIET_LOAD}, not a record` : ""}\n` +
    `run: ${new Date().toISOString()}, wall time ${wallS.toFixed(0)} s${quick ? " (--quick: numbers not meaningful)" : ""}\n`;
  process.stdout.write(`\n${header}\n${table}\n`);
  const missed = rows
    .filter((row) => verdict(row) === "MISSED")
    .map((row) => `${row.measure}: ${verdictText(row)}, goal ${row.goal?.text}`);
  process.stdout.write(
    `\ngoals: ${rows.filter((row) => verdict(row) === "met").length} met, ${missed.length} missed${missed.length > 0 ? ` (${missed.join("; ")})` : ""}\n`,
  );
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}latest.md`, `${header}\n${table}\n`);
  writeFileSync(
    `${RESULTS_DIR}latest.json`,
    `${JSON.stringify({ machine, wallS, rows, raw }, replacer, 2)}\n`,
  );
}

function typeCheckRows(results: TypeCheckResult): Row[] {
  const rows: Row[] = [];
  for (const [size, bySdk] of results.bySize) {
    const label = `type check of a server of ${size} zod tools`;
    const tsmcp = bySdk.get("tsmcp");
    const official = bySdk.get("official");
    const floor = bySdk.get("floor");
    rows.push({
      stage: 12,
      measure: `${label}: check time, CPU (median)`,
      unit: "s",
      tsmcp: tsmcp?.checkS,
      official: official?.checkS,
      floor: floor?.checkS,
      goal: typeCheckTimeGoal,
      ...(rows.length === 0
        ? {
            note:
              "tsc's Check time on a CPU clock; the floor column is the same zod schemas and handler " +
              "bodies with no SDK (each handler a function of z.output<typeof schema>).",
          }
        : {}),
    });
    rows.push({
      stage: 12,
      measure: `${label}: check time the SDK adds over the floor`,
      unit: "s",
      tsmcp: addedOver(tsmcp?.checkS, floor?.checkS),
      official: addedOver(official?.checkS, floor?.checkS),
    });
    rows.push({
      stage: 12,
      measure: `${label}: instantiations`,
      unit: "count",
      tsmcp: tsmcp?.instantiations,
      official: official?.instantiations,
      floor: floor?.instantiations,
    });
    rows.push({
      stage: 12,
      measure: `${label}: memory used`,
      unit: "MiB",
      tsmcp: maybe(tsmcp, (cost) => cost.memoryKiB / 1024),
      official: maybe(official, (cost) => cost.memoryKiB / 1024),
      floor: maybe(floor, (cost) => cost.memoryKiB / 1024),
    });
  }
  const sizes = [...results.bySize.keys()].sort((a, b) => a - b);
  const small = sizes[0];
  const large = sizes.at(-1);
  if (small !== undefined && large !== undefined && large > small) {
    const perTool = (sdk: "tsmcp" | "official" | "floor") => {
      const a = results.bySize.get(small)?.get(sdk)?.instantiations;
      const b = results.bySize.get(large)?.get(sdk)?.instantiations;
      return a === undefined || b === undefined ? undefined : (b - a) / (large - small);
    };
    rows.push({
      stage: 12,
      measure: `type check: instantiations per tool (${large} tools - ${small} tools)`,
      unit: "count",
      tsmcp: perTool("tsmcp"),
      official: perTool("official"),
      floor: perTool("floor"),
    });
  }
  const { base, firstResolverTool, furtherResolverTool, twoPlainTools } = results.resolver;
  rows.push({
    stage: 12,
    measure: "type check: instantiations of one resolver tool / two plain tools",
    unit: "x",
    tsmcp: ratio(firstResolverTool, twoPlainTools),
    goal: resolverInstantiationsGoal,
    note:
      `added to a tsmcp server of plain tools (${base} instantiations): its first tool with ` +
      `resolve: { answer: resolver(..., () => elicit(...)) } +${firstResolverTool} (the resolver types' ` +
      `one-time work included), a second one +${furtherResolverTool}, two plain tools with the same ` +
      `input schemas +${twoPlainTools}.`,
  });
  rows.push({
    stage: 12,
    measure: "type check: instantiations of a further resolver tool / two plain tools",
    unit: "x",
    tsmcp: ratio(furtherResolverTool, twoPlainTools),
  });
  return rows;
}

/** `total - floor`: what an SDK adds to the same schemas and handlers checked without one. */
function addedOver(total: number | undefined, floor: number | undefined): number | undefined {
  return total === undefined || floor === undefined ? undefined : total - floor;
}

function maybe<T>(value: T | undefined, pick: (value: T) => number): number | undefined {
  return value === undefined ? undefined : pick(value);
}

function fmt(value: number | undefined): string {
  return value === undefined ? "—" : value.toFixed(0);
}

/**
 * JSON replacer for the raw results: goal checks are functions, and every latency of a load run is
 * kept in a typed array (summarised beside it); drop both.
 */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === "function" || ArrayBuffer.isView(value) ? undefined : value;
}

try {
  await main();
} catch (error) {
  if (!(error instanceof MachineBusyError)) throw error;
  log(`bench: ${error.message}`);
  process.exitCode = 1;
}
