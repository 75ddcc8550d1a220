/**
 * Await-style asking (`ctx.ask`, `ctx.askOutcome`, `ctx.once`) through a real `Client`, in memory
 * and over Streamable HTTP, at 2026-07-28 (the handler replayed each round) and on a 2025-11-25
 * session (the back-channel, the handler run once): side effects counted on the server, rounds
 * counted on the wire, and every rule a handler can break refused with a clear error.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import type { ElicitResult } from "../../protocol/schema/input.js";
import { elicit } from "../resolve/elicit.js";
import { listRoots } from "../resolve/list-roots.js";
import { resolver } from "../resolve/resolver.js";
import { sample } from "../resolve/sample.js";
import { DEFAULT_MAX_RECORDED_STEP_BYTES } from "../resolve/steps.js";
import { answering, BOTH_TRANSPORTS, connect, recordLegs, textOf } from "./resolvers-test-fixtures.js";
import { MCPServer, type MCPServerOptions } from "./server.js";

const Confirm = z.object({ ok: z.boolean() });
const Size = z.object({ size: z.enum(["s", "m", "l"]) });
const Card = z.object({ card: z.string() });

/** An order tool: creates once, asks three things in turn, charges once; counts every side effect. */
function orderServer(options: MCPServerOptions = {}) {
  const effects = { created: 0, charged: 0, handler: 0 };
  const mcp = new MCPServer("orders", { requestStateSecurity: testRequestStateSecurity(), ...options });
  const legs = recordLegs(mcp);
  mcp.tool("order", { inputSchema: z.object({ item: z.string() }) }, async ({ item }, ctx) => {
    effects.handler += 1;
    const order = await ctx.once("create", () => {
      effects.created += 1;
      return { id: `order-${effects.created}`, item };
    });
    const { size } = await ctx.ask("size", elicit(`Which size of ${item}?`, Size));
    const { card } = await ctx.ask("card", elicit("Which card?", Card));
    const { ok } = await ctx.ask("confirm", elicit(`Charge ${card} for ${size} ${item}?`, Confirm));
    if (!ok) return `Order ${order.id} left unpaid`;
    const receipt = await ctx.once("charge", () => {
      effects.charged += 1;
      return `receipt-${effects.charged}`;
    });
    return `Order ${order.id}: ${size} ${item}, paid with ${card} (${receipt})`;
  });
  return { mcp, legs, effects };
}

const ANSWERS = { size: { size: "m" }, card: { card: "visa" }, confirm: { ok: true } };

describe.each(BOTH_TRANSPORTS)("ctx.ask and ctx.once at 2026-07-28, %s", (via) => {
  it("runs each once step one time across a three-round call and returns the recorded results", async () => {
    const { mcp, legs, effects } = orderServer();
    const { asked, callback } = answering(ANSWERS);
    const client = await connect(mcp, via, { elicitationCallback: callback });
    const result = await client.callTool("order", { item: "tea" });
    expect(textOf(result)).toBe("Order order-1: m tea, paid with visa (receipt-1)");
    expect(asked).toEqual(["size", "card", "confirm"]);
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["size"], ["card"], ["confirm"]]);
    expect(effects).toEqual({ created: 1, charged: 1, handler: 4 });
  });

  it("asks an object of questions in one round and resolves with the answers by key", async () => {
    const mcp = new MCPServer("group", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    mcp.tool("pick", {}, async (_args, ctx) => {
      const { size, card } = await ctx.ask({ size: elicit("Size?", Size), card: elicit("Card?", Card) });
      return `${size.size}/${card.card}`;
    });
    const { callback } = answering({ size: { size: "l" }, card: { card: "amex" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("pick"))).toBe("l/amex");
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["size", "card"]]);
  });

  it("names a keyless question ask-<step>, and askOutcome hands a decline to the handler", async () => {
    const mcp = new MCPServer("keys", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("maybe", {}, async (_args, ctx) => {
      await ctx.once("first", () => 1);
      const answer = await ctx.askOutcome(elicit("Go on?", Confirm));
      return answer.status === "accepted" ? `yes ${answer.content.ok}` : `no (${answer.status})`;
    });
    const { asked, callback } = answering({});
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("maybe"))).toBe("no (declined)");
    expect(asked).toEqual(["ask-2"]);
  });

  it("answers isError naming the key when the user declines a plain ask", async () => {
    const { mcp, effects } = orderServer();
    const { callback } = answering({ size: { size: "s" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    const result = await client.callTool("order", { item: "tea" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("The user declined the question 'card'.");
    expect(effects.created).toBe(1);
  });

  it("asks sampling and roots questions and returns their results", async () => {
    const mcp = new MCPServer("kinds", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("summarise", {}, async (_args, ctx) => {
      const [reply, roots] = await Promise.all([
        ctx.ask(
          "draft",
          sample({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 }),
        ),
        ctx.ask("where", listRoots()),
      ]);
      return `${reply.model}:${roots.roots.map((root) => root.uri).join(",")}`;
    });
    const client = await connect(mcp, via, {
      samplingCallback: () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "m1" }),
      listRootsCallback: () => ({ roots: [{ uri: "file:///work" }] }),
    });
    expect(textOf(await client.callTool("summarise"))).toBe("m1:file:///work");
  });

  it("composes with resolvers: the resolved values and the steps ride one requestState", async () => {
    const mcp = new MCPServer("both", { requestStateSecurity: testRequestStateSecurity() });
    let charged = 0;
    const size = resolver("size", () => elicit("Size?", Size));
    mcp.tool("buy", { resolve: { size } }, async (_args, ctx) => {
      const { card } = await ctx.ask("card", elicit("Card?", Card));
      await ctx.once("charge", () => {
        charged += 1;
        return true;
      });
      const { ok } = await ctx.ask("confirm", elicit("Ship?", Confirm));
      return `${ctx.resolved.size.size} with ${card}, shipped ${ok}`;
    });
    const { asked, callback } = answering({
      size: { size: "s" },
      card: { card: "visa" },
      confirm: { ok: true },
    });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("buy"))).toBe("s with visa, shipped true");
    expect(asked).toEqual(["size", "card", "confirm"]);
    expect(charged).toBe(1);
  });

  it("serves prompts and resource templates that ask", async () => {
    const mcp = new MCPServer("reads", { requestStateSecurity: testRequestStateSecurity() });
    mcp.prompt("brief", {}, async (_args, ctx) => {
      const { who } = await ctx.ask("who", elicit("For whom?", z.object({ who: z.string() })));
      return `Brief for ${who}`;
    });
    mcp.resource("notes://{id}", {}, async ({ id }, ctx) => {
      const { ok } = await ctx.ask("reveal", elicit(`Reveal note ${id}?`, Confirm));
      return ok ? `note ${id}` : "hidden";
    });
    const { callback } = answering({ who: { who: "ops" }, reveal: { ok: true } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    const prompt = await client.getPrompt("brief");
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Brief for ops" });
    const read = await client.readResource("notes://7");
    expect(read.contents[0]).toMatchObject({ uri: "notes://7", text: "note 7" });
  });
});

describe("ctx.ask and ctx.once on a 2025-11-25 session", () => {
  it.each(BOTH_TRANSPORTS)(
    "asks over the back-channel and runs the handler and each once step one time, %s",
    async (via) => {
      const { mcp, effects } = orderServer();
      const keys: string[] = [];
      const { callback } = answering(ANSWERS);
      const client = await connect(mcp, via, {
        protocolVersion: "legacy",
        elicitationCallback: (params, context) => {
          keys.push(context.key);
          return callback(params, context);
        },
      });
      expect(client.era).toBe("legacy");
      const result = await client.callTool("order", { item: "tea" });
      expect(textOf(result)).toBe("Order order-1: m tea, paid with visa (receipt-1)");
      expect(effects).toEqual({ created: 1, charged: 1, handler: 1 });
      expect(keys).toEqual(["size", "card", "confirm"]);
    },
  );

  it("returns the same JSON copy from once as at 2026-07-28", async () => {
    const mcp = new MCPServer("json", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("when", {}, async (_args, ctx) => {
      const value = await ctx.once("at", () => ({ at: new Date(0), list: [1, "two"] }));
      return JSON.stringify(value);
    });
    const client = await connect(mcp, "memory", { protocolVersion: "legacy" });
    expect(textOf(await client.callTool("when"))).toBe('{"at":"1970-01-01T00:00:00.000Z","list":[1,"two"]}');
  });
});

describe("the rules a handler must follow, refused", () => {
  it("refuses a handler that asks a different question on replay, naming the step and the rule", async () => {
    const mcp = new MCPServer("drift", { requestStateSecurity: testRequestStateSecurity() });
    let runs = 0;
    mcp.tool("drift", {}, async (_args, ctx) => {
      runs += 1;
      await ctx.ask("q", elicit(runs === 1 ? "First wording?" : "Second wording?", Confirm));
      return "done";
    });
    const { callback } = answering({ q: { ok: true } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback });
    const result = await client.callTool("drift");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Step 1 of this call was ctx\.ask\("q"\) on an earlier round but is ctx\.ask\("q"\) now; a handler that uses ctx\.ask or ctx\.once runs again/,
    );
  });

  it("refuses a replay that reaches a once step where an ask was recorded", async () => {
    const mcp = new MCPServer("drift", { requestStateSecurity: testRequestStateSecurity() });
    let runs = 0;
    mcp.tool("drift", {}, async (_args, ctx) => {
      runs += 1;
      if (runs > 1) await ctx.once("sneaky", () => 1);
      await ctx.ask("q", elicit("Go?", Confirm));
      return "done";
    });
    const { callback } = answering({ q: { ok: true } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback });
    const result = await client.callTool("drift");
    expect(textOf(result)).toMatch(
      /^Step 1 of this call was ctx\.ask\("q"\) on an earlier round but is ctx\.once\("sneaky"\) now/,
    );
  });

  it("refuses a replay that returns before reaching a recorded step", async () => {
    const mcp = new MCPServer("drift", { requestStateSecurity: testRequestStateSecurity() });
    let runs = 0;
    mcp.tool("drift", {}, async (_args, ctx) => {
      runs += 1;
      if (runs > 1) return "early";
      await ctx.ask("q", elicit("Go?", Confirm));
      return "done";
    });
    const { callback } = answering({ q: { ok: true } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback });
    const result = await client.callTool("drift");
    expect(textOf(result)).toMatch(/^Step 1 of this call was ctx\.ask\("q"\) .* but is never reached/);
  });

  it("still ends the round when the handler catches the unanswered question and returns", async () => {
    const mcp = new MCPServer("catcher", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    mcp.tool("catch", {}, async (_args, ctx) => {
      try {
        const { ok } = await ctx.ask("q", elicit("Go?", Confirm));
        return `answered ${ok}`;
      } catch {
        return "swallowed";
      }
    });
    const { callback } = answering({ q: { ok: true } });
    const client = await connect(mcp, "memory", { elicitationCallback: callback });
    expect(textOf(await client.callTool("catch"))).toBe("answered true");
    expect(legs).toHaveLength(2);
  });

  it("records a once step that returns nothing (a mail sent) and runs it once, in both eras", async () => {
    for (const protocolVersion of ["2026-07-28", "legacy"] as const) {
      const mcp = new MCPServer("mail", { requestStateSecurity: testRequestStateSecurity() });
      let sent = 0;
      mcp.tool("notify", {}, async (_args, ctx) => {
        const nothing = await ctx.once("mail", async () => {
          sent += 1;
        });
        const { ok } = await ctx.ask("confirm", elicit("Sent. Close the ticket?", Confirm));
        return `${String(nothing)} ${ok}`;
      });
      const { callback } = answering({ confirm: { ok: true } });
      const client = await connect(mcp, "memory", { protocolVersion, elicitationCallback: callback });
      expect(textOf(await client.callTool("notify"))).toBe("undefined true");
      expect(sent).toBe(1);
    }
  });

  it("refuses a once result that is not JSON, naming the key, in both eras", async () => {
    for (const protocolVersion of ["2026-07-28", "legacy"] as const) {
      const mcp = new MCPServer("json", { requestStateSecurity: testRequestStateSecurity() });
      mcp.tool("bad", {}, async (_args, ctx) => {
        await ctx.once("handle", () => ({ close: () => {} }));
        return "never";
      });
      const client = await connect(mcp, "memory", { protocolVersion });
      const result = await client.callTool("bad");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'ctx.once("handle"): the result must be JSON (it is recorded in the requestState and returned on every round), but the result.close is a function',
      );
      mcp.tool("map", {}, async (_args, ctx) => {
        await ctx.once("seen", () => ({ ids: new Set(["a"]) }));
        return "never";
      });
      expect(textOf(await client.callTool("map"))).toMatch(/but the result\.ids is a Set$/);
    }
  });

  it("bounds what a call records, by default at 65 536 bytes, in both eras", async () => {
    expect(DEFAULT_MAX_RECORDED_STEP_BYTES).toBe(65_536);
    for (const protocolVersion of ["2026-07-28", "legacy"] as const) {
      const mcp = new MCPServer("big", {
        requestStateSecurity: testRequestStateSecurity(),
        maxRecordedStepBytes: 100,
      });
      let swallowed = 0;
      mcp.tool("big", {}, async (_args, ctx) => {
        await ctx.once("small", () => "x".repeat(40));
        try {
          await ctx.once("large", () => "y".repeat(80));
        } catch {
          swallowed += 1;
        }
        return "recorded";
      });
      const client = await connect(mcp, "memory", { protocolVersion });
      const result = await client.callTool("big");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^ctx\.once\("large"\)'s result would make this call's recorded steps 124 bytes, over maxRecordedStepBytes \(100\)/,
      );
      expect(swallowed).toBe(1);
    }
  });

  it("refuses a handler that uses steps and returns its own InputRequiredResult", async () => {
    const mcp = new MCPServer("mixed", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("mixed", {}, async (_args, ctx) => {
      await ctx.once("a", () => 1);
      return { resultType: "input_required", inputRequests: {}, requestState: "mine" } as never;
    });
    const client = await connect(mcp, "memory");
    const result = await client.callTool("mixed");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/cannot also return its own InputRequiredResult/);
  });

  it("refuses one key asked twice in one round", async () => {
    const mcp = new MCPServer("twice", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("twice", {}, async (_args, ctx) => {
      await Promise.all([ctx.ask("k", elicit("A?", Confirm)), ctx.ask("k", elicit("B?", Confirm))]);
      return "never";
    });
    const client = await connect(mcp, "memory", { elicitationCallback: () => ({ action: "decline" }) });
    const result = await client.callTool("twice");
    expect(textOf(result)).toBe(
      'ctx.ask: the input key "k" is asked twice in one round; give each question its own key',
    );
  });

  it("answers -32021 when the client cannot answer the question, before anything is asked", async () => {
    const mcp = new MCPServer("gate", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("gate", {}, async (_args, ctx) => {
      await ctx.ask("q", elicit("Go?", Confirm));
      return "never";
    });
    const client = await connect(mcp, "memory");
    await expect(client.callTool("gate")).rejects.toMatchObject({ code: -32021 });
  });

  it("asks an off-schema answer again, then takes the corrected one", async () => {
    const mcp = new MCPServer("retry", { requestStateSecurity: testRequestStateSecurity() });
    mcp.tool("size", {}, async (_args, ctx) => (await ctx.ask("size", elicit("Size?", Size))).size);
    const answers: ElicitResult[] = [
      { action: "accept", content: { size: "xxl" } },
      { action: "accept", content: { size: "s" } },
    ];
    const messages: string[] = [];
    const client = await connect(mcp, "memory", {
      elicitationCallback: (params) => {
        messages.push(params.message);
        return answers.shift() as ElicitResult;
      },
    });
    expect(textOf(await client.callTool("size"))).toBe("s");
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/^Size\?\n\nYour previous answer was not accepted/);
  });
});
