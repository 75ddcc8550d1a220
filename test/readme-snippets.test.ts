/**
 * The README's snippets come from files that run. A block marked `<!-- snippet: <path> -->` is that
 * file's text, word for word. A block marked `<!-- snippet-lines: <path> -->` is that file's code
 * as the README abridges it: its imports name what the file imports from the same modules, and
 * every other line, in order, ends a line of the file (so `return`, `export` and indentation may
 * differ). Every block of the "Frameworks and runtimes" and "Deploying" sections is marked; their
 * files run in `npm test` (`examples/frameworks.test.ts`, `test/runtimes/`) and `npm run
 * test:fleet`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${root}README.md`, "utf8");

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

/** The text of the level-2 section titled `title`, up to the next level-2 heading. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README has no "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

const IMPORT = /^import\s+(?:(\w+)|\{([^}]*)\}|\*\s+as\s+(\w+))\s+from\s+"([^"]+)";$/;

/** The names each module is imported under in `code`: `module -> names`. */
function imports(code: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  // Join multi-line named imports first.
  const joined = code.replace(/\{([^}]*)\}/g, (_all, names: string) => `{${names.replace(/\s+/g, " ")}}`);
  for (const line of joined.split("\n")) {
    const match = IMPORT.exec(line.trim());
    if (match === null) continue;
    const names = [match[1], match[3], ...(match[2]?.split(",") ?? [])]
      .map((name) => name?.replace(/^type\s+/, "").trim())
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
  for (const line of code.split("\n")) {
    const wanted = line.trim();
    if (wanted === "" || IMPORT.test(wanted)) continue;
    while (at < fileLines.length && !fileLines[at]?.endsWith(wanted)) at++;
    if (at === fileLines.length) return `no line, in order, ends with: ${wanted}`;
    at++;
  }
  return undefined;
}

describe("the README's snippets", () => {
  it("marked with a source are that file's text, word for word or abridged", () => {
    const marked = blocks(readme).filter((block) => block.source !== undefined);
    expect(marked.length).toBeGreaterThan(0);
    for (const { mode, source, code } of marked) {
      const file = readFileSync(`${root}${source}`, "utf8");
      if (mode === "snippet") {
        expect(file.includes(code), `README snippet not found in ${source}:\n${code}`).toBe(true);
      } else {
        expect(abridgementProblem(code, file), `README snippet vs ${source}:\n${code}`).toBeUndefined();
      }
    }
  });

  it("an abridged snippet that the file does not hold is caught", () => {
    const file = 'import { a, b } from "m";\n\nexport function f() {\n  return a(1);\n}\n';
    expect(abridgementProblem('import { a } from "m";\n\na(1);', file)).toBeUndefined();
    expect(abridgementProblem('import { c } from "m";\n\na(1);', file)).toMatch(/does not import c/);
    expect(abridgementProblem("a(2);", file)).toMatch(/ends with: a\(2\);/);
  });

  it("in the Deploying section all come from the files the fleet test runs", () => {
    const deploying = blocks(section("Deploying"));
    expect(deploying.map((block) => block.source)).toEqual([
      "examples/fleet/instance.ts",
      "examples/fleet/instance.ts",
      "examples/fleet/nginx.conf",
    ]);
  });

  it("in the Frameworks and runtimes section all come from tested examples", () => {
    const frameworks = blocks(section("Frameworks and runtimes"));
    expect(frameworks.length).toBeGreaterThan(0);
    for (const { source, code } of frameworks) {
      expect(source, `unmarked snippet:\n${code}`).toMatch(/^examples\//);
    }
  });
});
