/**
 * The goals `npm run bench` judges its rows against: the targets of the HTTP hot path work, as
 * ratios to the floor or the official SDK, so that they hold on any machine; plus the absolute
 * seal + open budget, flat cost in the number of tools, zero heap per pending flow, and bounded
 * cost of invalid input. A goal's text says which way is better.
 */
import { type Goal, vsFloor, vsOfficial } from "./report.js";

/** Within this factor of each other, the costs with 1 and 50 tools count as flat. */
export const FLAT_TOLERANCE = 1.05;

/**
 * Heap growth per pending flow below which nothing is kept: the heap after GC of a warmed-up server
 * wanders by about +-150 KiB between reads (+-15 B over 10,000 flows), while the least a server could
 * keep per flow (its ~300-byte sealed state, or a map entry) is ten times this.
 */
export const ZERO_BYTES_NOISE = 32;

/** Plain `tools/call` throughput over HTTP (1 and 50 tools): at least 0.75x the floor's. */
export const throughputGoal: Goal = {
  text: ">= 0.75x floor",
  check: (row) => (vsFloor(row) ?? 0) >= 0.75,
};

/** Server CPU per plain call over HTTP: at most 1.35x the floor's. */
export const cpuPerRequestGoal: Goal = {
  text: "<= 1.35x floor",
  check: (row) => (vsFloor(row) ?? Infinity) <= 1.35,
};

/** p99 latency of the plain call over HTTP: at most 2x the floor's. */
export const p99Goal: Goal = { text: "<= 2x floor", check: (row) => (vsFloor(row) ?? Infinity) <= 2 };

/** Median MRTR flow with each SDK's own client: at most 0.45x the official SDK's. */
export const flowGoal: Goal = {
  text: "<= 0.45x official",
  check: (row) => (vsOfficial(row) ?? Infinity) <= 0.45,
};

/** Client CPU per MRTR flow, each SDK's own client: at most half the official client's. */
export const clientCpuGoal: Goal = {
  text: "<= 0.5x official",
  check: (row) => (vsOfficial(row) ?? Infinity) <= 0.5,
};

/** Per-request cost with 50 tools over that with 1 tool. */
export const flatGoal: Goal = {
  text: `tsmcp <= ${FLAT_TOLERANCE}x (flat)`,
  check: (row) => (row.tsmcp ?? Infinity) <= FLAT_TOLERANCE,
};

/** requestState seal + open of 1 KiB, in microseconds. */
export const sealGoal: Goal = { text: "tsmcp <= 10 us", check: (row) => (row.tsmcp ?? Infinity) <= 10 };

/** An invalid request may cost at most twice a valid one of the same shape. */
export const invalidInputGoal: Goal = { text: "tsmcp <= 2x", check: (row) => (row.tsmcp ?? Infinity) <= 2 };

/** Nothing kept per pending MRTR flow. */
export const memoryGoal: Goal = {
  text: `tsmcp 0 (within +-${ZERO_BYTES_NOISE} B of noise)`,
  check: (row) => Math.abs(row.tsmcp ?? Infinity) < ZERO_BYTES_NOISE,
};

/** Type-checking a server of zod tools (stage 12): at most half the official SDK's check time. */
export const typeCheckTimeGoal: Goal = {
  text: "<= 0.5x official",
  check: (row) => (vsOfficial(row) ?? Infinity) <= 0.5,
};

/** A resolver tool type-checks in no more instantiations than two plain tools (stage 12). */
export const resolverInstantiationsGoal: Goal = {
  text: "tsmcp <= 1x (no more)",
  check: (row) => (row.tsmcp ?? Infinity) <= 1,
};
