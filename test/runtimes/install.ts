/**
 * The JavaScript runtimes the edge tests run on, installed from the npm registry on first use into a
 * cache outside the repository (`$TSMCP_RUNTIMES_CACHE`, default `~/.cache/tsmcp/runtimes`), one
 * folder per pinned version, so `npm ci` stays as fast as before and later runs reuse the binaries.
 * Each npm package ships its binary in a platform package among its optional dependencies; the
 * binary is run directly, so no install script is needed (`--ignore-scripts`). The workerd binary is
 * run without Node.js (no wrangler, no miniflare), so no newer Node is needed either. Set
 * `TSMCP_SKIP_RUNTIMES=1` to skip these tests (each skip prints its reason); in CI (`CI` set to
 * anything but `false` or `0`) a runtime that is not there fails its test instead.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A runtime: its npm package, pinned, and where its platform package keeps the binary. */
interface RuntimePackage {
  readonly name: string;
  readonly version: string;
  /** The scope of its platform packages (`@oven/bun-linux-x64`, ...). */
  readonly scope: string;
  /** The binary's path inside its platform package. */
  readonly binary: string;
}

/** The pinned runtimes. */
export const RUNTIME_PACKAGES = {
  bun: { name: "bun", version: "1.4.5", scope: "@oven", binary: "bin/bun" },
  deno: { name: "deno", version: "2.9.6", scope: "@deno", binary: "deno" },
  workerd: { name: "workerd", version: "1.20261117.1", scope: "@cloudflare", binary: "bin/workerd" },
} as const satisfies Record<string, RuntimePackage>;

/** The name of a pinned runtime. */
export type RuntimeName = keyof typeof RUNTIME_PACKAGES;

/** A runtime ready to run (`binary`), or why it is not (`reason`). */
export type Runtime =
  | { readonly ok: true; readonly binary: string; readonly version: string }
  | { readonly ok: false; readonly reason: string };

const CACHE = process.env.TSMCP_RUNTIMES_CACHE ?? join(homedir(), ".cache", "tsmcp", "runtimes");
const INSTALL_TIMEOUT_MS = 180_000;

/**
 * npm's flags for the install: one quick retry. npm refuses a `fetch-retry-maxtimeout` below
 * `fetch-retry-mintimeout` (10 s by default), so both are given.
 */
export const NPM_INSTALL_FLAGS = [
  "--no-audit",
  "--no-fund",
  "--ignore-scripts",
  "--loglevel=error",
  "--fetch-retries=1",
  "--fetch-retry-mintimeout=1000",
  "--fetch-retry-maxtimeout=5000",
  "--save-exact",
] as const;

/** Whether `env` is a CI run, where a runtime that is not there fails instead of skipping. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "false" && value !== "0";
}

/**
 * What a test does with `runtime`: `run` it, `skip` with the reason printed, or (in CI) `fail`
 * with the reason, so a suite never passes there with its runtimes missing.
 */
export function runtimeVerdict(
  runtime: Runtime,
  env: NodeJS.ProcessEnv = process.env,
): "run" | "skip" | "fail" {
  if (runtime.ok) return "run";
  return isCi(env) ? "fail" : "skip";
}

function findBinary(folder: string, runtime: RuntimePackage): string | undefined {
  const scope = join(folder, "node_modules", runtime.scope);
  if (!existsSync(scope)) return undefined;
  for (const entry of readdirSync(scope)) {
    const candidate = join(scope, entry, runtime.binary);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

async function checkVersion(binary: string): Promise<void> {
  await run(binary, ["--version"], { timeout: 30_000 });
}

/**
 * Installs the pinned `name` into the cache unless it is there, and checks that its binary runs.
 * Never throws: a runtime that cannot be installed (no registry, no platform package for this
 * machine, `TSMCP_SKIP_RUNTIMES` set) comes back with the reason.
 */
export async function ensureRuntime(name: RuntimeName): Promise<Runtime> {
  const runtime: RuntimePackage = RUNTIME_PACKAGES[name];
  if (process.env.TSMCP_SKIP_RUNTIMES) return { ok: false, reason: "TSMCP_SKIP_RUNTIMES is set" };
  const folder = join(CACHE, `${runtime.name}@${runtime.version}`);
  try {
    let binary = findBinary(folder, runtime);
    if (binary === undefined) {
      // Install beside the cache and move into place, so concurrent runs never see half an install.
      await mkdir(CACHE, { recursive: true });
      const scratch = await mkdtemp(join(CACHE, `.${runtime.name}-`));
      try {
        await writeFile(join(scratch, "package.json"), '{"private":true}\n');
        await run("npm", ["install", ...NPM_INSTALL_FLAGS, `${runtime.name}@${runtime.version}`], {
          cwd: scratch,
          timeout: INSTALL_TIMEOUT_MS,
        });
        if (findBinary(scratch, runtime) === undefined) {
          return {
            ok: false,
            reason: `npm installed ${runtime.name} but no binary for ${process.platform}-${process.arch}`,
          };
        }
        await rename(scratch, folder).catch(() => undefined); // another run got there first
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
      binary = findBinary(folder, runtime);
      if (binary === undefined) return { ok: false, reason: `no ${runtime.name} binary in ${folder}` };
    }
    await checkVersion(binary);
    return { ok: true, binary, version: runtime.version };
  } catch (error) {
    const npmError = (error as { stderr?: string }).stderr
      ?.split("\n")
      .find((line) => line.includes("error"));
    const message = npmError ?? (error as Error).message.split("\n")[0] ?? String(error);
    return {
      ok: false,
      reason: `cannot install ${runtime.name}@${runtime.version} from the npm registry: ${message}`,
    };
  }
}
