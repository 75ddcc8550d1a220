/**
 * The harness's own suite, framework-neutral: each case is a name and an async function that
 * throws on failure (node:assert), run once per era where both apply. vitest runs it
 * (harness.test.ts) and so does node:test (test/testing/node-test-harness.ts), the same cases.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { MCPServer } from "../server/mcp/server.js";
import { elicit } from "../server/resolve/elicit.js";
import { listRoots } from "../server/resolve/list-roots.js";
import { resolver } from "../server/resolve/resolver.js";
import { sample } from "../server/resolve/sample.js";
import { DEFAULT_REQUEST_STATE_TTL_MS, RequestStateSecurity } from "../server/state/policy.js";
import {
  type CallTarget,
  ERAS,
  type Era,
  expectCapabilityRequired,
  expectInvalidRequestState,
  expectPrincipalBound,
  expectSingleUse,
  type ManualClock,
  manualClock,
  tamperRequestState,
  testServer,
  UnscriptedQuestionError,
} from "./index.js";

/** One case of the suite. */
export interface HarnessCase {
  readonly name: string;
  readonly run: () => Promise<void>;
}

const KEY = new Uint8Array(32).fill(7);
const Region = z.object({ region: z.string() });
const Ok = z.object({ ok: z.boolean() });

/** A server with a resolver tool, an await-style tool, a sampling+roots tool and a single-use tool. */
function server(clock?: ManualClock) {
  const mcp = new MCPServer("harnessed", {
    requestStateSecurity: new RequestStateSecurity({
      keys: [KEY],
      ...(clock === undefined ? {} : { clock }),
    }),
  });
  const region = resolver("region", ({ args }) => elicit(`Where should ${String(args.name)} live?`, Region));
  mcp.tool(
    "provision",
    { inputSchema: z.object({ name: z.string() }), resolve: { region } },
    ({ name }, ctx) => {
      return `Provisioned ${name} in ${ctx.resolved.region.region}`;
    },
  );
  const charges: string[] = [];
  mcp.tool("pay", {}, async (_args, ctx) => {
    const { ok } = await ctx.ask("confirm", elicit("Pay?", Ok));
    if (!ok) return "not paid";
    const { ok: sure } = await ctx.ask("sure", elicit("Sure?", Ok));
    await ctx.once("charge", () => charges.push("charged"));
    return sure ? `paid (${charges.length})` : "not sure";
  });
  mcp.tool("summarise", {}, async (_args, ctx) => {
    const reply = await ctx.ask(
      "draft",
      sample({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 9 }),
    );
    const roots = await ctx.ask("where", listRoots());
    const block = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    const text = block?.type === "text" ? block.text : "";
    return `${text} @ ${roots.roots.map((root) => root.uri).join(",")}`;
  });
  mcp.tool("once-only", { singleUse: true }, async (_args, ctx) => {
    await ctx.ask("go", elicit("Go?", Ok));
    return "done";
  });
  return mcp;
}

function eachEra(name: string, run: (era: Era) => Promise<void>): HarnessCase[] {
  return ERAS.map((era) => ({ name: `${name} (${era})`, run: () => run(era) }));
}

const PROVISION = { method: "tools/call", name: "provision", arguments: { name: "orders" } } as const;
const ANSWER = { region: { action: "accept", content: { region: "eu-west-1" } } } as const;

/** Round one at 2026-07-28: its sealed state. */
async function firstState(
  t: ReturnType<typeof testServer>,
  target: CallTarget = PROVISION,
  authInfo?: { token: string; subject: string },
) {
  const round = await t.firstRound(target, authInfo === undefined ? {} : { authInfo });
  assert.equal(round.resultType, "input_required");
  const state = (round as { requestState?: string }).requestState;
  assert.equal(typeof state, "string");
  return state as string;
}

/** Every case. */
export const HARNESS_CASES: readonly HarnessCase[] = [
  ...eachEra("answers a resolver's question by key", async (era) => {
    const t = testServer(server(), { era });
    const run = await t.callTool(
      "provision",
      { name: "orders" },
      { answers: { region: { region: "eu-west-1" } } },
    );
    assert.deepEqual(run.result.content, [{ type: "text", text: "Provisioned orders in eu-west-1" }]);
    assert.deepEqual(
      run.questions.map((question) => [question.key, question.kind]),
      [["region", "elicitation"]],
    );
    assert.equal(run.rounds, era === "2026-07-28" ? 1 : 0);
  }),
  ...eachEra("answers round by round, and charges once", async (era) => {
    const t = testServer(server(), { era });
    const run = await t.callTool("pay", {}, { answers: [{ confirm: { ok: true } }, { sure: { ok: true } }] });
    assert.deepEqual(run.result.content, [{ type: "text", text: "paid (1)" }]);
    assert.deepEqual(
      run.questions.map((question) => question.key),
      ["confirm", "sure"],
    );
    assert.equal(run.rounds, era === "2026-07-28" ? 2 : 0);
  }),
  ...eachEra("declines", async (era) => {
    const t = testServer(server(), { era });
    const run = await t.callTool("pay", {}, { answers: { confirm: "decline" } });
    assert.equal(run.result.isError, true);
  }),
  ...eachEra("answers sampling with a text and roots with URIs", async (era) => {
    const t = testServer(server(), { era });
    const run = await t.callTool("summarise", {}, { answers: { draft: "Hello", where: ["file:///work"] } });
    assert.deepEqual(run.result.content, [{ type: "text", text: "Hello @ file:///work" }]);
    assert.deepEqual(
      run.questions.map((question) => question.kind),
      ["sampling", "roots"],
    );
  }),
  ...eachEra("fails a question the script does not answer, naming its key", async (era) => {
    const t = testServer(server(), { era });
    await assert.rejects(
      t.callTool("pay", {}, { answers: {} }),
      (error: unknown) => error instanceof UnscriptedQuestionError && error.key === "confirm",
    );
  }),
  ...eachEra("gates on the client's capabilities with -32021", async (era) => {
    const t = testServer(server(), { era, answerable: { elicitation: false } });
    await expectCapabilityRequired(t.callTool("provision", { name: "x" }), "elicitation");
  }),
  {
    name: "refuses a tampered requestState with the frozen -32602",
    run: async () => {
      const t = testServer(server());
      const state = await firstState(t);
      await expectInvalidRequestState(
        t.retry(PROVISION, { inputResponses: ANSWER, requestState: tamperRequestState(state) }),
      );
      const done = await t.retry(PROVISION, { inputResponses: ANSWER, requestState: state });
      assert.deepEqual((done as { content?: unknown }).content, [
        { type: "text", text: "Provisioned orders in eu-west-1" },
      ]);
    },
  },
  {
    name: "refuses a replayed final round of a single-use tool",
    run: async () => {
      const t = testServer(server());
      const target = { method: "tools/call", name: "once-only" } as const;
      const state = await firstState(t, target);
      const leg = {
        inputResponses: { go: { action: "accept", content: { ok: true } } },
        requestState: state,
      } as const;
      const first = await expectSingleUse(t, target, leg);
      assert.deepEqual((first as { content?: unknown }).content, [{ type: "text", text: "done" }]);
    },
  },
  {
    name: "refuses an expired requestState",
    run: async () => {
      const clock = manualClock();
      const t = testServer(server(clock));
      const state = await firstState(t);
      clock.advance(DEFAULT_REQUEST_STATE_TTL_MS + 1);
      await expectInvalidRequestState(t.retry(PROVISION, { inputResponses: ANSWER, requestState: state }));
    },
  },
  {
    name: "binds the requestState to the principal",
    run: async () => {
      const t = testServer(server());
      const state = await firstState(t, PROVISION, { token: "a", subject: "alice" });
      const alice = await expectPrincipalBound(
        t,
        PROVISION,
        { inputResponses: ANSWER, requestState: state },
        { token: "a", subject: "alice" },
        { token: "b", subject: "bob" },
      );
      assert.equal((alice as { isError?: boolean }).isError, undefined);
    },
  },
];
