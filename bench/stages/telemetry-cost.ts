/**
 * Stage 10: what telemetry costs the server. A plain `tools/call` over Streamable HTTP under load,
 * 1 tool, on tsmcp alone, with OpenTelemetry set up three ways (see `servers/tsmcp-telemetry.ts`):
 * off (`telemetry: false`), the API present with nothing registered, and a real SDK whose spans
 * are exported to nowhere. Each runs in its own child; checked, warmed up, then measured in turns
 * (rotating who goes first) as in stage 1. The measure is the server process's CPU time per
 * answered request, and its ratio to the "off" server's.
 */
import { ECHO_TOOL } from "../fixtures/tools.js";
import { plainCall, toolCallHeaders } from "../fixtures/wire.js";
import { type ServerChild, startServer } from "../lib/child.js";
import { type LoadResult, mergeLoads, runLoad } from "../lib/load.js";
import { TELEMETRY_MODES, type TelemetryMode } from "../servers/tsmcp-telemetry.js";
import { checkPlainCall, type ServerLoad } from "./http-load.js";

/** Bounds of the load runs. */
export interface TelemetryCostConfig {
  readonly connections: number;
  readonly warmupS: number;
  readonly durationS: number;
  /** Measured runs per setup, taking turns; each lasts `durationS / rounds`. */
  readonly rounds: number;
  readonly cpuProfileDir?: string | undefined;
}

/** Stage 10's results by telemetry setup. */
export type TelemetryCostResults = Map<TelemetryMode, ServerLoad>;

/** Runs stage 10. */
export async function measureTelemetryCost(
  config: TelemetryCostConfig,
  log: (line: string) => void,
): Promise<TelemetryCostResults> {
  const headers = toolCallHeaders(ECHO_TOOL);
  const body = JSON.stringify(plainCall(ECHO_TOOL));
  const load = (url: URL, durationS: number) =>
    runLoad({ url, headers, body, connections: config.connections, durationS });
  const servers = new Map<TelemetryMode, ServerChild>();
  try {
    for (const mode of TELEMETRY_MODES) {
      const server = await startServer(
        { impl: "tsmcp-telemetry", spec: { plainTools: 1, mrtr: false } },
        {
          env: { TSMCP_BENCH_TELEMETRY: mode },
          ...(config.cpuProfileDir === undefined ? {} : { cpuProfileDir: config.cpuProfileDir }),
        },
      );
      servers.set(mode, server);
      await checkPlainCall(server.url);
      await load(server.url, config.warmupS);
    }
    const runs = new Map<TelemetryMode, LoadResult[]>(TELEMETRY_MODES.map((mode) => [mode, []]));
    const cpuUs = new Map<TelemetryMode, number>(TELEMETRY_MODES.map((mode) => [mode, 0]));
    for (let round = 0; round < config.rounds; round++) {
      for (let turn = 0; turn < TELEMETRY_MODES.length; turn++) {
        const mode = TELEMETRY_MODES[(round + turn) % TELEMETRY_MODES.length] as TelemetryMode;
        const server = servers.get(mode) as ServerChild;
        const cpuBefore = await server.cpuUs();
        const run = await load(server.url, config.durationS / config.rounds);
        cpuUs.set(mode, (cpuUs.get(mode) ?? 0) + (await server.cpuUs()) - cpuBefore);
        if (run.failures > 0)
          throw new Error(`telemetry ${mode}: ${run.failures} failed requests under load`);
        runs.get(mode)?.push(run);
      }
    }
    const results: TelemetryCostResults = new Map();
    for (const mode of TELEMETRY_MODES) {
      const merged = mergeLoads(runs.get(mode) ?? []);
      const measured = { ...merged, serverCpuUsPerRequest: (cpuUs.get(mode) ?? 0) / merged.completed };
      results.set(mode, measured);
      log(
        `  telemetry ${mode.padEnd(8)} ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
          `server CPU ${measured.serverCpuUsPerRequest.toFixed(1)} us/request`,
      );
    }
    return results;
  } finally {
    for (const server of servers.values()) await server.stop();
  }
}
