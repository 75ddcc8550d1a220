/**
 * Load generation with autocannon: a fixed number of connections POSTing one fixed request for a
 * fixed time (or a fixed count). autocannon's own latency histogram keeps whole milliseconds, so
 * each response's exact time is taken from its `response` event instead.
 */
import autocannon from "autocannon";
import { type Summary, summarize } from "./stats.js";

/** One load run. */
export interface LoadOptions {
  /** The endpoint (127.0.0.1 only). */
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly connections: number;
  /** Seconds to run; exclusive with `amount`. */
  readonly durationS?: number;
  /** Requests to send in all; exclusive with `durationS`. */
  readonly amount?: number;
  /** Most latencies kept (the first ones). Default {@link MAX_LATENCIES}. */
  readonly maxLatencies?: number;
}

/** What a load run measured. */
export interface LoadResult {
  /** Completed 2xx responses per second over the run. */
  readonly requestsPerSecond: number;
  /** Latency of 2xx responses, in milliseconds. */
  readonly latencyMs: Summary;
  /** Every 2xx latency recorded, in milliseconds (for merging runs). */
  readonly latenciesMs: Float64Array;
  /** Seconds the run lasted. */
  readonly seconds: number;
  /** Responses that were not 2xx, plus errors and timeouts: any is a failed run. */
  readonly failures: number;
  readonly completed: number;
}

/** Most latencies kept per run (the first ones); far above what one run on this machine completes. */
const MAX_LATENCIES = 2_000_000;

/** Seconds after which a request counts as timed out. */
const REQUEST_TIMEOUT_S = 10;

/**
 * Runs the load and resolves with its measurements.
 *
 * @throws Error when the URL is not on loopback, or neither/both of `durationS` and `amount` are set.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.url.hostname !== "127.0.0.1")
    throw new Error(`load only targets 127.0.0.1, got ${options.url}`);
  if ((options.durationS === undefined) === (options.amount === undefined)) {
    throw new Error("runLoad: give exactly one of durationS and amount");
  }
  const maxLatencies = options.maxLatencies ?? MAX_LATENCIES;
  const latencies = new Float64Array(maxLatencies);
  let count = 0;
  const startedAt = process.hrtime.bigint();
  const instance = autocannon({
    url: options.url.href,
    method: "POST",
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    pipelining: 1,
    timeout: REQUEST_TIMEOUT_S,
    ...(options.durationS === undefined ? {} : { duration: options.durationS }),
    ...(options.amount === undefined ? {} : { amount: options.amount }),
  });
  instance.on("response", (_client, statusCode, _bytes, responseTimeMs) => {
    if (statusCode >= 200 && statusCode < 300 && count < maxLatencies) latencies[count++] = responseTimeMs;
  });
  const result = await instance;
  const elapsedS = Number(process.hrtime.bigint() - startedAt) / 1e9;
  const seconds = result.duration > 0 ? result.duration : elapsedS;
  const latenciesMs = latencies.slice(0, count);
  return {
    requestsPerSecond: result["2xx"] / seconds,
    latencyMs: summarize(latencies.subarray(0, count)),
    latenciesMs,
    seconds,
    failures: result.non2xx + result.errors + result.timeouts,
    completed: result["2xx"],
  };
}

/**
 * Runs several loads against one server at the same time, each with its own headers (one
 * connection per session, say), and merges them as one run: every response over the longest
 * run's time, all latencies. The latency buffer is shared out between the runs.
 */
export async function runConcurrentLoads(options: readonly LoadOptions[]): Promise<LoadResult> {
  const maxLatencies = Math.floor(MAX_LATENCIES / Math.max(1, options.length));
  const runs = await Promise.all(options.map((run) => runLoad({ maxLatencies, ...run })));
  const merged = mergeLoads(runs);
  const seconds = Math.max(...runs.map((run) => run.seconds));
  return { ...merged, seconds, requestsPerSecond: merged.completed / seconds };
}

/** Several runs against one server as one: total responses over total time, all latencies. */
export function mergeLoads(runs: readonly LoadResult[]): LoadResult {
  const total = runs.reduce((sum, run) => sum + run.latenciesMs.length, 0);
  const latenciesMs = new Float64Array(total);
  let offset = 0;
  for (const run of runs) {
    latenciesMs.set(run.latenciesMs, offset);
    offset += run.latenciesMs.length;
  }
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  const completed = runs.reduce((sum, run) => sum + run.completed, 0);
  return {
    requestsPerSecond: completed / seconds,
    latencyMs: summarize(latenciesMs.slice()),
    latenciesMs,
    seconds,
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
    completed,
  };
}
