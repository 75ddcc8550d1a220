/**
 * Scope item 5: server memory held by flows left pending at round one. Each server runs in a child
 * with `--expose-gc`; after a warm-up of first legs long enough for the heap to level off (JIT code
 * and lazily built caches grow it for the first few thousand requests), its heap used after full
 * GC is read, then
 * `pendingFlows` first legs are sent (each answered `input_required`, never retried) and the heap
 * is read again. Growth per pending flow = (after - before) / pendingFlows. A server that keeps
 * nothing between rounds shows only noise (a few bytes per flow either way).
 */

import { PROVISION_TOOL } from "../fixtures/tools.js";
import { provisionFirstLeg, toolCallHeaders } from "../fixtures/wire.js";
import { startServer } from "../lib/child.js";
import { runLoad } from "../lib/load.js";
import type { Column } from "../lib/report.js";
import type { Implementation } from "../server-process.js";

/** Bounds of the memory measurement. */
export interface MemoryConfig {
  readonly warmupFlows: number;
  /** The warm-up stops early after this many milliseconds (a slow server on a busy machine). */
  readonly warmupMaxMs: number;
  readonly pendingFlows: number;
  readonly connections: number;
}

/** First legs per warm-up run; the warm-up checks its time bound between runs. */
const WARMUP_CHUNK = 1_000;

/** What one server's heap did. */
export interface MemoryResult {
  readonly beforeBytes: number;
  readonly afterBytes: number;
  readonly bytesPerFlow: number;
}

/** Runs scope item 5. */
export async function measureMemory(
  config: MemoryConfig,
  log: (line: string) => void,
): Promise<Map<Column, MemoryResult>> {
  const results = new Map<Column, MemoryResult>();
  const headers = toolCallHeaders(PROVISION_TOOL);
  const body = JSON.stringify(provisionFirstLeg());
  for (const impl of ["tsmcp", "official", "floor"] as const satisfies readonly Implementation[]) {
    const server = await startServer({ impl, spec: { plainTools: 1, mrtr: true } });
    try {
      const check = await fetch(server.url, { method: "POST", headers, body });
      const text = await check.text();
      if (check.status !== 200 || !text.includes('"input_required"')) {
        throw new Error(`${impl}: first leg answered ${check.status} ${text.slice(0, 300)}`);
      }
      const load = { url: server.url, headers, body, connections: config.connections };
      const warmupEnds = Date.now() + config.warmupMaxMs;
      for (let sent = 0; sent < config.warmupFlows && Date.now() < warmupEnds; sent += WARMUP_CHUNK) {
        const warm = await runLoad({ ...load, amount: Math.min(WARMUP_CHUNK, config.warmupFlows - sent) });
        if (warm.failures > 0) throw new Error(`${impl}: ${warm.failures} failed first legs`);
      }
      const beforeBytes = await server.heapUsedBytes();
      const pending = await runLoad({ ...load, amount: config.pendingFlows });
      if (pending.failures > 0 || pending.completed !== config.pendingFlows) {
        throw new Error(`${impl}: ${pending.completed} of ${config.pendingFlows} first legs answered`);
      }
      const afterBytes = await server.heapUsedBytes();
      const bytesPerFlow = (afterBytes - beforeBytes) / config.pendingFlows;
      results.set(impl, { beforeBytes, afterBytes, bytesPerFlow });
      log(
        `  ${impl.padEnd(8)} heap ${(beforeBytes / 1024).toFixed(0)} KiB -> ${(afterBytes / 1024).toFixed(0)} KiB ` +
          `after ${config.pendingFlows} pending flows: ${bytesPerFlow.toFixed(1)} B/flow`,
      );
    } finally {
      await server.stop();
    }
  }
  return results;
}
