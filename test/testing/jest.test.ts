/**
 * tsmcp/testing works under jest as under vitest and node:test: the same suite, bundled to one ES
 * module, run by jest (native ES modules) in a child process, passes every case.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { expect, it, onTestFinished } from "vitest";
import { HARNESS_CASES } from "../../packages/tsmcp/src/testing/suite-test-fixtures.js";
import { runNode } from "./run-child.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The jest test file: one `test` per case of the suite (jest's globals, no import of jest). */
const JEST_FILE = `import { HARNESS_CASES } from "./suite.mjs";
for (const { name, run } of HARNESS_CASES) test(name, run);
`;

it("passes every case of the harness suite under jest", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tsmcp-jest-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  await build({
    entryPoints: [join(ROOT, "packages/tsmcp/src/testing/suite-test-fixtures.ts")],
    outfile: join(dir, "suite.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "error",
  });
  await writeFile(join(dir, "harness.test.mjs"), JEST_FILE);
  const config = { rootDir: dir, testEnvironment: "node", transform: {}, testMatch: ["**/*.test.mjs"] };
  const { code, out } = await runNode(
    [
      "--experimental-vm-modules",
      join(ROOT, "node_modules/jest/bin/jest.js"),
      "--config",
      JSON.stringify(config),
      "--ci",
      "--colors=false",
    ],
    dir,
    { NO_COLOR: "1" },
  );
  expect(out).toMatch(
    new RegExp(`^Tests: +${HARNESS_CASES.length} passed, ${HARNESS_CASES.length} total$`, "m"),
  );
  expect(code).toBe(0);
}, 120_000);
