/**
 * Scope item 1: plain `tools/call` over Streamable HTTP on 127.0.0.1 under load. Each server runs
 * in its own child process; autocannon runs in this one, with the same connections and durations
 * for all: one checked request, a warm-up run, then measured runs taking turns with the others.
 */
import { ECHO_TOOL } from "../fixtures/tools.js";
import { plainCall, toolCallHeaders } from "../fixtures/wire.js";
import { type ServerChild, startServer } from "../lib/child.js";
import { type LoadResult, mergeLoads, runLoad } from "../lib/load.js";
import type { Column } from "../lib/report.js";
import type { Implementation } from "../server-process.js";

/** Bounds of the load runs. */
export interface HttpLoadConfig {
  readonly connections: number;
  readonly warmupS: number;
  readonly durationS: number;
  readonly toolCounts: readonly number[];
  /** Measured runs per server, taking turns; each lasts `durationS / rounds`. */
  readonly rounds: number;
  readonly cpuProfileDir?: string | undefined;
}

/** One server's measured load, with the server process's CPU time per answered request. */
export interface ServerLoad extends LoadResult {
  /** Server CPU (user + system, all its threads) per 2xx response, in microseconds. */
  readonly serverCpuUsPerRequest: number;
}

/** Load results by tool count, then by implementation. */
export type HttpLoadResults = Map<number, Map<Column, ServerLoad>>;

const IMPLEMENTATIONS = ["tsmcp", "official", "floor"] as const satisfies readonly (Implementation &
  Column)[];

/** Sends one plain call and checks that it answered 200 with the echoed text. */
export async function checkPlainCall(url: URL): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: toolCallHeaders(ECHO_TOOL),
    body: JSON.stringify(plainCall(ECHO_TOOL)),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"text":"hello"')) {
    throw new Error(`plain call to ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

/**
 * Runs scope item 1. Per tool count, the three servers run side by side (each in its own child);
 * each is checked and warmed up, then `rounds` runs of `durationS / rounds` seconds take turns
 * (rotating who goes first), so drift in machine load hits all three alike; the runs of one
 * server are merged.
 */
export async function measureHttpLoad(
  config: HttpLoadConfig,
  log: (line: string) => void,
): Promise<HttpLoadResults> {
  const results: HttpLoadResults = new Map();
  const headers = toolCallHeaders(ECHO_TOOL);
  const body = JSON.stringify(plainCall(ECHO_TOOL));
  for (const plainTools of config.toolCounts) {
    const servers = new Map<Column, ServerChild>();
    try {
      for (const impl of IMPLEMENTATIONS) {
        const server = await startServer(
          { impl, spec: { plainTools, mrtr: false } },
          config.cpuProfileDir === undefined ? {} : { cpuProfileDir: config.cpuProfileDir },
        );
        servers.set(impl, server);
        await checkPlainCall(server.url);
        await runLoad({
          url: server.url,
          headers,
          body,
          connections: config.connections,
          durationS: config.warmupS,
        });
      }
      const runs = new Map<Column, LoadResult[]>(IMPLEMENTATIONS.map((impl) => [impl, []]));
      const cpuUs = new Map<Column, number>(IMPLEMENTATIONS.map((impl) => [impl, 0]));
      for (let round = 0; round < config.rounds; round++) {
        for (let turn = 0; turn < IMPLEMENTATIONS.length; turn++) {
          const impl = IMPLEMENTATIONS[
            (round + turn) % IMPLEMENTATIONS.length
          ] as (typeof IMPLEMENTATIONS)[number];
          const server = servers.get(impl) as ServerChild;
          const cpuBefore = await server.cpuUs();
          const run = await runLoad({
            url: server.url,
            headers,
            body,
            connections: config.connections,
            durationS: config.durationS / config.rounds,
          });
          cpuUs.set(impl, (cpuUs.get(impl) ?? 0) + (await server.cpuUs()) - cpuBefore);
          if (run.failures > 0) throw new Error(`${impl}: ${run.failures} failed requests under load`);
          runs.get(impl)?.push(run);
        }
      }
      const byImpl = new Map<Column, ServerLoad>();
      for (const impl of IMPLEMENTATIONS) {
        const merged = mergeLoads(runs.get(impl) ?? []);
        const measured = { ...merged, serverCpuUsPerRequest: (cpuUs.get(impl) ?? 0) / merged.completed };
        byImpl.set(impl, measured);
        log(
          `  ${impl.padEnd(8)} ${plainTools} tool(s): ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
            `p50 ${measured.latencyMs.median.toFixed(2)} ms, p99 ${measured.latencyMs.p99.toFixed(2)} ms, ` +
            `server CPU ${measured.serverCpuUsPerRequest.toFixed(0)} us/request`,
        );
      }
      results.set(plainTools, byImpl);
    } finally {
      for (const server of servers.values()) await server.stop();
    }
  }
  return results;
}
