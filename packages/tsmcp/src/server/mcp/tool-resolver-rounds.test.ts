/**
 * The rounds of a tool with resolvers, through a real `Client` in memory and over Streamable HTTP,
 * counted on the server: each question asked once while resolver functions re-run, independent
 * questions together, dependent ones in turn, the client's round budget, and how answers and
 * outcomes (declined, cancelled, malformed, of the wrong kind) reach the handler or the client.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { testRequestStateSecurity } from "../../../../../test/helpers/request-state.js";
import { InputRequiredRoundsExceededError } from "../../client/errors.js";
import type { CreateMessageResult, ElicitResult, InputResponses } from "../../protocol/schema/input.js";
import { elicit } from "../resolve/elicit.js";
import { listRoots } from "../resolve/list-roots.js";
import { outcome, type Resolver, resolver } from "../resolve/resolver.js";
import { sample } from "../resolve/sample.js";
import { answering, BOTH_TRANSPORTS, connect, recordLegs, textOf } from "./resolvers-test-fixtures.js";
import { MCPServer } from "./server.js";

const Login = z.object({ user: z.string() });
const Ok = z.object({ ok: z.boolean() });
const messages = [
  { role: "user" as const, content: { type: "text" as const, text: "Summarise the release" } },
];
const completion: CreateMessageResult = {
  role: "assistant",
  content: { type: "text", text: "Fixes." },
  model: "m",
};

/** A server with `enter`: login (asks) -> confirm (asks, needs login) -> handler, counting runs. */
function loginServer() {
  const runs = { login: 0, confirm: 0, handler: 0 };
  const login = resolver("login", () => {
    runs.login += 1;
    return elicit("Who are you?", Login);
  });
  const confirm = resolver("confirm", { needs: { login } }, ({ needs }) => {
    runs.confirm += 1;
    return elicit(`Proceed as ${needs.login.user}?`, Ok);
  });
  const mcp = new MCPServer("rounds", { requestStateSecurity: testRequestStateSecurity() });
  const legs = recordLegs(mcp);
  mcp.tool("enter", { resolve: { login, confirm } }, (_args, { resolved: { login, confirm } }) => {
    runs.handler += 1;
    return confirm.ok ? `Welcome, ${login.user}` : "Turned away";
  });
  return { mcp, legs, runs };
}

/** A chain of `length` dependent questions, each asking once its predecessor is answered. */
function chainServer(length: number) {
  let last: Resolver<Record<string, unknown>, { ok: boolean }> = resolver("step0", () =>
    elicit("Step 0?", Ok),
  );
  for (let index = 1; index < length; index += 1) {
    last = resolver(`step${index}`, { needs: { previous: last } }, () => elicit(`Step ${index}?`, Ok));
  }
  const mcp = new MCPServer("chain", { requestStateSecurity: testRequestStateSecurity() });
  const legs = recordLegs(mcp);
  mcp.tool("chain", { resolve: { last } }, () => "done");
  return { mcp, legs };
}

describe.each(BOTH_TRANSPORTS)("the rounds of a tool with resolvers, %s", (via) => {
  it("asks each question once while resolver functions re-run: two retries, login 3 times, confirm twice", async () => {
    const { mcp, legs, runs } = loginServer();
    const { asked, callback } = answering({ login: { user: "ada" }, confirm: { ok: true } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("enter"))).toBe("Welcome, ada");
    expect(asked).toEqual(["login", "confirm"]);
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["login"], ["confirm"]]);
    expect(runs).toEqual({ login: 3, confirm: 2, handler: 1 });
  });

  it("answers independent questions in a single round", async () => {
    const mcp = new MCPServer("rounds", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    const size = resolver("size", () => elicit("Which size?", z.object({ size: z.enum(["s", "m"]) })));
    const region = resolver("region", () => elicit("Which region?", z.object({ region: z.string() })));
    mcp.tool(
      "order",
      { resolve: { size, region } },
      (_a, { resolved: { size, region } }) => `${size.size} in ${region.region}`,
    );
    const { callback } = answering({ size: { size: "m" }, region: { region: "eu" } });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("order"))).toBe("m in eu");
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["size", "region"]]);
  });

  it("batches independent dependencies of different kinds (form, sampling, roots) into one round", async () => {
    const mcp = new MCPServer("rounds", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    const approve = resolver("approve", () => elicit("Approve the release?", Ok));
    const summary = resolver("summary", () => sample({ messages, maxTokens: 50 }));
    const roots = resolver("roots", () => listRoots());
    const report = resolver("report", { needs: { approve, summary, roots } }, ({ needs }) =>
      needs.approve.ok ? `${needs.roots.roots.length} roots; ${JSON.stringify(needs.summary.content)}` : "no",
    );
    mcp.tool("release", { resolve: { report } }, (_a, { resolved: { report } }) => report);
    const client = await connect(mcp, via, {
      elicitationCallback: answering({ approve: { ok: true } }).callback,
      samplingCallback: () => completion,
      listRootsCallback: () => ({ roots: [{ uri: "file:///repo" }] }),
    });
    expect(textOf(await client.callTool("release"))).toBe('1 roots; {"type":"text","text":"Fixes."}');
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["approve", "summary", "roots"]]);
  });

  it("takes one round per link of a dependent chain, keeping early answers", async () => {
    const { mcp, legs } = chainServer(4);
    const { asked, callback } = answering({
      step0: { ok: true },
      step1: { ok: true },
      step2: { ok: true },
      step3: { ok: true },
    });
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("chain"))).toBe("done");
    expect(asked).toEqual(["step0", "step1", "step2", "step3"]);
    expect(legs).toHaveLength(5);
  });

  it("gives up when an 11-step chain outlasts the client's default budget of 10 rounds, after 11 legs", async () => {
    const { mcp, legs } = chainServer(11);
    const answers = Object.fromEntries(
      Array.from({ length: 11 }, (_, index) => [`step${index}`, { ok: true }]),
    );
    const client = await connect(mcp, via, { elicitationCallback: answering(answers).callback });
    await expect(client.callTool("chain")).rejects.toBeInstanceOf(InputRequiredRoundsExceededError);
    expect(legs).toHaveLength(11);
  });

  it("completes a 10-step chain within the default budget, in exactly 10 retries", async () => {
    const { mcp, legs } = chainServer(10);
    const answers = Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [`step${index}`, { ok: true }]),
    );
    const client = await connect(mcp, via, { elicitationCallback: answering(answers).callback });
    expect(textOf(await client.callTool("chain"))).toBe("done");
    expect(legs).toHaveLength(11);
  });

  it("asks the model once per call: a sampled result rides the state to the later rounds", async () => {
    const mcp = new MCPServer("rounds", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    const summary = resolver("summary", () => sample({ messages, maxTokens: 50 }));
    const approve = resolver("approve", { needs: { summary } }, ({ needs }) =>
      elicit(`Publish "${JSON.stringify(needs.summary.content)}"?`, Ok),
    );
    const tag = resolver("tag", { needs: { approve } }, () =>
      elicit("Which tag?", z.object({ tag: z.string() })),
    );
    mcp.tool(
      "publish",
      { resolve: { summary, tag } },
      (_a, { resolved: { summary, tag } }) => `${tag.tag}: ${summary.model}`,
    );
    let sampled = 0;
    const client = await connect(mcp, via, {
      samplingCallback: () => {
        sampled += 1;
        return completion;
      },
      elicitationCallback: answering({ approve: { ok: true }, tag: { tag: "v2" } }).callback,
    });
    expect(textOf(await client.callTool("publish"))).toBe("v2: m");
    expect(sampled).toBe(1);
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["summary"], ["approve"], ["tag"]]);
  });

  it("drops a stored answer when its question is reworded between rounds, and asks again, keeping the others", async () => {
    let wording = "Which region?";
    const mcp = new MCPServer("rounds", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    const region = resolver("region", () => elicit(wording, z.object({ region: z.string() })));
    const size = resolver("size", () => elicit("Which size?", z.object({ size: z.string() })));
    mcp.tool(
      "order",
      { resolve: { region, size } },
      (_a, { resolved: { region, size } }) => `${size.size} in ${region.region}`,
    );
    const asked: string[] = [];
    const client = await connect(mcp, via, {
      elicitationCallback: (params, context): ElicitResult => {
        asked.push(`${context.key}: ${params.message}`);
        if (context.key === "size") return { action: "accept", content: { size: "s" } };
        const region = wording === "Which region?" ? "eu" : "us";
        wording = "Which region should the order ship from?"; // a redeploy between rounds
        return { action: "accept", content: { region } };
      },
    });
    expect(textOf(await client.callTool("order"))).toBe("s in us");
    expect(asked).toEqual([
      "region: Which region?",
      "size: Which size?",
      "region: Which region should the order ship from?",
    ]);
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["region", "size"], ["region"]]);
  });

  it("drops a stored answer when its question keeps its message but changes its schema, and asks again", async () => {
    let schema: z.ZodType<{ region: string }> = z.object({ region: z.string() });
    const mcp = new MCPServer("rounds", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    const region = resolver("region", () => elicit("Which region?", schema));
    const size = resolver("size", () => elicit("Which size?", z.object({ size: z.string() })));
    mcp.tool(
      "order",
      { resolve: { region, size } },
      (_a, { resolved: { region, size } }) => `${size.size} in ${region.region}`,
    );
    const asked: string[] = [];
    const client = await connect(mcp, via, {
      elicitationCallback: (params, context): ElicitResult => {
        const properties = Object.keys(
          (params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {},
        );
        asked.push(`${context.key}: ${params.message} [${properties.join(",")}]`);
        if (context.key === "size") return { action: "accept", content: { size: "s" } };
        const first = properties.length === 1;
        // A redeploy between rounds: same message, one more (optional) field the old answer lacks.
        schema = z.object({ region: z.string(), zone: z.string().optional() });
        return { action: "accept", content: first ? { region: "eu" } : { region: "us", zone: "b" } };
      },
    });
    expect(textOf(await client.callTool("order"))).toBe("s in us");
    expect(asked).toEqual([
      "region: Which region? [region]",
      "size: Which size? [size]",
      "region: Which region? [region,zone]",
    ]);
    expect(legs.map((leg) => leg.answered)).toEqual([[], ["region", "size"], ["region"]]);
  });
});

describe.each(BOTH_TRANSPORTS)("what the handler and the client get, %s", (via) => {
  /** A folder deleter whose confirmation asks only for a non-empty folder; the handler branches on the outcome. */
  function folderServer() {
    const confirm = resolver("confirm", ({ args }) =>
      Number(args.files) === 0 ? { ok: true } : elicit(`Delete ${String(args.files)} files?`, Ok),
    );
    const mcp = new MCPServer("folders", { requestStateSecurity: testRequestStateSecurity() });
    const legs = recordLegs(mcp);
    mcp.tool(
      "delete",
      { inputSchema: z.object({ files: z.number() }), resolve: { confirm: outcome(confirm) } },
      (_args, { resolved: { confirm } }) => {
        switch (confirm.status) {
          case "accepted":
            return confirm.content.ok ? "Deleted" : "Kept";
          case "declined":
            return "You declined";
          case "cancelled":
            return "You cancelled";
        }
      },
    );
    return { mcp, legs };
  }

  it.each([
    [{ ok: true }, "Deleted"],
    [{ ok: false }, "Kept"],
    [{ action: "decline" as const }, "You declined"],
    [{ action: "cancel" as const }, "You cancelled"],
  ])("hands an outcome consumer every outcome to branch on (%j)", async (answer, expected) => {
    const { mcp } = folderServer();
    const client = await connect(mcp, via, { elicitationCallback: answering({ confirm: answer }).callback });
    expect(textOf(await client.callTool("delete", { files: 3 }))).toBe(expected);
  });

  it("completes without asking when the resolver computes the answer", async () => {
    const { mcp, legs } = folderServer();
    const { asked, callback } = answering({});
    const client = await connect(mcp, via, { elicitationCallback: callback });
    expect(textOf(await client.callTool("delete", { files: 0 }))).toBe("Deleted");
    expect(asked).toEqual([]);
    expect(legs).toHaveLength(1);
  });

  it.each([
    ["decline", "declined"],
    ["cancel", "cancelled"],
  ] as const)(
    "fails the call for a plain consumer when the user answers %s, in a sentence naming the question",
    async (action, word) => {
      const { mcp, runs } = loginServer();
      const client = await connect(mcp, via, {
        elicitationCallback: answering({ login: { action } }).callback,
      });
      const result = await client.callTool("enter");
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`The user ${word} the question for 'login'.`);
      expect(runs.handler).toBe(0);
    },
  );

  it("fails on an accepted answer without content: an error, not a cancel", async () => {
    const { mcp } = loginServer();
    const client = await connect(mcp, via, { elicitationCallback: () => ({ action: "accept" }) });
    const result = await client.callTool("enter");
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe("The client accepted the question of resolver 'login' but sent no content.");
  });

  it("fails on content that still does not match the schema after the re-asks, leaking no validator internals", async () => {
    const { mcp } = loginServer();
    const client = await connect(mcp, via, {
      elicitationCallback: answering({ login: { user: 42 } }).callback,
    });
    const result = await client.callTool("enter");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "The answer to resolver 'login' still does not match the requested schema after 3 attempts (fields: user).",
    );
  });
});

describe.each(BOTH_TRANSPORTS)("which answers count, legs driven by hand, %s", (via) => {
  async function leg(
    client: Awaited<ReturnType<typeof connect>>,
    retry: { inputResponses?: InputResponses; requestState?: string | undefined } = {},
  ) {
    const { inputResponses, requestState } = retry;
    return client.session.callTool(
      "enter",
      {},
      {
        allowInputRequired: true,
        ...(inputResponses === undefined ? {} : { inputResponses }),
        ...(requestState === undefined ? {} : { requestState }),
      },
    );
  }
  const ada: InputResponses = { login: { action: "accept", content: { user: "ada" } } };

  it("asks again, never consuming, an answer sent without the echoed state", async () => {
    const { mcp, runs } = loginServer();
    const client = await connect(mcp, via, { capabilities: { elicitation: {} } });
    const first = await leg(client);
    const unechoed = await leg(client, { inputResponses: ada });
    expect(unechoed).toMatchObject({ resultType: "input_required", inputRequests: { login: {} } });
    expect(runs.confirm).toBe(0);
    if (unechoed.resultType !== "input_required") throw new Error("expected input_required");
    const echoed = await leg(client, { inputResponses: ada, requestState: unechoed.requestState });
    expect(echoed).toMatchObject({ resultType: "input_required", inputRequests: { confirm: {} } });
    expect(first.resultType).toBe("input_required");
  });

  it("does not consume an answer to a question that was not pending in the previous round", async () => {
    const { mcp } = loginServer();
    const client = await connect(mcp, via, { capabilities: { elicitation: {} } });
    const first = await leg(client);
    if (first.resultType !== "input_required") throw new Error("expected input_required");
    const early = await leg(client, {
      inputResponses: { ...ada, confirm: { action: "accept", content: { ok: true } } },
      requestState: first.requestState,
    });
    expect(early).toMatchObject({ resultType: "input_required", inputRequests: { confirm: {} } });
  });

  it("fails on a response of the wrong kind", async () => {
    const { mcp } = loginServer();
    const client = await connect(mcp, via, { capabilities: { elicitation: {} } });
    const first = await leg(client);
    if (first.resultType !== "input_required") throw new Error("expected input_required");
    const wrong = await leg(client, {
      inputResponses: { login: completion },
      requestState: first.requestState,
    });
    expect(wrong).toMatchObject({
      isError: true,
      content: [
        { type: "text", text: "The client's answer to resolver 'login' is not an elicitation result." },
      ],
    });
  });
});
