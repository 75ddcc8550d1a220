/**
 * The README's snippets marked `<!-- snippet: <path> -->` are text of that file, word for word, so
 * they run wherever the file runs; and every snippet of the "Deploying" section is marked (its
 * files run in `npm run test:fleet`).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(`${root}README.md`, "utf8");

/** Each fenced block of `text`, with the snippet marker on the line before it, if any. */
function blocks(text: string): { source: string | undefined; code: string }[] {
  const found: { source: string | undefined; code: string }[] = [];
  const pattern = /(?:<!-- snippet: (\S+) -->\n)?```[a-z]*\n([\s\S]*?)\n```/g;
  for (const match of text.matchAll(pattern)) found.push({ source: match[1], code: match[2]! });
  return found;
}

/** The text of the level-2 section titled `title`, up to the next level-2 heading. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`README has no "## ${title}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe("the README's snippets", () => {
  it("marked with a source are that file's text, word for word", () => {
    const marked = blocks(readme).filter((block) => block.source !== undefined);
    expect(marked.length).toBeGreaterThan(0);
    for (const { source, code } of marked) {
      const file = readFileSync(`${root}${source}`, "utf8");
      expect(file.includes(code), `README snippet not found in ${source}:\n${code}`).toBe(true);
    }
  });

  it("in the Deploying section all come from the files the fleet test runs", () => {
    const deploying = blocks(section("Deploying"));
    expect(deploying.map((block) => block.source)).toEqual([
      "examples/fleet/instance.ts",
      "examples/fleet/instance.ts",
      "examples/fleet/nginx.conf",
    ]);
  });
});
