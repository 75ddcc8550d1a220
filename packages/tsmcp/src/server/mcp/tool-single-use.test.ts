/**
 * Single-use state: a tool declared `singleUse: true` runs each round a sealed `requestState`
 * carries at most once. A replay of a completed final round (the same `inputResponses` and
 * `requestState` sent again) is refused with the frozen -32602 and the handler does not run again;
 * without the opt-in nothing changes. Real clients, in memory and over Streamable HTTP.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { recordingLogger } from "../../../../../test/helpers/logs.js";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import type { ElicitResult, InputResponses } from "../../protocol/schema/input.js";
import { MemoryReplayCache } from "../../state/memory-replay-cache.js";
import type { ReplayCache } from "../../state/replay-cache.js";
import { elicit } from "../resolve/elicit.js";
import { resolver } from "../resolve/resolver.js";
import { RequestStateSecurity } from "../state/policy.js";
import { BOTH_TRANSPORTS, connect, textOf, type Via } from "./resolvers-test-fixtures.js";
import { MCPServer, type MCPServerOptions } from "./server.js";

const FROZEN = {
  code: -32602,
  message: "Invalid or expired requestState",
  data: { reason: "invalid_request_state" },
};
const Ok = z.object({ ok: z.boolean() });
const Amount = z.object({ cents: z.number() });

/** The line the server logs when it refuses a state whose round already ran. */
const REPLAYED = {
  level: "warn",
  message: "requestState rejected on tools/call: replayed",
  fields: { method: "tools/call", reason: "replayed" },
};

/**
 * `pay`: amount (asks) -> confirm (asks, needs amount) -> a side effect, counted. The server seals
 * with the fixed test key and logs to `logger`, unless `options` says otherwise.
 */
function payServer(singleUse: boolean | undefined, options: MCPServerOptions = {}) {
  const runs = { paid: 0 };
  const logger = recordingLogger();
  const amount = resolver("amount", () => elicit("How much?", Amount));
  const confirm = resolver("confirm", { needs: { amount } }, ({ needs }) =>
    elicit(`Pay ${needs.amount.cents} cents?`, Ok),
  );
  const mcp = new MCPServer("payments", {
    requestStateSecurity: testRequestStateSecurity(),
    logger,
    ...options,
  });
  mcp.tool(
    "pay",
    { resolve: { amount, confirm }, ...(singleUse === undefined ? {} : { singleUse }) },
    (_args, { resolved }) => {
      if (!resolved.confirm.ok) return "Not paid";
      runs.paid += 1;
      return `Paid ${resolved.amount.cents} cents`;
    },
  );
  return { mcp, runs, logger };
}

const amount: InputResponses = { amount: { action: "accept", content: { cents: 250 } } };
const yes: InputResponses = { confirm: { action: "accept", content: { ok: true } } };

async function handDriven(mcp: MCPServer, via: Via) {
  const client = await connect(mcp, via, { capabilities: { elicitation: {} } });
  const leg = (inputResponses?: InputResponses, requestState?: string) =>
    client.session.callTool(
      "pay",
      {},
      {
        allowInputRequired: true,
        ...(inputResponses === undefined ? {} : { inputResponses }),
        ...(requestState === undefined ? {} : { requestState }),
      },
    );
  const stateOf = (result: Awaited<ReturnType<typeof leg>>): string => {
    if (result.resultType !== "input_required" || result.requestState === undefined) {
      throw new Error("expected an input_required result with a requestState");
    }
    return result.requestState;
  };
  const first = stateOf(await leg());
  const second = stateOf(await leg(amount, first));
  return { leg, first, second };
}

describe.each(BOTH_TRANSPORTS)("a single-use tool, %s", (via) => {
  it("refuses a replay of its completed final round with the frozen -32602; the handler ran once", async () => {
    const { mcp, runs, logger } = payServer(true);
    const { leg, second } = await handDriven(mcp, via);
    expect(textOf((await leg(yes, second)) as { content: [] })).toBe("Paid 250 cents");
    await expect(leg(yes, second)).rejects.toMatchObject(FROZEN);
    expect(runs.paid).toBe(1);
    expect(logger.records).toEqual([REPLAYED]);
  });

  it("refuses an earlier round's state once it was used, so the call cannot be walked again", async () => {
    const { mcp, runs, logger } = payServer(true);
    const { leg, first, second } = await handDriven(mcp, via);
    await expect(leg(amount, first)).rejects.toMatchObject(FROZEN);
    expect(textOf((await leg(yes, second)) as { content: [] })).toBe("Paid 250 cents");
    expect(runs.paid).toBe(1);
    expect(logger.records).toEqual([REPLAYED]);
  });

  it("lets exactly one of two identical final rounds sent at once run", async () => {
    const { mcp, runs, logger } = payServer(true);
    const { leg, second } = await handDriven(mcp, via);
    const settled = await Promise.allSettled([leg(yes, second), leg(yes, second)]);
    expect(settled.filter((entry) => entry.status === "fulfilled")).toHaveLength(1);
    expect(settled.find((entry) => entry.status === "rejected")).toMatchObject({ reason: FROZEN });
    expect(runs.paid).toBe(1);
    expect(logger.records).toEqual([REPLAYED]);
  });

  it("runs the whole flow through the client's own loop unchanged", async () => {
    const { mcp, runs, logger } = payServer(true);
    const client = await connect(mcp, via, {
      elicitationCallback: (params): ElicitResult => ({
        action: "accept",
        content: params.message === "How much?" ? { cents: 99 } : { ok: true },
      }),
    });
    expect(textOf(await client.callTool("pay"))).toBe("Paid 99 cents");
    expect(runs.paid).toBe(1);
    expect(logger.records).toEqual([]);
  });
});

describe.each(BOTH_TRANSPORTS)("a tool without the opt-in, %s", (via) => {
  it("runs a replayed final round again, as before", async () => {
    const { mcp, runs, logger } = payServer(undefined);
    const { leg, second } = await handDriven(mcp, via);
    expect(textOf((await leg(yes, second)) as { content: [] })).toBe("Paid 250 cents");
    expect(textOf((await leg(yes, second)) as { content: [] })).toBe("Paid 250 cents");
    expect(runs.paid).toBe(2);
    expect(logger.records).toEqual([]);
  });
});

describe("the replay cache of single-use tools", () => {
  it("is shared by a fleet: a replay that reaches another instance is refused", async () => {
    const keys = ["k".repeat(32)];
    const replayCache = new MemoryReplayCache();
    const a = payServer(true, { requestStateSecurity: new RequestStateSecurity({ keys }), replayCache });
    const b = payServer(true, { requestStateSecurity: new RequestStateSecurity({ keys }), replayCache });
    const { leg, second } = await handDriven(a.mcp, "memory");
    expect(textOf((await leg(yes, second)) as { content: [] })).toBe("Paid 250 cents");
    const other = await connect(b.mcp, "memory", { capabilities: { elicitation: {} } });
    await expect(
      other.session.callTool(
        "pay",
        {},
        { allowInputRequired: true, inputResponses: yes, requestState: second },
      ),
    ).rejects.toMatchObject(FROZEN);
    expect(a.runs.paid + b.runs.paid).toBe(1);
    expect(a.logger.records).toEqual([]);
    expect(b.logger.records).toEqual([REPLAYED]);
  });

  it("fails closed: a cache that cannot record the first use refuses the state, logged as an error", async () => {
    const broken: ReplayCache = { markUsed: () => Promise.reject(new Error("engine down")) };
    const { mcp, runs, logger } = payServer(true, { replayCache: broken });
    const client = await connect(mcp, "memory", { capabilities: { elicitation: {} } });
    const first = await client.session.callTool("pay", {}, { allowInputRequired: true });
    if (first.resultType !== "input_required") throw new Error("expected input_required");
    await expect(
      client.session.callTool(
        "pay",
        {},
        { allowInputRequired: true, inputResponses: amount, requestState: first.requestState as string },
      ),
    ).rejects.toMatchObject(FROZEN);
    expect(runs.paid).toBe(0);
    expect(logger.records).toContainEqual(
      expect.objectContaining({
        level: "error",
        message: "requestState rejected on tools/call: replay cache error",
      }),
    );
  });

  it("and the singleUse declaration are checked at construction and registration", () => {
    expect(() => new MCPServer("s", { replayCache: {} as ReplayCache })).toThrow(TypeError);
    const mcp = new MCPServer("s");
    expect(() => mcp.tool("t", { singleUse: "yes" as unknown as boolean }, () => "x")).toThrow(TypeError);
  });
});
