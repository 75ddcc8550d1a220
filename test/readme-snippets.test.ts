/**
 * The snippets of README.md, of the guides in docs/ and of each package's README come from files
 * that run. A block marked `<!-- snippet: <path> -->` is that file's text, word for word. A block marked
 * `<!-- snippet-lines: <path> -->` is that file's code as the page abridges it: its imports name
 * what the file imports from the same modules, and every other line, in order, ends a line of the
 * file (so `return`, `export` and indentation may differ). Every TypeScript block is marked, with a
 * file under examples/ that a test or the fleet run exercises; shell blocks may stay unmarked.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Every file under `dir` (relative to the root) whose name passes `keep`, skipping `skip` folders. */
function filesUnder(dir: string, keep: (name: string) => boolean, skip: readonly string[] = []): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!skip.includes(path) && entry.name !== "node_modules") found.push(...filesUnder(path, keep, skip));
    } else if (keep(entry.name)) {
      found.push(path);
    }
  }
  return found;
}

/**
 * The SDK's own npm page, whose one block names its entries' imports and quotes no example; the
 * README at the root is its full text.
 */
const SDK_NPM_PAGE = "packages/tsmcp/README.md";

/**
 * The pages whose snippets are checked: the README, every guide (not the generated reference) and
 * each other package's README.
 */
const pages = [
  "README.md",
  ...filesUnder("docs", (name) => name.endsWith(".md"), ["docs/api"]).sort(),
  ...readdirSync(join(root, "packages"))
    .map((folder) => `packages/${folder}/README.md`)
    .filter((page) => page !== SDK_NPM_PAGE && existsSync(join(root, page)))
    .sort(),
];

/** The text of a page. */
function read(page: string): string {
  return readFileSync(join(root, page), "utf8");
}

interface Block {
  readonly mode: "snippet" | "snippet-lines" | undefined;
  readonly source: string | undefined;
  readonly code: string;
}

/** Each fenced block of `text`, with the snippet marker on the line before it, if any. */
function blocks(text: string): Block[] {
  const found: Block[] = [];
  const pattern = /(?:<!-- (snippet|snippet-lines): (\S+) -->\n)?```[a-z]*\n([\s\S]*?)\n```/g;
  for (const match of text.matchAll(pattern)) {
    found.push({
      mode: match[1] as Block["mode"],
      source: match[2],
      code: match[3] ?? "",
    });
  }
  return found;
}

/** The text of the level-2 section titled `title` of `text`, up to the next level-2 heading. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`no "## ${title}" section`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end === -1 ? undefined : end);
}

/**
 * The files under examples/ that something runs: each one a test file or the fleet run imports
 * (relative `.js` specifiers) or names by its path.
 */
function exercisedExamples(): Set<string> {
  const runners = [
    ...filesUnder("test", (name) => name.endsWith(".ts")),
    ...filesUnder("examples", (name) => name.endsWith(".test.ts")),
  ];
  const exercised = new Set<string>();
  for (const runner of runners) {
    // A test under examples/ runs itself: a page may quote a test (docs/testing.md does).
    if (runner.startsWith("examples/")) exercised.add(runner);
    const text = read(runner);
    for (const match of text.matchAll(/from "(\.\.?\/[^"]+)\.js"/g)) {
      exercised.add(relative(root, resolve(root, dirname(runner), `${match[1]}.ts`)));
    }
    for (const match of text.matchAll(/examples\/[\w./-]+\.(?:ts|conf)/g)) exercised.add(match[0]);
    // A runner that names its examples by a pattern (`examples/edge/${name}.ts`) may run each one.
    for (const match of text.matchAll(/(examples\/[\w/-]+)\/\$\{\w+\}\.ts/g)) {
      for (const file of filesUnder(match[1] ?? "", (name) => name.endsWith(".ts"))) exercised.add(file);
    }
  }
  return exercised;
}

const IMPORT = /^import\s+(?:type\s+)?(?:(\w+)|\{([^}]*)\}|\*\s+as\s+(\w+))\s+from\s+"([^"]+)";$/;

/** The names each module is imported under in `code`: `module -> names`. */
function imports(code: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  // Join multi-line named imports first.
  const joined = code.replace(/\{([^}]*)\}/g, (_all, names: string) => `{${names.replace(/\s+/g, " ")}}`);
  for (const line of joined.split("\n")) {
    const match = IMPORT.exec(line.trim());
    if (match === null) continue;
    const names = [match[1], match[3], ...(match[2]?.split(",") ?? [])]
      .map((name) =>
        name
          ?.trim()
          .replace(/^type\s+/, "")
          .trim(),
      )
      .filter((name): name is string => name !== undefined && name !== "");
    const module = match[4] ?? "";
    const set = found.get(module) ?? new Set<string>();
    for (const name of names) set.add(name);
    found.set(module, set);
  }
  return found;
}

/** Why `code` is not an abridgement of `file`, or undefined when it is. */
function abridgementProblem(code: string, file: string): string | undefined {
  const fileImports = imports(file);
  for (const [module, names] of imports(code)) {
    for (const name of names) {
      if (!fileImports.get(module)?.has(name)) return `the file does not import ${name} from "${module}"`;
    }
  }
  const fileLines = file.split("\n").map((line) => line.trim());
  let at = 0;
  // Multi-line imports were checked above: join them so that their lines are skipped here.
  const joined = code.replace(/^import\s+(?:type\s+)?\{[^}]*\}[^;]*;$/gm, (all) => all.replace(/\s+/g, " "));
  for (const line of joined.split("\n")) {
    const wanted = line.trim();
    if (wanted === "" || IMPORT.test(wanted)) continue;
    while (at < fileLines.length && !fileLines[at]?.endsWith(wanted)) at++;
    if (at === fileLines.length) return `no line, in order, ends with: ${wanted}`;
    at++;
  }
  return undefined;
}

describe("the snippets of README.md and docs/", () => {
  const exercised = exercisedExamples();

  it.each(pages)("%s: each marked block is its file's text, word for word or abridged", (page) => {
    for (const { mode, source, code } of blocks(read(page))) {
      if (source === undefined) continue;
      const file = read(source);
      if (mode === "snippet") {
        expect(file.includes(code), `${page}: snippet not found in ${source}:\n${code}`).toBe(true);
      } else {
        expect(abridgementProblem(code, file), `${page}: snippet vs ${source}:\n${code}`).toBeUndefined();
      }
    }
  });

  it.each(pages)("%s: every TypeScript block is marked with an example that runs", (page) => {
    const text = read(page);
    for (const match of text.matchAll(
      /(?:<!-- (?:snippet|snippet-lines): (\S+) -->\n)?```(?:ts|typescript)\n/g,
    )) {
      const source = match[1];
      const line = text.slice(0, match.index).split("\n").length;
      expect(source, `${page}:${line}: a TypeScript block without a snippet marker`).toMatch(/^examples\//);
      expect(exercised.has(source ?? ""), `${page}:${line}: no test runs ${source}`).toBe(true);
    }
  });

  it("cover the README, the guides and the packages' READMEs, which quote examples", () => {
    expect(pages).toEqual(
      expect.arrayContaining([
        "README.md",
        "docs/server.md",
        "docs/client.md",
        "packages/tsmcp-redis/README.md",
      ]),
    );
    const quoted = pages
      .filter((page) => page !== "README.md")
      .flatMap((page) => blocks(read(page)))
      .filter((block) => block.source !== undefined);
    expect(quoted.length).toBeGreaterThan(10);
  });

  it("an abridged snippet that the file does not hold is caught", () => {
    const file = 'import { a, b } from "m";\n\nexport function f() {\n  return a(1);\n}\n';
    expect(abridgementProblem('import { a } from "m";\n\na(1);', file)).toBeUndefined();
    expect(abridgementProblem('import type { a } from "m";\n\na(1);', file)).toBeUndefined();
    expect(abridgementProblem('import {\n  a,\n  b,\n} from "m";\n\na(1);', file)).toBeUndefined();
    expect(abridgementProblem('import { c } from "m";\n\na(1);', file)).toMatch(/does not import c/);
    // A type-only name on its own line of the file's multi-line import is still that name.
    const typed = 'import {\n  type A,\n  b,\n} from "m";\n\nexport function f(): A {\n  return b(1);\n}\n';
    expect(abridgementProblem('import type { A } from "m";\n\nb(1);', typed)).toBeUndefined();
    expect(abridgementProblem("a(2);", file)).toMatch(/ends with: a\(2\);/);
  });

  it("an example counts as run only when a test or the fleet run reaches it", () => {
    expect(exercised.has("examples/docs/server.ts")).toBe(true);
    expect(exercised.has("examples/edge/bun.ts")).toBe(true);
    expect(exercised.has("examples/fleet/nginx.conf")).toBe(true);
    expect(exercised.has("examples/run.ts")).toBe(true); // spawned by path
  });

  it("in the deploying guide all come from the files the fleet test and the Workers test run", () => {
    const deploying = read("docs/deploying.md");
    expect(blocks(deploying).map((block) => block.source)).toEqual([
      "examples/fleet/instance.ts",
      "examples/fleet/instance.ts",
      "examples/fleet/nginx.conf",
      "examples/fleet/instance.ts",
      "examples/fleet/nginx-no-affinity.conf",
      "examples/fleet/instance.ts",
      "examples/edge/worker-sessions.ts",
      "examples/edge/wrangler.toml",
    ]);
    expect(blocks(section(deploying, "Behind a load balancer")).map((block) => block.source)).toEqual([
      "examples/fleet/nginx.conf",
    ]);
  });
});
