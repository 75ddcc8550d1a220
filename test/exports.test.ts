/**
 * The public surface, pinned: every entry point of each package's `exports` (the SDK `tsmcp`, the
 * command `tsmcp-cli` and the Redis state stores `tsmcp-redis`), with the names it exports (values
 * and types) in sorted order, is compared with `test/__snapshots__/exports.txt`, so an export added or removed by accident is a visible diff. After a deliberate change, update
 * the file with `npx vitest run test/exports.test.ts -u`.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

interface PackageJson {
  name: string;
  /**
   * `import` and `default` (the same file, for `require()` of ES modules) for every entry; `node`
   * and `default` for tsmcp/stdio, which is Node-only.
   */
  exports: Record<string, { types: string; import?: string; node?: string; default?: string }>;
}

/** The published packages of the repository, by folder under packages/. */
const PACKAGES = ["tsmcp", "tsmcp-cli", "tsmcp-redis"] as const;

const manifests = PACKAGES.map((folder) => ({
  folder,
  pkg: JSON.parse(readFileSync(resolve(repo, "packages", folder, "package.json"), "utf8")) as PackageJson,
}));
/** The SDK's manifest. */
const pkg = (manifests[0] as { pkg: PackageJson }).pkg;

/**
 * The source module of a built entry, from the repository root:
 * `./dist/server/index.js` in packages/tsmcp -> `packages/tsmcp/src/server/index.ts`.
 */
function sourceOf(folder: string, built: string | undefined): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(built ?? "");
  if (match === null) throw new Error(`unexpected export target ${built}`);
  return `packages/${folder}/src/${match[1]}.ts`;
}

/** Each subpath of every package (`tsmcp/server`, `tsmcp-cli`) with its source module. */
const ENTRIES = manifests.flatMap(({ folder, pkg: manifest }) =>
  Object.entries(manifest.exports).map(([subpath, target]) => ({
    specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
    source: sourceOf(folder, target.import ?? target.node),
  })),
);

/** The exported names of each entry, `type ` before the ones that are only types. */
function exportedNames(): Record<string, string[]> {
  const config = ts.readConfigFile(resolve(repo, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
  const files = ENTRIES.map((entry) => resolve(repo, entry.source));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  const surface: Record<string, string[]> = {};
  for (const [index, entry] of ENTRIES.entries()) {
    const file = program.getSourceFile(files[index] as string);
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`cannot read the module ${entry.source}`);
    surface[entry.specifier] = checker
      .getExportsOfModule(module)
      .map((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return target.flags & ts.SymbolFlags.Value ? symbol.name : `type ${symbol.name}`;
      })
      .sort((a, b) => a.replace(/^type /, "").localeCompare(b.replace(/^type /, ""), "en"));
  }
  return surface;
}

describe("the public surface", () => {
  it("every package.json export has a tsconfig path to the same source", () => {
    const config = ts.readConfigFile(resolve(repo, "tsconfig.json"), ts.sys.readFile);
    const paths = config.config.compilerOptions.paths as Record<string, string[]>;
    for (const entry of ENTRIES)
      expect(paths[entry.specifier], entry.specifier).toEqual([`./${entry.source}`]);
    expect(Object.keys(paths).sort()).toEqual(ENTRIES.map((entry) => entry.specifier).sort());
  });

  it("tsmcp/stdio is the real entry under the node condition, a stand-in elsewhere; types either way", () => {
    expect(pkg.exports["./stdio"]).toEqual({
      types: "./dist/stdio/index.d.ts",
      node: "./dist/stdio/index.js",
      default: "./dist/stdio/unsupported.js",
    });
    const others = manifests.flatMap(({ pkg: manifest }) =>
      Object.entries(manifest.exports).filter(
        ([subpath]) => manifest.name !== "tsmcp" || subpath !== "./stdio",
      ),
    );
    for (const [, target] of others) {
      // `types` first (TypeScript takes the first condition that matches), `default` last: it is
      // what `require()` resolves to on Node versions that load ES modules from require (20.19+).
      expect(Object.keys(target)).toEqual(["types", "import", "default"]);
      expect(target.default).toBe(target.import);
    }
  });

  it("exports exactly the pinned names from every entry point", async () => {
    const surface = exportedNames();
    const text = Object.entries(surface)
      .map(([specifier, names]) => `${specifier}\n${names.map((name) => `  ${name}`).join("\n")}\n`)
      .join("\n");
    await expect(text).toMatchFileSnapshot("__snapshots__/exports.txt");
  });

  it("keeps the one-channel type plumbing out of tsmcp/server", () => {
    const server = exportedNames()["tsmcp/server"] ?? [];
    expect(server).not.toContain("type NotInputRequiredTag");
    expect(server).not.toContain("type SettledNotInputRequired");
    expect(server).toContain("type WithoutInputRequired");
  });
});
