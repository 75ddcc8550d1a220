/**
 * Scope item 1: plain `tools/call` over Streamable HTTP on 127.0.0.1 under load. Each server runs
 * in its own child process; autocannon runs in this one. Per server and tool count: one checked
 * request, a warm-up run, then the measured run (same connections and duration for all).
 */
import { ECHO_TOOL } from "../fixtures/tools.js";
import { plainCall, toolCallHeaders } from "../fixtures/wire.js";
import { startServer } from "../lib/child.js";
import { type LoadResult, runLoad } from "../lib/load.js";
import type { Column } from "../lib/report.js";
import type { Implementation } from "../server-process.js";

/** Bounds of the load runs. */
export interface HttpLoadConfig {
  readonly connections: number;
  readonly warmupS: number;
  readonly durationS: number;
  readonly toolCounts: readonly number[];
  readonly cpuProfileDir?: string | undefined;
}

/** Load results by tool count, then by implementation. */
export type HttpLoadResults = Map<number, Map<Column, LoadResult>>;

const IMPLEMENTATIONS: readonly Implementation[] = ["tsmcp", "official", "floor"];

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

/** Runs scope item 1. */
export async function measureHttpLoad(
  config: HttpLoadConfig,
  log: (line: string) => void,
): Promise<HttpLoadResults> {
  const results: HttpLoadResults = new Map();
  const headers = toolCallHeaders(ECHO_TOOL);
  const body = JSON.stringify(plainCall(ECHO_TOOL));
  for (const plainTools of config.toolCounts) {
    const byImpl = new Map<Column, LoadResult>();
    for (const impl of IMPLEMENTATIONS) {
      const server = await startServer(
        { impl, spec: { plainTools, mrtr: false } },
        config.cpuProfileDir === undefined ? {} : { cpuProfileDir: config.cpuProfileDir },
      );
      try {
        await checkPlainCall(server.url);
        const load = { url: server.url, headers, body, connections: config.connections };
        await runLoad({ ...load, durationS: config.warmupS });
        const measured = await runLoad({ ...load, durationS: config.durationS });
        if (measured.failures > 0)
          throw new Error(`${impl}: ${measured.failures} failed requests under load`);
        byImpl.set(impl, measured);
        log(
          `  ${impl.padEnd(8)} ${plainTools} tool(s): ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
            `p50 ${measured.latencyMs.median.toFixed(2)} ms, p99 ${measured.latencyMs.p99.toFixed(2)} ms`,
        );
      } finally {
        await server.stop();
      }
    }
    results.set(plainTools, byImpl);
  }
  return results;
}
