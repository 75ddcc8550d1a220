/**
 * The goals `npm run bench` judges its rows against: the targets of the performance work, as
 * ratios to the floor or the official SDK, so that they hold on any machine; plus the absolute
 * seal + open budget, flat cost in the number of tools, zero heap per pending flow, and bounded
 * cost of invalid input. A goal's text says which way is better; its verdict quotes the value it
 * judged.
 */
import { atLeast, atMost, type Goal, vsFloor, vsOfficial } from "./report.js";

/** Within this factor of each other, the costs with 1 and 50 tools count as flat. */
export const FLAT_TOLERANCE = 1.05;

/**
 * Heap growth per pending flow below which nothing is kept: the heap after GC of a warmed-up server
 * wanders by about +-150 KiB between reads (+-15 B over 10,000 flows), while the least a server could
 * keep per flow (its ~300-byte sealed state, or a map entry) is ten times this.
 */
export const ZERO_BYTES_NOISE = 32;

const tsmcpValue = (row: { readonly tsmcp?: number | undefined }) => row.tsmcp;

/** Plain `tools/call` throughput over HTTP at 2026-07-28 (1 and 50 tools): at least 0.75x the floor's. */
export const throughputGoal: Goal = atLeast(0.75, "floor", vsFloor);

/** Server CPU per plain call over HTTP at 2026-07-28: at most 1.35x the floor's. */
export const cpuPerRequestGoal: Goal = atMost(1.35, "floor", vsFloor);

/** p99 latency of the plain call over HTTP at 2026-07-28: at most 2x the floor's. */
export const p99Goal: Goal = atMost(2, "floor", vsFloor);

/** Throughput of the plain call on a 2025-11-25 session: at least half the floor's. */
export const sessionThroughputGoal: Goal = atLeast(0.5, "floor", vsFloor);

/** Server CPU per plain call on a 2025-11-25 session: at most twice the floor's. */
export const sessionCpuGoal: Goal = atMost(2, "floor", vsFloor);

/** Median MRTR flow with each SDK's own client: at most 0.45x the official SDK's. */
export const flowGoal: Goal = atMost(0.45, "official", vsOfficial);

/** Client CPU per MRTR flow, each SDK's own client: at most 0.35x the official client's. */
export const clientCpuGoal: Goal = atMost(0.35, "official", vsOfficial);

/** Per-request cost with 50 tools over that with 1 tool. */
export const flatGoal: Goal = {
  text: `tsmcp <= ${FLAT_TOLERANCE}x (flat)`,
  value: tsmcpValue,
  check: (value) => value <= FLAT_TOLERANCE,
  format: (value) => `${value.toFixed(2)}x`,
};

/** requestState seal + open of 1 KiB, in microseconds. */
export const sealGoal: Goal = {
  text: "tsmcp <= 10 us",
  value: tsmcpValue,
  check: (value) => value <= 10,
  format: (value) => `${value.toFixed(1)} us`,
};

/** An invalid request may cost at most twice a valid one of the same shape. */
export const invalidInputGoal: Goal = {
  text: "tsmcp <= 2x",
  value: tsmcpValue,
  check: (value) => value <= 2,
  format: (value) => `${value.toFixed(2)}x`,
};

/** Nothing kept per pending MRTR flow. */
export const memoryGoal: Goal = {
  text: `tsmcp 0 (within +-${ZERO_BYTES_NOISE} B of noise)`,
  value: tsmcpValue,
  check: (value) => Math.abs(value) < ZERO_BYTES_NOISE,
  format: (value) => `${value.toFixed(1)} B`,
};

/** Server CPU per plain `tools/call` over stdio (stage 11): at most 1.5x the floor's. */
export const stdioCpuGoal: Goal = atMost(1.5, "floor", vsFloor);

/** Type-checking a server of zod tools (stage 12): at most half the official SDK's check time. */
export const typeCheckTimeGoal: Goal = atMost(0.5, "official", vsOfficial);

/** A resolver tool type-checks in no more instantiations than two plain tools (stage 12). */
export const resolverInstantiationsGoal: Goal = {
  text: "tsmcp <= 1x (no more)",
  value: tsmcpValue,
  check: (value) => value <= 1,
  format: (value) => `${value.toFixed(2)}x`,
};
