/**
 * The minified bundle size of a minimal edge server (`MCPServer`, one zod tool, the web-standard
 * handler) next to the official SDK 2.4.0's equivalent, as an edge user's bundler builds it:
 * esbuild, `--bundle --minify --platform=neutral --format=esm`, from the packages' public entries
 * (tsmcp from its build, `dist/`). For each entry it prints the raw and gzip bytes of the one-file
 * bundle and, bundled with `--splitting`, of the entry chunk alone (what loads before any lazy
 * `import()`), and which of the optional engines (ajv, @cfworker/json-schema, re2js, jose,
 * oauth4webapi) each contains.
 *
 * Usage: npx tsx bench/bundle-size/run.ts [--json]
 *   (needs `npm run build` first: tsmcp is bundled from `dist/`, as a user's bundler sees it)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { type BuildOptions, build, type Metafile } from "esbuild";

/** The packages a minimal server should not need, as they appear in a bundle's input paths. */
export const OPTIONAL_ENGINES = ["ajv", "@cfworker/json-schema", "re2js", "jose", "oauth4webapi"] as const;

const ENTRIES: Readonly<Record<string, string>> = {
  "tsmcp (zod tool)": "tsmcp.mjs",
  "tsmcp (raw JSON Schema tool)": "tsmcp-raw-schema.mjs",
  "official 2.4.0 (zod tool)": "official.mjs",
};

/** The size of one bundle. */
export interface BundleFigures {
  readonly raw: number;
  readonly gzip: number;
}

/** What one entry bundles to. */
export interface BundleReport {
  readonly name: string;
  /** The whole server as one file. */
  readonly single: BundleFigures;
  /** With `--splitting`: the entry chunk, loaded before any lazy `import()`. */
  readonly entryChunk: BundleFigures;
  /** With `--splitting`: every chunk together. */
  readonly allChunks: BundleFigures;
  /** Which optional engines the one-file bundle contains. */
  readonly engines: readonly string[];
}

function sizes(code: Uint8Array): BundleFigures {
  return { raw: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

function enginesIn(metafile: Metafile): string[] {
  const inputs = Object.keys(metafile.inputs);
  return OPTIONAL_ENGINES.filter((name) => inputs.some((path) => path.includes(`node_modules/${name}/`)));
}

const COMMON: BuildOptions = {
  bundle: true,
  minify: true,
  platform: "neutral",
  format: "esm",
  // neutral resolves no `main` field by default; these packages name their ESM in `module`/`main`.
  mainFields: ["module", "main"],
  // The web-standard runtimes provide `node:` built-ins (Workers with `nodejs_compat`, Deno, Bun).
  external: ["node:*"],
  metafile: true,
  logLevel: "error",
};

/** Bundles one entry both ways and measures it. */
export async function measureEntry(name: string, entry: string): Promise<BundleReport> {
  const out = mkdtempSync(join(tmpdir(), "tsmcp-bundle-"));
  try {
    const single = await build({ ...COMMON, entryPoints: [entry], outfile: join(out, "single.js") });
    const split = await build({
      ...COMMON,
      entryPoints: { entry },
      outdir: join(out, "split"),
      splitting: true,
    });
    let total = { raw: 0, gzip: 0 };
    let entryChunk = total;
    for (const [path, output] of Object.entries(split.metafile?.outputs ?? {})) {
      if (!path.endsWith(".js")) continue;
      const figures = sizes(readFileSync(path));
      total = { raw: total.raw + figures.raw, gzip: total.gzip + figures.gzip };
      if (output.entryPoint !== undefined) entryChunk = figures;
    }
    return {
      name,
      single: sizes(readFileSync(join(out, "single.js"))),
      entryChunk,
      allChunks: total,
      engines: single.metafile === undefined ? [] : enginesIn(single.metafile),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function main(): Promise<void> {
  const dir = fileURLToPath(new URL("./entries/", import.meta.url));
  const reports: BundleReport[] = [];
  for (const [name, file] of Object.entries(ENTRIES)) reports.push(await measureEntry(name, join(dir, file)));
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(reports, null, 2));
    return;
  }
  const official = reports.find((report) => report.name.startsWith("official"));
  console.log(
    "| server | one file, raw | one file, gzip | x official (gzip) | split: entry chunk, gzip | split: all chunks, gzip | optional engines inside |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const report of reports) {
    const ratio = official === undefined ? "" : (report.single.gzip / official.single.gzip).toFixed(2);
    console.log(
      `| ${report.name} | ${kib(report.single.raw)} | ${kib(report.single.gzip)} | ${ratio} | ` +
        `${kib(report.entryChunk.gzip)} | ${kib(report.allChunks.gzip)} | ${report.engines.join(", ") || "none"} |`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
