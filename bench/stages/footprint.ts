/**
 * Scope item 6: install footprint of each SDK's server package, counted from this repository's
 * `node_modules` tree (no network):
 *
 * - runtime dependencies: the transitive closure of `dependencies` and `optionalDependencies`,
 *   resolved the way Node resolves them from each package's directory, each installed package
 *   counted once;
 * - installed bytes: the package's own files plus every dependency's directory (apparent file
 *   sizes; a nested `node_modules` is counted as the packages inside it, not twice).
 *
 * tsmcp's own files are what `npm pack` would publish (`npm pack --dry-run --json`, its
 * `unpackedSize`, from the built `dist/`; built first with `npm run build` when `dist/` is missing).
 * The official server package's own files are its installed directory. tsmcp is one package (server,
 * client), so its dependencies include the client's.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** One package's footprint. */
export interface Footprint {
  readonly dependencies: readonly string[];
  readonly ownBytes: number;
  readonly installedBytes: number;
}

const REPO = fileURLToPath(new URL("../..", import.meta.url));

/** Longest a missing `dist/` may take to build. */
const BUILD_TIMEOUT_MS = 180_000;

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageJson;
}

/** The directory `name` resolves to from `fromDir`, walking up through `node_modules` folders. */
function resolvePackageDir(name: string, fromDir: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Apparent bytes of the files under `dir`, not descending into `node_modules`. */
function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directoryBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** The installed dependency directories of the package at `rootDir`, transitively. */
function dependencyClosure(rootDir: string): Map<string, string> {
  const found = new Map<string, string>();
  const queue = [rootDir];
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    const pkg = readPackage(dir);
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const resolved = resolvePackageDir(name, dir);
      if (resolved === undefined || found.has(resolved) || resolved === rootDir) continue;
      const dep = readPackage(resolved);
      found.set(resolved, `${dep.name}@${dep.version}`);
      queue.push(resolved);
    }
  }
  return found;
}

function footprint(rootDir: string, ownBytes: number): Footprint {
  const closure = dependencyClosure(rootDir);
  let installedBytes = ownBytes;
  for (const dir of closure.keys()) installedBytes += directoryBytes(dir);
  return { dependencies: [...closure.values()].sort(), ownBytes, installedBytes };
}

/** tsmcp's publishable bytes (`npm pack --dry-run`), building `dist/` first when it is missing. */
function tsmcpPackedBytes(log: (line: string) => void): number {
  if (!existsSync(join(REPO, "dist"))) {
    log("  dist/ is missing: building it (npm run build) to count the published files");
    execFileSync("npm", ["run", "build", "--silent"], {
      cwd: REPO,
      stdio: "ignore",
      timeout: BUILD_TIMEOUT_MS,
    });
  }
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
    timeout: 60_000,
  });
  const [packed] = JSON.parse(output) as { unpackedSize: number }[];
  if (packed === undefined) throw new Error("npm pack --dry-run printed nothing");
  return packed.unpackedSize;
}

/** Runs scope item 6. */
export function measureFootprint(log: (line: string) => void): { tsmcp: Footprint; official: Footprint } {
  const tsmcp = footprint(realpathSync(REPO), tsmcpPackedBytes(log));
  const officialDir = resolvePackageDir("@modelcontextprotocol/server", REPO);
  if (officialDir === undefined) throw new Error("@modelcontextprotocol/server is not installed (npm ci)");
  const official = footprint(officialDir, directoryBytes(officialDir));
  for (const [name, result] of [
    ["tsmcp", tsmcp],
    ["official", official],
  ] as const) {
    log(
      `  ${name.padEnd(8)} ${result.dependencies.length} runtime deps, ${(result.installedBytes / 1024).toFixed(0)} KiB ` +
        `installed (own ${(result.ownBytes / 1024).toFixed(0)} KiB): ${result.dependencies.join(", ")}`,
    );
  }
  return { tsmcp, official };
}
