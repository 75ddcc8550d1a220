/**
 * The package layering of DESIGN.md, enforced: imports flow protocol <- transport <- server | client
 * <- cli, and server and client never import each other.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

const ALLOWED: Record<string, string[]> = {
  protocol: ["protocol"],
  transport: ["protocol", "transport"],
  server: ["protocol", "transport", "server"],
  client: ["protocol", "transport", "client"],
  cli: ["protocol", "transport", "server", "client", "cli"],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !/[.-]test(-fixtures)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

function layerOf(file: string): string | undefined {
  const [top] = relative(root, file).split("/");
  return top !== undefined && top in ALLOWED ? top : undefined;
}

/** The wrong-way imports in `files` (paths under src/ with their text). */
function violations(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const layer = layerOf(path);
    if (layer === undefined) continue;
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.[^"']+)["']/g)) {
      const target = layerOf(resolve(dirname(path), match[1] as string));
      if (target !== undefined && !ALLOWED[layer]?.includes(target)) {
        found.push(`${relative(root, path)} (${layer}) imports ${match[1]} (${target})`);
      }
    }
  }
  return found;
}

describe("layering", () => {
  it("imports flow one way and server and client never import each other", () => {
    const files = sourceFiles(root).map((path) => ({ path, text: readFileSync(path, "utf8") }));
    expect(files.length).toBeGreaterThan(10);
    expect(violations(files)).toEqual([]);
  });

  it("catches a wrong-way import", () => {
    const wrong = [
      { path: join(root, "server/x.ts"), text: 'import { Client } from "../client/client.js";' },
      { path: join(root, "protocol/y.ts"), text: 'import type { Server } from "../server/server.js";' },
      { path: join(root, "transport/z.ts"), text: 'export * from "../protocol/index.js";' },
    ];
    expect(violations(wrong)).toHaveLength(2);
  });
});
