/**
 * tsmcp/testing works under `node:test` as under vitest: the same suite, run by `node --test` in a
 * child process, passes every case.
 */
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { HARNESS_CASES } from "../../packages/tsmcp/src/testing/suite-test-fixtures.js";
import { runNode } from "./run-child.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

it("passes every case of the harness suite under node:test", async () => {
  const { code, out } = await runNode(
    ["--import", "tsx", "--test", "--test-reporter=tap", "test/testing/node-test-harness.ts"],
    ROOT,
  );
  expect(out).toMatch(new RegExp(`^# pass ${HARNESS_CASES.length}$`, "m"));
  expect(out).toMatch(/^# fail 0$/m);
  expect(code).toBe(0);
}, 120_000);
