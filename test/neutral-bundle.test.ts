/**
 * The runtime-neutral entry points stay neutral: `tsmcp/server`, `tsmcp/client`, `tsmcp/types` and
 * `tsmcp/transport` are bundled with esbuild for `platform: "neutral"` and `"browser"`, their
 * dependencies included, and the bundle may import no Node.js built-in (`node:*` or a bare `fs`,
 * `http`, ...). The one exception is written down below: requestState sealing in tsmcp/server uses
 * `node:crypto` (and `node:buffer`), which Bun, Deno and workerd's Node compatibility all provide.
 * `tsmcp/client` reaches stdio only through `import("tsmcp/stdio")`, a dynamic self-reference left
 * external (as the package build leaves it), so it is loaded on Node when a command is the target.
 */
import { builtinModules } from "node:module";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const NEUTRAL_ENTRIES = {
  "tsmcp/server": "src/server/index.ts",
  "tsmcp/client": "src/client/index.ts",
  "tsmcp/types": "src/protocol/index.ts",
  "tsmcp/transport": "src/transport/index.ts",
} as const;

type Entry = keyof typeof NEUTRAL_ENTRIES;

/** The Node built-ins an entry may import, and why. Anything else fails. */
const ALLOWED_BUILTINS: Record<Entry, readonly string[]> = {
  // Sealing requestState: AES-256-GCM, SHA-256, random bytes and a UTF-8 check, synchronously.
  "tsmcp/server": ["node:buffer", "node:crypto"],
  "tsmcp/client": [],
  "tsmcp/types": [],
  "tsmcp/transport": [],
};

/** Package entries a neutral bundle may name without containing them: loaded on demand. */
const LAZY_ENTRIES = ["tsmcp/stdio"];

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** A Node built-in by any spelling: `node:fs`, `fs`, `fs/promises`. */
function isBuiltin(specifier: string): boolean {
  if (specifier.startsWith("node:")) return true;
  return BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0] as string);
}

interface BundleImports {
  /** Node built-ins imported anywhere in the bundle, as `node:<name>`, sorted. */
  readonly builtins: string[];
  /** Lazy package entries, with how they are imported. */
  readonly lazy: { path: string; kind: string }[];
}

/**
 * Bundles `entry` for `platform` and reports what it imports from outside: every Node built-in is
 * recorded (and left external so the build goes on), every lazy entry too.
 */
async function bundleImports(
  entry: string,
  platform: "neutral" | "browser",
  extraPlugins: Plugin[] = [],
): Promise<BundleImports> {
  const builtins = new Set<string>();
  const spy: Plugin = {
    name: "node-builtins",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (LAZY_ENTRIES.includes(args.path)) return { path: args.path, external: true };
        if (!isBuiltin(args.path)) return undefined;
        builtins.add(args.path.startsWith("node:") ? args.path : `node:${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    absWorkingDir: repo,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform,
    mainFields: ["module", "main"],
    metafile: true,
    logLevel: "silent",
    plugins: [...extraPlugins, spy],
  });
  const lazy = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((i) => LAZY_ENTRIES.includes(i.path)).map((i) => ({ path: i.path, kind: i.kind })),
  );
  return { builtins: [...builtins].sort(), lazy };
}

/** Appends `code` to the source of the module at `file` (relative to the repo) as it is loaded. */
function appendTo(file: string, code: string): Plugin {
  const target = resolve(repo, file);
  return {
    name: "append",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path !== target) return undefined;
        const { readFile } = await import("node:fs/promises");
        return { contents: `${await readFile(target, "utf8")}\n${code}\n`, loader: "ts" };
      });
    },
  };
}

describe("the runtime-neutral entry points", () => {
  for (const platform of ["neutral", "browser"] as const) {
    for (const [name, entry] of Object.entries(NEUTRAL_ENTRIES) as [Entry, string][]) {
      it(`${name} bundles for platform "${platform}" with no Node built-in beyond its listed exceptions`, async () => {
        const { builtins } = await bundleImports(entry, platform);
        expect(builtins).toEqual(ALLOWED_BUILTINS[name]);
      });
    }
  }

  it("tsmcp/client names tsmcp/stdio only in a dynamic import", async () => {
    const { lazy } = await bundleImports(NEUTRAL_ENTRIES["tsmcp/client"], "neutral");
    expect(lazy).toEqual([{ path: "tsmcp/stdio", kind: "dynamic-import" }]);
  });

  it("tsmcp/server, tsmcp/types and tsmcp/transport do not name tsmcp/stdio at all", async () => {
    for (const name of ["tsmcp/server", "tsmcp/types", "tsmcp/transport"] as const) {
      const entry = NEUTRAL_ENTRIES[name];
      expect((await bundleImports(entry, "neutral")).lazy).toEqual([]);
    }
  });

  it('catches a neutral module that imports "node:http" or a bare "fs"', async () => {
    const http = await bundleImports(NEUTRAL_ENTRIES["tsmcp/client"], "neutral", [
      appendTo("src/protocol/versions.ts", 'import "node:http";'),
    ]);
    expect(http.builtins).toEqual(["node:http"]);
    const fs = await bundleImports(NEUTRAL_ENTRIES["tsmcp/types"], "browser", [
      appendTo(
        "src/protocol/jsonrpc.ts",
        'import { readFileSync } from "fs"; export const read = readFileSync;',
      ),
    ]);
    expect(fs.builtins).toEqual(["node:fs"]);
  });
});
