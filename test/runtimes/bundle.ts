/**
 * What the edge runtimes load: the package built as `npm run build` builds it (tsup, no
 * declarations) into a scratch `node_modules/tsmcp`, and each program bundled from there with
 * esbuild into one ES module for a platform that is not Node.js: the package's export conditions
 * decide every `tsmcp/*` import, and only `node:*` built-ins stay imports (Bun and Deno provide
 * them, workerd with its `nodejs_compat` flag).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { build as buildPackage, type Options } from "tsup";
import tsupConfig from "../../packages/tsmcp/tsup.config.js";

/** The repository's root folder. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The SDK package's folder: its tsup config, package.json and sources. */
const SDK = join(REPO, "packages", "tsmcp");

/** A scratch folder holding the built package, where bundles are written. */
export interface Scratch {
  readonly root: string;
  /** Bundles `entry` (a path under the repo) for `conditions` into `<root>/<out>`; returns its path. */
  bundle(entry: string, out: string, conditions: readonly string[]): Promise<string>;
  remove(): Promise<void>;
}

/** Resolves every `tsmcp` import from the scratch install, never from the repository itself. */
function fromInstall(root: string): Plugin {
  return {
    name: "tsmcp-from-install",
    setup(build) {
      build.onResolve({ filter: /^tsmcp(\/|$)/ }, (args) =>
        args.pluginData === "scratch"
          ? undefined
          : build.resolve(args.path, { kind: args.kind, resolveDir: root, pluginData: "scratch" }),
      );
    },
  };
}

/** Builds the package into a new scratch folder. */
export async function buildScratchPackage(): Promise<Scratch> {
  const root = await mkdtemp(join(tmpdir(), "tsmcp-edge-"));
  const pkg = join(root, "node_modules", "tsmcp");
  const config = tsupConfig as Options;
  await buildPackage({
    ...config,
    entry: Object.fromEntries(
      Object.entries(config.entry as Record<string, string>).map(([k, v]) => [k, join(SDK, v)]),
    ),
    config: false,
    dts: false,
    sourcemap: false,
    silent: true,
    outDir: join(pkg, "dist"),
  });
  await mkdir(pkg, { recursive: true });
  await writeFile(join(pkg, "package.json"), await readFile(join(SDK, "package.json"), "utf8"));
  return {
    root,
    async bundle(entry, out, conditions) {
      const outfile = join(root, out);
      await build({
        entryPoints: [join(REPO, entry)],
        outfile,
        // `tsmcp/*` from the scratch install, its dependencies from the repository's node_modules.
        plugins: [fromInstall(root)],
        nodePaths: [join(REPO, "node_modules")],
        bundle: true,
        format: "esm",
        platform: "neutral",
        conditions: [...conditions],
        mainFields: ["module", "main"],
        external: ["node:*"],
        logLevel: "silent",
      });
      return outfile;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
