/**
 * tsmcp/testing works under `node:test` as under vitest: the same suite, run by `node --test` in a
 * child process, passes every case.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { HARNESS_CASES } from "../../packages/tsmcp/src/testing/suite-test-fixtures.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

it("passes every case of the harness suite under node:test", async () => {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--test", "--test-reporter=tap", "test/testing/node-test-harness.ts"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  expect(out).toMatch(new RegExp(`^# pass ${HARNESS_CASES.length}$`, "m"));
  expect(out).toMatch(/^# fail 0$/m);
  expect(code).toBe(0);
}, 120_000);
