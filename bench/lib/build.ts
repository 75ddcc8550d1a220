/**
 * The benchmarks measure tsmcp as a user runs it: the built package in `dist/`. This module says
 * whether the build is current (at least as new as every file in `src/`), builds it when it is not,
 * and gives each entry's module specifier: `dist/` when current, else the sources (through tsx,
 * which wraps every closure in a naming helper and costs about 10 us per HTTP request).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = new URL("../../", import.meta.url);
/** The SDK package, whose `dist/` the benchmarks load. */
const SDK = new URL("packages/tsmcp/", ROOT);

/** The newest modification time of a file under `dir`, in milliseconds (0 when there is none). */
function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

/** The entries the benchmarks load. */
const ENTRIES = ["server", "node", "client", "stdio"] as const;
type Entry = (typeof ENTRIES)[number];

/**
 * True when `dist/` holds a build, JavaScript and declarations (stage 12 checks against these), at
 * least as new as every source file. (The test run rebuilds only the JavaScript.)
 */
export function isBuildCurrent(): boolean {
  try {
    const builtMs = Math.min(
      ...ENTRIES.flatMap((entry) =>
        ["index.js", "index.d.ts"].map(
          (file) => statSync(fileURLToPath(new URL(`dist/${entry}/${file}`, SDK))).mtimeMs,
        ),
      ),
    );
    return builtMs >= newestMtimeMs(fileURLToPath(new URL("src/", SDK)));
  } catch {
    return false;
  }
}

/** Builds `dist/` (`npm run build`) unless it is current. */
export function ensureBuild(log: (line: string) => void): void {
  if (isBuildCurrent()) return;
  log("building dist/ (npm run build), so that tsmcp runs as a user installs it");
  execFileSync("npm", ["run", "build", "--silent"], { cwd: fileURLToPath(ROOT), stdio: "ignore" });
}

/** The absolute URL of an entry's module: the build when current, else the source. */
export function tsmcpEntry(entry: Entry): string {
  return new URL(isBuildCurrent() ? `dist/${entry}/index.js` : `src/${entry}/index.ts`, SDK).href;
}
