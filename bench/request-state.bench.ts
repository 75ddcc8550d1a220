/**
 * How long sealing and opening one round's requestState takes through the policy: the claims
 * envelope plus the built-in AES-256-GCM codec, exactly the work the boundary does per round
 * (the request binding is computed once, outside the timed region). Reports the median and p90
 * microseconds per operation for a 1 KiB and a 16 KiB plaintext state.
 *
 * Run: npx tsx bench/request-state.bench.ts
 */
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import { requestBinding } from "../src/server/state/claims.js";
import { RequestStateSecurity } from "../src/server/state/policy.js";
import { openRequestState, type RequestStateScope, sealRequestState } from "../src/server/state/sealing.js";

const WARMUP_OPS = 5_000;
const SAMPLES = 50_000;
const TARGET_1KIB_US = 20;

function percentile(sortedUs: Float64Array, fraction: number): number {
  return sortedUs[Math.min(sortedUs.length - 1, Math.floor(sortedUs.length * fraction))]!;
}

function measure(operation: () => void): { medianUs: number; p90Us: number } {
  for (let i = 0; i < WARMUP_OPS; i++) operation();
  const samplesUs = new Float64Array(SAMPLES);
  for (let i = 0; i < SAMPLES; i++) {
    const start = process.hrtime.bigint();
    operation();
    samplesUs[i] = Number(process.hrtime.bigint() - start) / 1_000;
  }
  samplesUs.sort();
  return { medianUs: percentile(samplesUs, 0.5), p90Us: percentile(samplesUs, 0.9) };
}

const policy = new RequestStateSecurity({ keys: [randomBytes(32)] });
const unbound: RequestStateScope = {
  binding: requestBinding("tools/call", {
    name: "provision",
    arguments: { name: "orders", region: "eu-west-1" },
  }),
  audience: "Provisioner",
  principal: () => undefined,
};
const bound: RequestStateScope = {
  ...unbound,
  principal: () => '["client-123","https://as.example","alice"]',
};

const rows: { case: string; op: string; medianUs: number; p90Us: number }[] = [];
for (const [label, sizeBytes, scope] of [
  ["1 KiB", 1024, unbound],
  ["16 KiB", 16 * 1024, unbound],
  ["1 KiB, principal-bound", 1024, bound],
] as const) {
  const state = randomBytes(sizeBytes).toString("base64url").slice(0, sizeBytes);
  const token = sealRequestState(policy, state, scope);
  if (openRequestState(policy, token, scope) !== state) throw new Error("round trip failed");
  rows.push({ case: label, op: "seal", ...measure(() => sealRequestState(policy, state, scope)) });
  rows.push({ case: label, op: "open", ...measure(() => openRequestState(policy, token, scope)) });
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
const worst1KiB = Math.max(...rows.filter((row) => row.case === "1 KiB").map((row) => row.medianUs));
console.log(
  `\n1 KiB target: median under ${TARGET_1KIB_US} us — ${worst1KiB < TARGET_1KIB_US ? "met" : "MISSED"} (${worst1KiB.toFixed(1)} us)`,
);
