#!/usr/bin/env node
// The `tsmcp` command. In a clone of the repository (src/ beside this folder, tsx installed as a
// devDependency) it runs the TypeScript sources through tsx, so `npx tsmcp` works right after
// `npm install` with no build and never runs stale output; in the published package, which ships
// dist/ only, it runs the built dist/cli/index.js.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = new URL("../src/cli/index.ts", import.meta.url);
const built = new URL("../dist/cli/index.js", import.meta.url);

async function load() {
  if (existsSync(source)) {
    try {
      const { register } = await import("tsx/esm/api");
      register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
      return await import(source.href);
    } catch (error) {
      if (!existsSync(built)) throw error;
    }
  }
  return import(built.href);
}

const { runCli } = await load();
process.exitCode = await runCli(process.argv.slice(2));
