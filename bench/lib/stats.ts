/**
 * Sampling and summarising: run an operation a bounded number of times (and for a bounded time),
 * time each run with `process.hrtime.bigint()`, and report the median and tail.
 */

/** A summary of timed samples, in the unit they were recorded in. */
export interface Summary {
  readonly count: number;
  readonly median: number;
  readonly p90: number;
  readonly p99: number;
  readonly mean: number;
}

/** The value at `fraction` (0..1) of an ascending array (nearest rank). */
export function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(sorted.length * fraction) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

/** Summarises samples (the array is sorted in place). */
export function summarize(samples: Float64Array): Summary {
  samples.sort();
  let total = 0;
  for (const value of samples) total += value;
  return {
    count: samples.length,
    median: percentile(samples, 0.5),
    p90: percentile(samples, 0.9),
    p99: percentile(samples, 0.99),
    mean: samples.length === 0 ? Number.NaN : total / samples.length,
  };
}

/** Bounds of {@link sample}: warm-up runs, then at most `maxSamples` runs or `maxMs`, whichever ends first. */
export interface SampleBounds {
  readonly warmup: number;
  readonly maxSamples: number;
  readonly maxMs: number;
  /** Runs needed for a result; fewer (because `maxMs` ran out) is an error. Default 100. */
  readonly minSamples?: number;
}

/** Microseconds elapsed since `start` (from `process.hrtime.bigint()`). */
export function elapsedUs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1_000;
}

/**
 * Runs `operation` `bounds.warmup` times, then times each run until `maxSamples` runs or `maxMs`
 * milliseconds. Resolves with the per-run times in microseconds.
 *
 * @throws Error when fewer than `minSamples` runs fit in `maxMs`.
 */
export async function sample(
  operation: () => unknown | Promise<unknown>,
  bounds: SampleBounds,
): Promise<Summary> {
  for (let i = 0; i < bounds.warmup; i++) await operation();
  const samples = new Float64Array(bounds.maxSamples);
  const deadline = process.hrtime.bigint() + BigInt(bounds.maxMs) * 1_000_000n;
  let count = 0;
  while (count < bounds.maxSamples) {
    const start = process.hrtime.bigint();
    await operation();
    samples[count++] = elapsedUs(start);
    if (process.hrtime.bigint() > deadline) break;
  }
  if (count < (bounds.minSamples ?? 100)) {
    throw new Error(`only ${count} samples fit in ${bounds.maxMs} ms`);
  }
  return summarize(samples.subarray(0, count));
}

/** Like {@link sample}, for a synchronous operation (no `await` between runs). */
export function sampleSync(operation: () => unknown, bounds: SampleBounds): Summary {
  for (let i = 0; i < bounds.warmup; i++) operation();
  const samples = new Float64Array(bounds.maxSamples);
  const deadline = process.hrtime.bigint() + BigInt(bounds.maxMs) * 1_000_000n;
  let count = 0;
  while (count < bounds.maxSamples) {
    const start = process.hrtime.bigint();
    operation();
    samples[count++] = elapsedUs(start);
    if (process.hrtime.bigint() > deadline) break;
  }
  if (count < (bounds.minSamples ?? 100)) {
    throw new Error(`only ${count} samples fit in ${bounds.maxMs} ms`);
  }
  return summarize(samples.subarray(0, count));
}

/** Individually timed runs of one operation in blocks, for {@link sampleInterleaved}. */
const INTERLEAVE_BLOCK = 500;

/**
 * Times two or more operations the way {@link sample} does, but in alternating blocks of
 * {@link INTERLEAVE_BLOCK} runs, so that drift in machine load hits all of them alike: each is
 * warmed up, then blocks take turns until each has `maxSamples` runs or `maxMs` per operation has
 * passed. Resolves with one summary (microseconds) per operation, in order.
 *
 * @throws Error when an operation gets fewer than `minSamples` runs.
 */
export async function sampleInterleaved(
  operations: readonly (() => unknown | Promise<unknown>)[],
  bounds: SampleBounds,
): Promise<Summary[]> {
  for (const operation of operations) for (let i = 0; i < bounds.warmup; i++) await operation();
  const samples = operations.map(() => new Float64Array(bounds.maxSamples));
  const counts = operations.map(() => 0);
  const deadline = process.hrtime.bigint() + BigInt(bounds.maxMs * operations.length) * 1_000_000n;
  while (counts.some((count) => count < bounds.maxSamples) && process.hrtime.bigint() < deadline) {
    for (let index = 0; index < operations.length; index++) {
      const operation = operations[index] as () => unknown | Promise<unknown>;
      const into = samples[index] as Float64Array;
      for (let i = 0; i < INTERLEAVE_BLOCK && (counts[index] as number) < bounds.maxSamples; i++) {
        const start = process.hrtime.bigint();
        await operation();
        into[(counts[index] as number)++] = elapsedUs(start);
      }
    }
  }
  return samples.map((into, index) => {
    const count = counts[index] as number;
    if (count < (bounds.minSamples ?? 100))
      throw new Error(`only ${count} samples fit in ${bounds.maxMs} ms`);
    return summarize(into.subarray(0, count));
  });
}
