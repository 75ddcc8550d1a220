/**
 * The harness's own suite under `node:test`: the very cases vitest runs
 * (packages/tsmcp/src/testing/harness.test.ts). Run: `node --import tsx --test test/testing/node-test-harness.ts`.
 */
import { test } from "node:test";
import { HARNESS_CASES } from "../../packages/tsmcp/src/testing/suite-test-fixtures.js";

for (const { name, run } of HARNESS_CASES) test(name, run);
