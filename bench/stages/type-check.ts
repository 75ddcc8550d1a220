/**
 * Stage 12: what type-checking a server costs its author. In a temporary directory whose
 * `node_modules` is this repository's, it writes a server of N zod tools for tsmcp and the same
 * tools for the official SDK 2.4.0 (`bench/lib/type-check-fixture.ts`), and a floor (the same
 * schemas and handler bodies, each handler a function of its schema's output type, no SDK), each a
 * one-file strict
 * NodeNext project, and runs `tsc --noEmit --extendedDiagnostics` on each: check time (the median
 * of the rounds, the three taking turns; tsc's own "Check time" on a CPU clock, so that
 * other work on the machine does not count), type instantiations (deterministic) and memory. tsmcp's types are what a user gets: the built `dist/` declarations, through the
 * package's exports.
 *
 * It also counts what one resolver tool (`resolve: { answer: resolver(...elicit(...)) }`, a zod
 * input schema and a zod form) adds to a server of `resolverBase` plain tools, and what a second
 * one adds, against what two more plain tools add (instantiations).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FixtureSdk,
  type FixtureSpec,
  fixtureTsconfig,
  generateServerSource,
} from "../lib/type-check-fixture.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const TSC = join(REPO, "node_modules/typescript/bin/tsc");

/**
 * Runs tsc's command line in this process with its clock (`performance.now`, which tsc's
 * `--extendedDiagnostics` times read) set to the process's CPU time, user + system: the times it
 * prints are then CPU seconds, which other processes on a shared machine do not inflate.
 */
const CPU_CLOCK_TSC = [
  'const { performance } = require("node:perf_hooks");',
  "performance.now = () => { const usage = process.cpuUsage(); return (usage.user + usage.system) / 1000; };",
  "const tsc = process.argv[1];",
  "process.argv = [process.argv[0], tsc, ...process.argv.slice(2)];",
  "require(tsc);",
].join("\n");

/** Longest one `tsc` run may take. */
const TSC_TIMEOUT_MS = 300_000;

/** How stage 12 runs. */
export interface TypeCheckConfig {
  /** Tool counts of the generated servers. */
  readonly sizes: readonly number[];
  /** `tsc` runs per server (the check time is their median). */
  readonly rounds: number;
  /**
   * Plain tools of the server the resolver tools are added to; a multiple of 8, so that the two
   * resolver tools and the two plain tools they are compared with take the generator's first two
   * input schema shapes.
   */
  readonly resolverBase: number;
}

/** What `tsc --extendedDiagnostics` reported for one project. */
export interface TscDiagnostics {
  /** tsc's "Check time", in CPU seconds. */
  readonly checkS: number;
  readonly instantiations: number;
  readonly types: number;
  readonly memoryKiB: number;
}

/** One server's result: the median check time of the rounds, the counts, the largest memory. */
export interface TypeCheckCost {
  readonly checkS: number;
  readonly checkSamplesS: readonly number[];
  readonly instantiations: number;
  readonly types: number;
  readonly memoryKiB: number;
}

/** Stage 12's results. */
export interface TypeCheckResult {
  /** By tool count, then SDK. */
  readonly bySize: Map<number, Map<FixtureSdk, TypeCheckCost>>;
  /**
   * Instantiations added to tsmcp's base server (of `resolverBase` plain tools) by its first tool
   * with a resolver (the resolver types' one-time work included), by a second one, and by two
   * plain tools (the same input schemas as the two resolver tools').
   */
  readonly resolver: {
    readonly base: number;
    readonly firstResolverTool: number;
    readonly furtherResolverTool: number;
    readonly twoPlainTools: number;
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function field(output: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+([\\d.]+)`, "m").exec(output);
  if (match?.[1] === undefined) throw new Error(`tsc --extendedDiagnostics printed no ${name}:\n${output}`);
  return Number(match[1]);
}

/**
 * Runs `tsc -p dir --noEmit --extendedDiagnostics` on tsc's CPU clock (see `CPU_CLOCK_TSC`); throws
 * with its output when the project has errors.
 */
export function runTsc(dir: string): TscDiagnostics {
  let output: string;
  try {
    output = execFileSync(
      process.execPath,
      ["-e", CPU_CLOCK_TSC, TSC, "-p", dir, "--noEmit", "--extendedDiagnostics"],
      {
        encoding: "utf8",
        timeout: TSC_TIMEOUT_MS,
      },
    );
  } catch (error) {
    const out = (error as { stdout?: string }).stdout ?? "";
    throw new Error(`tsc failed on ${dir}:\n${out.slice(0, 4_000)}`);
  }
  return {
    checkS: field(output, "Check time"),
    instantiations: field(output, "Instantiations"),
    types: field(output, "Types"),
    memoryKiB: field(output, "Memory used"),
  };
}

/** Writes one fixture project under `root` and returns its directory. */
function writeProject(root: string, name: string, spec: FixtureSpec): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "server.ts"), generateServerSource(spec));
  writeFileSync(join(dir, "tsconfig.json"), fixtureTsconfig("server.ts"));
  return dir;
}

/** Runs stage 12. */
export function measureTypeCheck(config: TypeCheckConfig, log: (line: string) => void): TypeCheckResult {
  const root = mkdtempSync(join(tmpdir(), "tsmcp-type-check-"));
  try {
    symlinkSync(join(REPO, "node_modules"), join(root, "node_modules"), "dir");
    writeFileSync(join(root, "package.json"), '{ "type": "module", "private": true }\n');
    const bySize = new Map<number, Map<FixtureSdk, TypeCheckCost>>();
    for (const size of config.sizes) {
      const dirs = new Map<FixtureSdk, string>(
        (["tsmcp", "official", "floor"] as const).map((sdk) => [
          sdk,
          writeProject(root, `${sdk}-${size}`, { sdk, tools: size }),
        ]),
      );
      const runs = new Map<FixtureSdk, TscDiagnostics[]>([
        ["tsmcp", []],
        ["official", []],
        ["floor", []],
      ]);
      for (let round = 0; round < config.rounds; round++) {
        for (const [sdk, dir] of dirs) {
          const diagnostics = runTsc(dir);
          runs.get(sdk)?.push(diagnostics);
          log(
            `  ${size} tools, ${sdk}, round ${round + 1}: check ${diagnostics.checkS.toFixed(2)} s, ` +
              `${diagnostics.instantiations} instantiations, ${(diagnostics.memoryKiB / 1024).toFixed(0)} MiB`,
          );
        }
      }
      const bySdk = new Map<FixtureSdk, TypeCheckCost>();
      for (const [sdk, list] of runs) {
        const first = list[0];
        if (first === undefined) continue;
        const checkSamplesS = list.map((run) => run.checkS);
        bySdk.set(sdk, {
          checkS: median(checkSamplesS),
          checkSamplesS,
          instantiations: first.instantiations,
          types: first.types,
          memoryKiB: Math.max(...list.map((run) => run.memoryKiB)),
        });
      }
      bySize.set(size, bySdk);
    }
    const n = config.resolverBase;
    const count = (name: string, spec: FixtureSpec) => runTsc(writeProject(root, name, spec)).instantiations;
    const base = count("resolver-base", { sdk: "tsmcp", tools: n });
    const oneResolverTool = count("resolver-one", { sdk: "tsmcp", tools: n, resolverTools: 1 });
    const twoResolverTools = count("resolver-two", { sdk: "tsmcp", tools: n, resolverTools: 2 });
    const twoPlain = count("resolver-plain", { sdk: "tsmcp", tools: n + 2 });
    const resolver = {
      base,
      firstResolverTool: oneResolverTool - base,
      furtherResolverTool: twoResolverTools - oneResolverTool,
      twoPlainTools: twoPlain - base,
    };
    log(
      `  ${n} tools + 1 resolver tool: +${resolver.firstResolverTool} instantiations, a second: ` +
        `+${resolver.furtherResolverTool}; + 2 plain tools: +${resolver.twoPlainTools}`,
    );
    return { bySize, resolver };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
