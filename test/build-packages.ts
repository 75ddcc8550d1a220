/**
 * Vitest global setup: builds the JavaScript of both packages once per run (tsup, no
 * declarations), so the tests that spawn the `tsmcp` bin run the command as it ships, from the
 * current sources, without compiling TypeScript in every process they start.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const TSUP = require.resolve("tsup/dist/cli-default.js");

export default function setup(): void {
  for (const folder of ["tsmcp", "tsmcp-cli"]) {
    const cwd = fileURLToPath(new URL(`../packages/${folder}/`, import.meta.url));
    execFileSync(process.execPath, [TSUP, "--silent"], { cwd, stdio: ["ignore", "ignore", "inherit"] });
  }
}
