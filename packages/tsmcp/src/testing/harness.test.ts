import { describe, expect, it } from "vitest";
import * as z from "zod";
import { MCPServer } from "../server/mcp/server.js";
import { elicit } from "../server/resolve/elicit.js";
import { RequestStateSecurity } from "../server/state/policy.js";
import { expectSingleUse, HarnessAssertionError, testServer } from "./index.js";
import { HARNESS_CASES } from "./suite-test-fixtures.js";

describe("tsmcp/testing under vitest", () => {
  for (const { name, run } of HARNESS_CASES) it(name, run);

  it("has a case in each era for the scripts, and the requestState refusals", () => {
    expect(HARNESS_CASES.length).toBe(16);
  });

  it("fails expectSingleUse for a tool whose state opens twice", async () => {
    const mcp = new MCPServer("twice", {
      requestStateSecurity: new RequestStateSecurity({ keys: [new Uint8Array(32).fill(9)] }),
    });
    mcp.tool("go", {}, async (_args, ctx) => {
      await ctx.ask("go", elicit("Go?", z.object({ ok: z.boolean() })));
      return "went";
    });
    const t = testServer(mcp);
    const target = { method: "tools/call", name: "go" } as const;
    const first = (await t.firstRound(target)) as { requestState?: string };
    const leg = {
      inputResponses: { go: { action: "accept", content: { ok: true } } },
      requestState: String(first.requestState),
    } as const;
    await expect(expectSingleUse(t, target, leg)).rejects.toThrow(HarnessAssertionError);
  });
});
