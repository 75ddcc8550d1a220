/**
 * One multi-round-trip round of a resolver tool, driven directly (the client's side played by the
 * test): which questions go out together and what a call remembers between rounds. Which answers
 * count and how a call fails: round-answers.test.ts. The same behaviours through a real client and
 * MCPServer live in the MCPServer tests.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { elicit } from "./elicit.js";
import { compileResolverGraph } from "./graph.js";
import { listRoots } from "./list-roots.js";
import {
  accept,
  completion,
  drive,
  loginThenConfirm,
  messages,
  Ok,
  pending,
  resolved,
  round,
} from "./resolve-test-fixtures.js";
import { outcome, resolver } from "./resolver.js";
import { sample } from "./sample.js";
import { decodeResolverState, encodeResolverState } from "./state.js";

describe("rounds", () => {
  it("asks each question once while resolver functions re-run every round", async () => {
    const { runs, graph } = loginThenConfirm();
    const prompts: string[] = [];
    const call = await drive(graph, (key) => {
      prompts.push(key);
      return key === "login" ? accept({ user: "ada" }) : accept({ ok: true });
    });
    expect(call.rounds).toBe(2);
    expect(prompts).toEqual(["login", "confirm"]);
    expect(runs).toEqual({ login: 3, confirm: 2 });
    expect(call.values).toEqual({ login: { user: "ada" }, confirm: { ok: true } });
  });

  it("asks the first question first, running nothing that depends on it", async () => {
    const { runs, graph } = loginThenConfirm();
    const first = pending(await round(graph));
    expect(Object.keys(first.inputRequests)).toEqual(["login"]);
    expect(first.inputRequests.login).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Who are you?",
        requestedSchema: { type: "object", properties: { user: { type: "string" } }, required: ["user"] },
      },
    });
    expect(runs).toEqual({ login: 1, confirm: 0 });
  });

  it("asks independent sibling questions in one round", async () => {
    const a = resolver("a", () => elicit("A?", Ok));
    const b = resolver("b", () => elicit("B?", Ok));
    const call = await drive(compileResolverGraph({ a, b }, "t"), () => accept({ ok: true }));
    expect(call.rounds).toBe(1);
    expect(Object.keys(call.asked[0] ?? {})).toEqual(["a", "b"]);
  });

  it("asks independent nested dependencies together, then what needs them", async () => {
    const a = resolver("a", () => elicit("A?", Ok));
    const b = resolver("b", () => elicit("B?", Ok));
    const both = resolver("both", { needs: { a, b } }, ({ needs }) =>
      elicit(`${needs.a.ok}/${needs.b.ok}?`, Ok),
    );
    const call = await drive(compileResolverGraph({ both }, "t"), () => accept({ ok: true }));
    expect(call.asked.map((requests) => Object.keys(requests))).toEqual([["a", "b"], ["both"]]);
  });

  it("asks a form, a sampling request and a roots request in one round", async () => {
    const form = resolver("form", () => elicit("Sure?", Ok));
    const summary = resolver("summary", () => sample({ messages, maxTokens: 50 }));
    const roots = resolver("roots", () => listRoots());
    const call = await drive(compileResolverGraph({ form, summary, roots }, "t"), (_key, request) =>
      request.method === "elicitation/create"
        ? accept({ ok: true })
        : request.method === "sampling/createMessage"
          ? completion
          : { roots: [{ uri: "file:///work" }] },
    );
    expect(call.rounds).toBe(1);
    expect(call.values).toEqual({
      form: { ok: true },
      summary: completion,
      roots: { roots: [{ uri: "file:///work" }] },
    });
  });

  it("takes one round per link of a dependent chain, keeping early answers", async () => {
    const chain = [resolver("step0", () => elicit("Step 0?", Ok))];
    for (let index = 1; index < 5; index += 1) {
      chain.push(
        resolver(`step${index}`, { needs: { previous: chain[index - 1]! } }, () =>
          elicit(`Step ${index}?`, Ok),
        ),
      );
    }
    const prompts: string[] = [];
    const call = await drive(compileResolverGraph({ last: chain[4]! }, "t"), (key) => {
      prompts.push(key);
      return accept({ ok: true });
    });
    expect(call.rounds).toBe(5);
    expect(prompts).toEqual(["step0", "step1", "step2", "step3", "step4"]);
  });

  it("runs a resolver reached by two consumers once per round", async () => {
    let runs = 0;
    const shared = resolver("shared", () => {
      runs += 1;
      return 7;
    });
    const twice = resolver("twice", { needs: { shared } }, ({ needs }) => needs.shared * 2);
    const values = resolved(await round(compileResolverGraph({ shared, twice, raw: outcome(shared) }, "t")));
    expect(runs).toBe(1);
    expect(values).toEqual({ shared: 7, twice: 14, raw: { status: "accepted", content: 7 } });
  });

  it("fills a parameter from a plain value without asking, and passes the tool arguments and needs", async () => {
    const seen: unknown[] = [];
    const base = resolver("base", ({ args }) => `db-${String(args.name)}`);
    const full = resolver("full", { needs: { base } }, ({ args, needs, ctx }) => {
      seen.push(args, needs, ctx.method);
      return `${needs.base}.${String(args.zone)}`;
    });
    const values = resolved(
      await round(compileResolverGraph({ full }, "t"), { args: { name: "orders", zone: "eu" } }),
    );
    expect(values).toEqual({ full: "db-orders.eu" });
    expect(seen).toEqual([{ name: "orders", zone: "eu" }, { base: "db-orders" }, "tools/call"]);
  });

  it("stores nothing for a plain value: a pending round's state records only questions", async () => {
    const computed = resolver("computed", () => ({ big: "x".repeat(100) }));
    const ask = resolver("ask", () => elicit("Sure?", Ok));
    const first = pending(await round(compileResolverGraph({ computed, ask }, "t")));
    expect(JSON.parse(first.requestState)).toEqual({
      v: 1,
      outcomes: {},
      asked: { ask: expect.any(String) },
    });
  });
});

describe("what a call remembers", () => {
  it("records the client's raw answer and validates it again every round, so a transforming schema restores its output", async () => {
    const When = z.object({ when: z.iso.date().transform((text) => new Date(`${text}T00:00:00Z`)) });
    const when = resolver("when", () => elicit("When?", When));
    const after = resolver("after", { needs: { when } }, ({ needs }) =>
      elicit(`Remind on ${needs.when.when.toISOString().slice(0, 10)}?`, Ok),
    );
    const graph = compileResolverGraph({ when, after }, "t");
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { when: accept({ when: "2026-12-01" }) },
        requestState: first.requestState,
      }),
    );
    expect(decodeResolverState(second.requestState).outcomes.get("when")).toMatchObject({
      data: { when: "2026-12-01" },
    });
    expect(second.inputRequests.after?.params).toMatchObject({ message: "Remind on 2026-12-01?" });
    const values = resolved(
      await round(graph, {
        inputResponses: { after: accept({ ok: true }) },
        requestState: second.requestState,
      }),
    );
    expect(values.when).toEqual({ when: new Date("2026-12-01T00:00:00Z") });
  });

  it("keeps going when a computed sibling value cannot be serialised: computed values are never stored", async () => {
    const handle = resolver("handle", () => ({ id: 10n, close: () => {} }));
    const ask = resolver("ask", () => elicit("Sure?", Ok));
    const call = await drive(compileResolverGraph({ handle, ask }, "t"), () => accept({ ok: true }));
    expect(call.rounds).toBe(1);
    expect(call.values.handle).toMatchObject({ id: 10n });
  });

  it("keeps a declined outcome in the state and does not ask it again", async () => {
    const confirm = resolver("confirm", () => elicit("Sure?", Ok));
    const later = resolver("later", { needs: { confirm: outcome(confirm) } }, () => elicit("Later?", Ok));
    const graph = compileResolverGraph({ confirm: outcome(confirm), later }, "t");
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { confirm: { action: "decline" } },
        requestState: first.requestState,
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["later"]);
    expect(decodeResolverState(second.requestState).outcomes.get("confirm")).toMatchObject({
      action: "decline",
    });
    const third = resolved(
      await round(graph, {
        inputResponses: { later: accept({ ok: true }) },
        requestState: second.requestState,
      }),
    );
    expect(third).toEqual({ confirm: { status: "declined" }, later: { ok: true } });
  });

  it("keeps a sampled result, so the model is asked once per call", async () => {
    const summary = resolver("summary", () => sample({ messages, maxTokens: 50 }));
    const approve = resolver("approve", { needs: { summary } }, ({ needs }) =>
      elicit(`Approve "${JSON.stringify(needs.summary.content)}"?`, Ok),
    );
    let sampled = 0;
    const call = await drive(compileResolverGraph({ summary, approve }, "t"), (_key, request) => {
      if (request.method !== "sampling/createMessage") return accept({ ok: true });
      sampled += 1;
      return completion;
    });
    expect(sampled).toBe(1);
    expect(call.rounds).toBe(2);
    expect(call.values.summary).toEqual(completion);
  });

  it("carries a recorded entry forward unchanged, with its question digest", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { login: accept({ user: "ada" }) },
        requestState: first.requestState,
      }),
    );
    const recorded = decodeResolverState(second.requestState).outcomes.get("login");
    expect(recorded).toEqual({
      action: "accept",
      data: { user: "ada" },
      q: decodeResolverState(first.requestState).asked.get("login"),
    });
    const third = pending(await round(graph, { requestState: second.requestState }));
    expect(decodeResolverState(third.requestState).outcomes.get("login")).toEqual(recorded);
  });

  it("prefers a recorded outcome to an answer sent again", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { login: accept({ user: "ada" }) },
        requestState: first.requestState,
      }),
    );
    const values = resolved(
      await round(graph, {
        inputResponses: { login: accept({ user: "mallory" }), confirm: accept({ ok: true }) },
        requestState: second.requestState,
      }),
    );
    expect(values.login).toEqual({ user: "ada" });
  });

  it("ignores unknown answer keys and recorded entries no resolver consults, and drops them", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const ghost = JSON.parse(first.requestState);
    ghost.outcomes.ghost = { action: "accept", data: { x: 1 }, q: "qq" };
    const second = pending(
      await round(graph, {
        inputResponses: { login: accept({ user: "ada" }), stranger: accept({ ok: true }) },
        requestState: JSON.stringify(ghost),
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["confirm"]);
    expect([...decodeResolverState(second.requestState).outcomes.keys()]).toEqual(["login"]);
  });

  it("asks again, without failing, when a recorded answer no longer matches the schema", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const q = decodeResolverState(first.requestState).asked.get("login")!;
    const forged = encodeResolverState({
      outcomes: new Map([["login", { action: "accept", data: { user: 42 }, q }]]),
      asked: new Map(),
    });
    const again = pending(await round(graph, { requestState: forged }));
    expect(Object.keys(again.inputRequests)).toEqual(["login"]);
  });

  it("never lets a recorded entry replace a value a resolver computes", async () => {
    const plan = resolver("plan", () => "computed");
    const graph = compileResolverGraph({ plan }, "t");
    for (const entry of [
      { action: "accept", data: "forged", q: "q" },
      { action: "decline", q: "q" },
    ] as const) {
      const state = encodeResolverState({ outcomes: new Map([["plan", entry]]), asked: new Map() });
      expect(resolved(await round(graph, { requestState: state }))).toEqual({ plan: "computed" });
    }
  });

  it("reads a garbage or foreign-version state as no progress and asks again", async () => {
    const { graph } = loginThenConfirm();
    for (const requestState of ["garbage", '{"v":3,"outcomes":{},"asked":{"login":"x"}}']) {
      const again = pending(
        await round(graph, { inputResponses: { login: accept({ user: "ada" }) }, requestState }),
      );
      expect(Object.keys(again.inputRequests)).toEqual(["login"]);
    }
  });

  it("asks again for an entry recorded without its question digest", async () => {
    const { graph } = loginThenConfirm();
    const state = JSON.stringify({
      v: 1,
      outcomes: { login: { action: "accept", data: { user: "ada" } } },
      asked: {},
    });
    expect(Object.keys(pending(await round(graph, { requestState: state })).inputRequests)).toEqual([
      "login",
    ]);
  });

  it("keeps a recorded answer containing a lone surrogate to later rounds", async () => {
    const { graph } = loginThenConfirm();
    const lone = "ada\ud800";
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { login: accept({ user: lone }) },
        requestState: first.requestState,
      }),
    );
    const values = resolved(
      await round(graph, {
        inputResponses: { confirm: accept({ ok: true }) },
        requestState: second.requestState,
      }),
    );
    expect(values.login).toEqual({ user: lone });
  });
});
