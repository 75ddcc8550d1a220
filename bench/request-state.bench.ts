/**
 * How long sealing and opening one round's requestState takes through the policy: the claims
 * envelope plus the built-in AES-256-GCM codec, exactly the work the boundary does per round
 * (the request binding is computed once, outside the timed region). Reports the median and p90
 * microseconds per operation for a 1 KiB and a 16 KiB plaintext state, and a principal-bound
 * 1 KiB state. `npm run bench` measures the same cases side by side with the official SDK's codec.
 *
 * Run: npx tsx bench/request-state.bench.ts
 */
import { cpus, loadavg } from "node:os";
import {
  openRequestState,
  type RequestStateScope,
  sealRequestState,
} from "../packages/tsmcp/src/server/state/sealing.js";
import {
  benchPolicy,
  PRINCIPAL_BOUND_SCOPE,
  plaintextState,
  STATE_SIZES,
  UNBOUND_SCOPE,
} from "./lib/request-state-cases.js";
import { sampleSync } from "./lib/stats.js";

const WARMUP_OPS = 5_000;
const SAMPLES = 50_000;
/** The goal for sealing plus opening a 1 KiB state (sum of the two medians), in microseconds. */
const TARGET_1KIB_ROUND_TRIP_US = 10;
const BOUNDS = { warmup: WARMUP_OPS, maxSamples: SAMPLES, maxMs: 60_000 };

const policy = benchPolicy();
const cases: (readonly [string, number, RequestStateScope])[] = [
  ...STATE_SIZES.map(([label, bytes]) => [label, bytes, UNBOUND_SCOPE] as const),
  ["1 KiB, principal-bound", 1024, PRINCIPAL_BOUND_SCOPE],
];

const rows: { case: string; op: string; medianUs: number; p90Us: number }[] = [];
for (const [label, sizeBytes, scope] of cases) {
  const state = plaintextState(sizeBytes);
  const token = sealRequestState(policy, state, scope);
  if (openRequestState(policy, token, scope) !== state) throw new Error("round trip failed");
  const seal = sampleSync(() => sealRequestState(policy, state, scope), BOUNDS);
  rows.push({ case: label, op: "seal", medianUs: seal.median, p90Us: seal.p90 });
  const open = sampleSync(() => openRequestState(policy, token, scope), BOUNDS);
  rows.push({ case: label, op: "open", medianUs: open.median, p90Us: open.p90 });
}

/** Milliseconds for a fixed 1e8-iteration integer loop: a rough yardstick of this machine's speed. */
function calibrationMs(): number {
  const start = process.hrtime.bigint();
  let sum = 0;
  for (let i = 0; i < 100_000_000; i++) sum += i & 7;
  if (sum < 0) throw new Error("unreachable");
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const [load1] = loadavg();
console.log(
  `requestState seal/open — ${cpus()[0]?.model ?? "unknown CPU"} x${cpus().length}, Node ${process.version}`,
);
console.log(`load average ${load1?.toFixed(2)}; 1e8-iteration integer loop ${calibrationMs().toFixed(0)} ms`);
console.log(`${SAMPLES} samples per row after ${WARMUP_OPS} warm-up operations\n`);
console.log("| state | operation | median (us) | p90 (us) |");
console.log("| --- | --- | ---: | ---: |");
for (const row of rows) {
  console.log(`| ${row.case} | ${row.op} | ${row.medianUs.toFixed(1)} | ${row.p90Us.toFixed(1)} |`);
}
const roundTrip1KiB = rows.filter((row) => row.case === "1 KiB").reduce((sum, row) => sum + row.medianUs, 0);
console.log(
  `\n1 KiB seal + open (sum of medians): ${roundTrip1KiB.toFixed(1)} us; goal <= ${TARGET_1KIB_ROUND_TRIP_US} us — ${roundTrip1KiB <= TARGET_1KIB_ROUND_TRIP_US ? "met" : "MISSED"}`,
);
