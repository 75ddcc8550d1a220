/**
 * The runtime-neutral entry points stay neutral, as a user gets them: the package is built (the
 * tsup config of `npm run build`, without declarations) into a scratch `node_modules/tsmcp` with
 * this package.json, and `import ... from "tsmcp/server"` (`/client`, `/types`, `/transport`) is
 * bundled from there with esbuild for `platform: "neutral"` and `"browser"`: the package's own export
 * conditions decide what `tsmcp/stdio` is, and no specifier is marked external by hand. The bundle
 * may import no Node.js built-in (`node:*` or a bare `fs`, `http`, ...) beyond the one exception
 * written down below. `tsmcp/client` reaches stdio through `import("tsmcp/stdio")`, which outside
 * Node resolves to dist/stdio/unsupported.js (its exports throw) and on Node to the real entry.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { build as buildPackage, type Options } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import tsupConfig from "../packages/tsmcp/tsup.config.js";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The SDK package's folder: its tsup config, package.json and sources. */
const sdk = join(repo, "packages", "tsmcp");

const NEUTRAL_ENTRIES = [
  "tsmcp/server",
  "tsmcp/client",
  "tsmcp/client/auth",
  "tsmcp/state",
  "tsmcp/workers",
  "tsmcp/types",
  "tsmcp/transport",
  "tsmcp/skills",
  "tsmcp/testing",
] as const;

type Entry = (typeof NEUTRAL_ENTRIES)[number];

/** The Node built-ins an entry may import, and why. Anything else fails. */
const ALLOWED_BUILTINS: Record<Entry, readonly string[]> = {
  // Sealing requestState needs synchronous AES-256-GCM, HKDF and random bytes, which only
  // node:crypto offers (WebCrypto is asynchronous); Bun, Deno and workerd's Node compatibility
  // all provide it.
  "tsmcp/server": ["node:crypto"],
  "tsmcp/client": [],
  "tsmcp/client/auth": [],
  "tsmcp/state": [],
  "tsmcp/workers": [],
  "tsmcp/types": [],
  "tsmcp/transport": [],
  // SHA-256 through Web Crypto, YAML through the yaml package: nothing of Node's.
  "tsmcp/skills": [],
  "tsmcp/testing": [],
};

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** A Node built-in by any spelling: `node:fs`, `fs`, `fs/promises`. */
function isBuiltin(specifier: string): boolean {
  if (specifier.startsWith("node:")) return true;
  return BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0] as string);
}

/** A scratch install: `<root>/node_modules/tsmcp` holds package.json and the built dist/. */
interface Install {
  readonly root: string;
  readonly pkg: string;
}

const scratch: string[] = [];

/**
 * Builds the package into a scratch install. `exportsOverride` replaces entries of package.json's
 * `exports`; `plugins` run in the package build (to plant a fault in a source file).
 */
async function install(
  exportsOverride: Record<string, unknown> = {},
  plugins: Plugin[] = [],
): Promise<Install> {
  const root = await mkdtemp(join(tmpdir(), "tsmcp-bundle-"));
  scratch.push(root);
  const pkg = join(root, "node_modules", "tsmcp");
  const manifest = JSON.parse(await readFile(join(sdk, "package.json"), "utf8"));
  manifest.exports = { ...manifest.exports, ...exportsOverride };
  const config = tsupConfig as Options;
  await buildPackage({
    ...config,
    entry: Object.fromEntries(
      Object.entries(config.entry as Record<string, string>).map(([k, v]) => [k, join(sdk, v)]),
    ),
    config: false,
    // As the package's own build does (tsup keeps the package's dependencies external); run from
    // the repository root, tsup would read the root manifest and bundle them into dist/.
    external: [...((config.external as string[] | undefined) ?? []), ...Object.keys(manifest.dependencies)],
    dts: false,
    sourcemap: false,
    silent: true,
    outDir: join(pkg, "dist"),
    esbuildPlugins: plugins,
  });
  await writeFile(join(pkg, "package.json"), JSON.stringify(manifest));
  return { root, pkg };
}

interface BundleImports {
  /** Node built-ins imported anywhere in the bundle, as `node:<name>`, sorted. */
  readonly builtins: string[];
  /** The files of the package the bundle contains, relative to it (`dist/client/index.js`). */
  readonly inputs: string[];
}

/**
 * Bundles `import * from entry` as a user of the install would, for `platform`, and reports what
 * it imports from outside: every Node built-in is recorded (and left external so the build goes
 * on). The package's dependencies come from this repository's node_modules.
 */
async function bundleImports(
  at: Install,
  entry: string,
  platform: "neutral" | "browser" | "node",
): Promise<BundleImports> {
  const builtins = new Set<string>();
  const spy: Plugin = {
    name: "node-builtins",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        builtins.add(args.path.startsWith("node:") ? args.path : `node:${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    stdin: { contents: `export * from "${entry}";`, resolveDir: at.root, loader: "js" },
    absWorkingDir: at.root,
    nodePaths: [join(repo, "node_modules")],
    bundle: true,
    write: false,
    format: "esm",
    platform,
    mainFields: ["module", "main"],
    metafile: true,
    logLevel: "silent",
    plugins: [spy],
  });
  const prefix = "node_modules/tsmcp/";
  const inputs = Object.keys(result.metafile.inputs)
    .filter((path) => path.startsWith(prefix) && !/\/chunk-[^/]+\.js$/.test(path))
    .map((path) => path.slice(prefix.length))
    .sort();
  return { builtins: [...builtins].sort(), inputs };
}

/** Appends `code` to the source of the module at `file` (relative to the SDK package) as it is loaded. */
function appendTo(file: string, code: string): Plugin {
  const target = resolve(sdk, file);
  return {
    name: "append",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path !== target) return undefined;
        return { contents: `${await readFile(target, "utf8")}\n${code}\n`, loader: "ts" };
      });
    },
  };
}

let installed: Install;

beforeAll(async () => {
  installed = await install();
});

afterAll(async () => {
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("the runtime-neutral entry points, bundled from the built package", () => {
  for (const platform of ["neutral", "browser"] as const) {
    for (const name of NEUTRAL_ENTRIES) {
      it(`${name} bundles for platform "${platform}" with no Node built-in beyond its listed exceptions`, async () => {
        const { builtins } = await bundleImports(installed, name, platform);
        expect(builtins).toEqual(ALLOWED_BUILTINS[name]);
      });
    }
  }

  it('tsmcp/client bundles for "browser" with no plugin and no external at all', async () => {
    const result = await build({
      stdin: { contents: 'export { Client } from "tsmcp/client";', resolveDir: installed.root },
      nodePaths: [join(repo, "node_modules")],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      logLevel: "silent",
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]?.text).toContain("tsmcp/stdio needs Node.js");
  });

  it("tsmcp/client takes the throwing stdio stand-in outside Node, the real stdio entry on Node", async () => {
    for (const platform of ["neutral", "browser"] as const) {
      const { inputs } = await bundleImports(installed, "tsmcp/client", platform);
      expect(inputs).toEqual(["dist/client/index.js", "dist/stdio/unsupported.js"]);
    }
    const node = await bundleImports(installed, "tsmcp/client", "node");
    expect(node.inputs).toEqual(["dist/client/index.js", "dist/stdio/index.js"]);
    expect(node.builtins).toContain("node:child_process");
  });

  it("tsmcp/server, tsmcp/types and tsmcp/transport do not reach tsmcp/stdio at all", async () => {
    for (const name of ["tsmcp/server", "tsmcp/types", "tsmcp/transport"] as const) {
      const { inputs } = await bundleImports(installed, name, "browser");
      expect(inputs.filter((path) => path.startsWith("dist/stdio/"))).toEqual([]);
    }
  });

  it('catches a neutral module that imports "node:http" or a bare "fs"', async () => {
    // A used import: the package build (platform node) drops an unused one of a Node built-in.
    const http = await install({}, [
      appendTo(
        "src/protocol/versions.ts",
        'import { STATUS_CODES } from "node:http"; Object.assign(globalThis, { STATUS_CODES });',
      ),
    ]);
    expect((await bundleImports(http, "tsmcp/client", "neutral")).builtins).toEqual(["node:http"]);
    const fs = await install({}, [
      appendTo(
        "src/protocol/jsonrpc.ts",
        'import { readFileSync } from "fs"; Object.assign(globalThis, { readFileSync });',
      ),
    ]);
    expect((await bundleImports(fs, "tsmcp/types", "browser")).builtins).toEqual(["node:fs"]);
  });

  it("catches a tsmcp/stdio export without a non-Node condition (the client bundle reaches child_process)", async () => {
    const unconditional = await install({
      "./stdio": { types: "./dist/stdio/index.d.ts", import: "./dist/stdio/index.js" },
    });
    const { builtins } = await bundleImports(unconditional, "tsmcp/client", "browser");
    expect(builtins).toContain("node:child_process");
  });
});
