/**
 * Counts the public surface: for every entry of package.json `exports` (and the stand-in that
 * `tsmcp/stdio` resolves to outside Node.js), the names it exports; then how many distinct things
 * (declarations) those names stand for, the things exported under more than one name or path, and
 * the names that stand for more than one thing. Run with `npx tsx scripts/surface.ts`.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The SDK package, whose `exports` are the public entries. */
const sdk = resolve(repo, "packages/tsmcp");

interface Target {
  types: string;
  import?: string;
  node?: string;
  default?: string;
}

/** One exported name of one entry, and the declaration it stands for. */
export interface SurfaceName {
  entry: string;
  name: string;
  thing: ts.Symbol;
}

/** A built entry's source module: `./dist/server/index.js` -> `src/server/index.ts`. */
function sourceOf(built: string): string {
  const match = /^\.\/dist\/(.+)\.js$/.exec(built);
  if (match === null) throw new Error(`unexpected export target ${built}`);
  return `src/${match[1]}.ts`;
}

/** Every (entry, name, thing) of the package's public entries; stand-ins carry a ` (default)` suffix. */
export function surface(): SurfaceName[] {
  const pkg = JSON.parse(readFileSync(resolve(sdk, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, Target>;
  };
  const entries: { entry: string; source: string }[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const entry = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    const main = target.import ?? target.node;
    if (main === undefined) throw new Error(`no import or node target for ${subpath}`);
    entries.push({ entry, source: sourceOf(main) });
    if (target.default !== undefined && target.default !== main)
      entries.push({ entry: `${entry} (default)`, source: sourceOf(target.default) });
  }
  const config = ts.readConfigFile(resolve(repo, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, repo);
  const files = entries.map(({ source }) => resolve(sdk, source));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  const checker = program.getTypeChecker();
  return entries.flatMap(({ entry, source }, index) => {
    const file = program.getSourceFile(files[index] as string);
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    // An entry with no exports (`export {}`) has a module symbol with none; a missing file throws.
    if (file === undefined) throw new Error(`cannot read ${source}`);
    if (module === undefined) return [];
    return checker.getExportsOfModule(module).map((symbol) => ({
      entry,
      name: symbol.name,
      thing: symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol,
    }));
  });
}

/** The figures and the offenders of a surface. */
export function summarize(names: readonly SurfaceName[]) {
  const byThing = new Map<ts.Symbol, SurfaceName[]>();
  const byName = new Map<string, Set<ts.Symbol>>();
  for (const item of names) {
    byThing.set(item.thing, [...(byThing.get(item.thing) ?? []), item]);
    byName.set(item.name, (byName.get(item.name) ?? new Set()).add(item.thing));
  }
  // A stand-in entry repeats its real entry's names for other things, by design: counted apart.
  const standIn = (entry: string) => entry.endsWith(" (default)");
  const real = names.filter((item) => !standIn(item.entry));
  const realThings = new Set(real.map((item) => item.thing));
  const namesOfReal = new Map<string, Set<ts.Symbol>>();
  for (const item of real)
    namesOfReal.set(item.name, (namesOfReal.get(item.name) ?? new Set()).add(item.thing));
  return {
    exportedNames: real.length,
    distinctThings: realThings.size,
    standInNames: names.length - real.length,
    /** Things reachable under more than one path or name. */
    repeated: [...byThing.values()]
      .map((items) => items.filter((item) => !standIn(item.entry)))
      .filter((items) => items.length > 1)
      .map((items) => items.map(({ entry, name }) => `${entry}:${name}`)),
    /** Names that stand for more than one thing. */
    overloaded: [...namesOfReal.entries()].filter(([, things]) => things.size > 1).map(([name]) => name),
    byEntry: Object.fromEntries(
      [...new Set(names.map((item) => item.entry))].map((entry) => [
        entry,
        names.filter((item) => item.entry === entry).length,
      ]),
    ),
  };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const summary = summarize(surface());
  console.log(`exported names: ${summary.exportedNames}`);
  console.log(`distinct things: ${summary.distinctThings}`);
  console.log(`stand-in names (tsmcp/stdio outside Node.js): ${summary.standInNames}`);
  for (const [entry, count] of Object.entries(summary.byEntry)) console.log(`  ${entry}: ${count}`);
  console.log(`things under more than one path or name: ${summary.repeated.length}`);
  for (const items of summary.repeated) console.log(`  ${items.join("  ")}`);
  console.log(`names for more than one thing: ${summary.overloaded.length}`);
  for (const name of summary.overloaded) console.log(`  ${name}`);
}
