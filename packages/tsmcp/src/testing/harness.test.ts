import { describe, expect, it } from "vitest";
import { HARNESS_CASES } from "./suite-test-fixtures.js";

describe("tsmcp/testing under vitest", () => {
  for (const { name, run } of HARNESS_CASES) it(name, run);

  it("has a case in each era for the scripts, and the requestState refusals", () => {
    expect(HARNESS_CASES.length).toBe(16);
  });
});
