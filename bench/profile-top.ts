/**
 * Reads a V8 CPU profile (`node --cpu-prof`, or `npm run bench -- --profile`, which profiles the
 * server children into `.bench-results/profiles/`) and prints where the busy (not idle) time went:
 * the top frames by self time, and self time summed per source file (per package for
 * `node_modules`). Module loading at startup shows up as `node:internal/modules/*` frames.
 *
 * Run: npx tsx bench/profile-top.ts <file.cpuprofile> [frames=25] [skipS=0]
 * (`skipS`: leave out the samples of the first seconds, a server child's start-up and module loading).
 */
import { readFileSync } from "node:fs";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame comes from: `pkg:<name>` for node_modules, the repo-relative path, or the url. */
function originOf(url: string): string {
  if (url === "") return "(native / V8)";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return `pkg:${rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const repo = url.indexOf("/work/main/");
  return repo >= 0 ? url.slice(repo + "/work/main/".length) : url;
}

function main(): void {
  const [file, framesArg, skipArg] = process.argv.slice(2);
  const skipUs = Number(skipArg ?? 0) * 1e6;
  if (file === undefined) throw new Error("usage: tsx bench/profile-top.ts <file.cpuprofile> [frames]");
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  let atUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    atUs += delta;
    if (atUs < skipUs) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
    totalUs += delta;
  });
  const byFrame = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    const key = `${frame.functionName || "(anonymous)"}  ${originOf(frame.url)}:${frame.lineNumber + 1}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + us);
    const origin = originOf(frame.url);
    if (frame.functionName !== "(idle)") byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + us);
  }
  const limit = Number(framesArg ?? 25);
  let idleUs = 0;
  for (const [id, us] of selfUs) if (byId.get(id)?.callFrame.functionName === "(idle)") idleUs += us;
  const busyUs = totalUs - idleUs;
  const print = (title: string, entries: Map<string, number>, count: number) => {
    console.log(`\n${title} (% of busy time)`);
    for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, count)) {
      if (key.startsWith("(idle)")) continue;
      console.log(`${((100 * us) / busyUs).toFixed(1).padStart(5)}%  ${key}`);
    }
  };
  console.log(
    `${file}: ${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s busy (not idle)`,
  );
  print(`top ${limit} frames by self time`, byFrame, limit);
  print("self time by source", byOrigin, 20);
}

main();
