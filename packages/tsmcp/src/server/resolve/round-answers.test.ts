/**
 * One multi-round-trip round of a resolver tool, driven directly: which answers count (question
 * binding, stale and unechoed answers), how a call fails (decline / cancel, malformed answers, the
 * capability gate), and sampling and roots answers.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpError } from "../../protocol/errors.js";
import type { InputResponses } from "../../protocol/schema/input.js";
import { elicit } from "./elicit.js";
import { ResolverError } from "./errors.js";
import { compileResolverGraph } from "./graph.js";
import { listRoots } from "./list-roots.js";
import {
  accept,
  completion,
  contextWith,
  drive,
  failure,
  loginThenConfirm,
  messages,
  Ok,
  pending,
  resolved,
  round,
} from "./resolve-test-fixtures.js";
import { outcome, resolver } from "./resolver.js";
import type { RoundResult } from "./round.js";
import { sample } from "./sample.js";
import { decodeResolverState } from "./state.js";

describe("which answers count", () => {
  it("drops a stored answer when its question is reworded, keeping the answers to other questions", async () => {
    let wording = "Which region?";
    const region = resolver("region", () => elicit(wording, z.object({ region: z.string() })));
    const size = resolver("size", () => elicit("Which size?", z.object({ size: z.string() })));
    const last = resolver("last", { needs: { region, size } }, () => elicit("Go?", Ok));
    const graph = compileResolverGraph({ last }, "t");
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { region: accept({ region: "eu" }), size: accept({ size: "s" }) },
        requestState: first.requestState,
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["last"]);
    wording = "Which region should it live in?";
    const reworded = pending(await round(graph, { requestState: second.requestState }));
    expect(Object.keys(reworded.inputRequests)).toEqual(["region"]);
    expect(reworded.inputRequests.region?.params).toMatchObject({ message: wording });
    expect([...decodeResolverState(reworded.requestState).outcomes.keys()]).toEqual(["size"]);
  });

  it("drops a stored answer when its message stays but its schema changes, keeping the other answers", async () => {
    // The new schema still accepts the old answer: only the question binding can tell them apart.
    let schema: z.ZodType<{ region: string }> = z.object({ region: z.string() });
    const region = resolver("region", () => elicit("Which region?", schema));
    const size = resolver("size", () => elicit("Which size?", z.object({ size: z.string() })));
    const last = resolver("last", { needs: { region, size } }, () => elicit("Go?", Ok));
    const graph = compileResolverGraph({ last }, "t");
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { region: accept({ region: "eu" }), size: accept({ size: "s" }) },
        requestState: first.requestState,
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["last"]);
    expect([...decodeResolverState(second.requestState).outcomes.keys()].sort()).toEqual(["region", "size"]);
    schema = z.object({ region: z.string(), zone: z.string().optional() });
    expect(schema.safeParse({ region: "eu" }).success).toBe(true);
    const changed = pending(await round(graph, { requestState: second.requestState }));
    expect(Object.keys(changed.inputRequests)).toEqual(["region"]);
    expect(changed.inputRequests.region?.params).toMatchObject({
      message: "Which region?",
      requestedSchema: { properties: { region: { type: "string" }, zone: { type: "string" } } },
    });
    expect([...decodeResolverState(changed.requestState).outcomes.keys()]).toEqual(["size"]);
    const done = pending(
      await round(graph, {
        inputResponses: { region: accept({ region: "us", zone: "b" }) },
        requestState: changed.requestState,
      }),
    );
    expect(Object.keys(done.inputRequests)).toEqual(["last"]);
  });

  it("does not consume an answer that arrives after its question's schema changed", async () => {
    let schema: z.ZodType<{ region: string }> = z.object({ region: z.string() });
    const region = resolver("region", () => elicit("Which region?", schema));
    const graph = compileResolverGraph({ region }, "t");
    const first = pending(await round(graph));
    schema = z.object({ region: z.string().describe("Where the database lives") });
    const again = pending(
      await round(graph, {
        inputResponses: { region: accept({ region: "eu" }) },
        requestState: first.requestState,
      }),
    );
    expect(again.inputRequests.region?.params).toMatchObject({
      message: "Which region?",
      requestedSchema: { properties: { region: { description: "Where the database lives" } } },
    });
  });

  it("asks a reworded question even when the user declined the old wording", async () => {
    let wording = "Delete it?";
    const confirm = resolver("confirm", () => elicit(wording, Ok));
    const other = resolver("other", () => elicit("Other?", Ok));
    const graph = compileResolverGraph({ confirm: outcome(confirm), other }, "t");
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { confirm: { action: "decline" } },
        requestState: first.requestState,
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["other"]);
    wording = "Delete it for good?";
    const again = pending(await round(graph, { requestState: second.requestState }));
    expect(Object.keys(again.inputRequests)).toEqual(["confirm", "other"]);
  });

  it("does not consume an answer that arrives after its question was reworded", async () => {
    let wording = "Which region?";
    const region = resolver("region", () => elicit(wording, z.object({ region: z.string() })));
    const graph = compileResolverGraph({ region }, "t");
    const first = pending(await round(graph));
    wording = "Which region, exactly?";
    const again = pending(
      await round(graph, {
        inputResponses: { region: accept({ region: "eu" }) },
        requestState: first.requestState,
      }),
    );
    expect(again.inputRequests.region?.params).toMatchObject({ message: wording });
  });

  it("asks again, never consuming, an answer sent without the echoed state", async () => {
    const { graph } = loginThenConfirm();
    const notes: string[] = [];
    const logger = { debug() {}, info: (message: string) => notes.push(message), warn() {}, error() {} };
    const again = pending(await round(graph, { inputResponses: { login: accept({ user: "ada" }) }, logger }));
    expect(Object.keys(again.inputRequests)).toEqual(["login"]);
    expect(decodeResolverState(again.requestState).outcomes.size).toBe(0);
    expect(notes).toEqual([expect.stringContaining("Discarding the answer for resolver 'login'")]);
  });

  it("does not consume an answer to a question that was not pending in the previous round", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const second = pending(
      await round(graph, {
        inputResponses: { login: accept({ user: "ada" }), confirm: accept({ ok: true }) },
        requestState: first.requestState,
      }),
    );
    expect(Object.keys(second.inputRequests)).toEqual(["confirm"]);
  });
});

describe("how a call fails", () => {
  async function answered(responses: (first: RoundResult & { status: "input_required" }) => InputResponses) {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    return failure(round(graph, { inputResponses: responses(first), requestState: first.requestState }));
  }

  it("fails a plain consumer of a declined or cancelled question with a sentence naming the question", async () => {
    for (const [action, word] of [
      ["decline", "declined"],
      ["cancel", "cancelled"],
    ] as const) {
      const error = await answered(() => ({ login: { action } }));
      expect(error).toBeInstanceOf(ResolverError);
      expect(error.message).toBe(`The user ${word} the question for 'login'.`);
    }
  });

  it("fails as soon as a plain consumer is reached, even while other questions are pending", async () => {
    const first = resolver("first", () => elicit("First?", Ok));
    const second = resolver("second", () => elicit("Second?", Ok));
    const graph = compileResolverGraph({ first, second }, "t");
    const asked = pending(await round(graph));
    const error = await failure(
      round(graph, { inputResponses: { first: { action: "decline" } }, requestState: asked.requestState }),
    );
    expect(error.message).toBe("The user declined the question for 'first'.");
  });

  it("names the consumer's name for the value, a needs key as much as a resolve key, and the resolver when it differs", async () => {
    const confirm = resolver("confirm", () => elicit("Sure?", Ok));
    const act = resolver("act", { needs: { approval: confirm } }, () => "done");
    const graph = compileResolverGraph({ act }, "t");
    const asked = pending(await round(graph));
    const error = await failure(
      round(graph, { inputResponses: { confirm: { action: "cancel" } }, requestState: asked.requestState }),
    );
    expect(error.message).toBe("The user cancelled the question for 'approval' (resolver 'confirm').");
  });

  it("fails on accept without content: an error, not a cancel", async () => {
    const error = await answered(() => ({ login: { action: "accept" } }));
    expect(error.message).toBe("The client accepted the question of resolver 'login' but sent no content.");
  });

  it("asks an off-schema answer again, the validation note in the message and the count in the state, then fails naming the fields only", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const off = { login: accept({ user: 42 }) };
    const again = pending(await round(graph, { inputResponses: off, requestState: first.requestState }));
    expect(again.inputRequests.login?.params).toMatchObject({
      message: expect.stringMatching(
        /^Who are you\?\n\nYour previous answer was not accepted \(user: .+\)\. Please answer again\.$/,
      ),
    });
    expect(decodeResolverState(again.requestState).invalid).toEqual(new Map([["login", 1]]));
    const unanswered = pending(await round(graph, { requestState: again.requestState }));
    expect(decodeResolverState(unanswered.requestState).invalid).toEqual(new Map([["login", 1]]));
    const error = await failure(
      round(graph, { inputResponses: off, requestState: again.requestState, maxInvalidAnswerRetries: 1 }),
    );
    expect(error).toBeInstanceOf(ResolverError);
    expect(error.message).toBe(
      "The answer to resolver 'login' still does not match the requested schema after 2 attempts (fields: user).",
    );
    expect(error.message).not.toMatch(/expected|received number|invalid_type/i);
  });

  it("fails at the first off-schema answer with maxInvalidAnswerRetries 0", async () => {
    const { graph } = loginThenConfirm();
    const first = pending(await round(graph));
    const error = await failure(
      round(graph, {
        inputResponses: { login: accept({ user: 42 }) },
        requestState: first.requestState,
        maxInvalidAnswerRetries: 0,
      }),
    );
    expect(error.message).toBe(
      "The answer to resolver 'login' does not match the requested schema (fields: user).",
    );
  });

  it("fails on a response of the wrong kind", async () => {
    const error = await answered(() => ({ login: completion }));
    expect(error.message).toBe("The client's answer to resolver 'login' is not an elicitation result.");
    const summary = resolver("summary", () => sample({ messages, maxTokens: 5 }));
    const graph = compileResolverGraph({ summary }, "t");
    const asked = pending(await round(graph));
    const wrong = await failure(
      round(graph, { inputResponses: { summary: accept({ ok: true }) }, requestState: asked.requestState }),
    );
    expect(wrong.message).toBe("The client's answer to resolver 'summary' is not a sampling result.");
  });

  it("passes a resolver function's error through", async () => {
    const broken = resolver("broken", () => {
      throw new Error("no database");
    });
    expect((await failure(round(compileResolverGraph({ broken }, "t")))).message).toBe("no database");
  });
});

describe("sampling and roots", () => {
  it("gives the consumer the client's results", async () => {
    const summary = resolver("summary", () => sample({ messages, maxTokens: 5 }));
    const roots = resolver("roots", () => listRoots());
    const call = await drive(compileResolverGraph({ summary, roots }, "t"), (key) =>
      key === "summary" ? completion : { roots: [{ uri: "file:///a", name: "a" }] },
    );
    expect(call.values).toEqual({ summary: completion, roots: { roots: [{ uri: "file:///a", name: "a" }] } });
  });

  it("accepts tool use, or a plain completion, in answer to a sampling request with tools", async () => {
    const tools = [{ name: "lookup", inputSchema: { type: "object" as const } }];
    const plan = resolver("plan", () => sample({ messages, maxTokens: 5, tools }));
    const graph = compileResolverGraph({ plan }, "t");
    const toolUse = {
      ...completion,
      content: [{ type: "tool_use" as const, id: "1", name: "lookup", input: {} }],
    };
    for (const answer of [toolUse, completion]) {
      const call = await drive(graph, () => answer);
      expect(call.values.plan).toEqual(answer);
    }
  });
});

describe("the capability gate", () => {
  it("refuses with -32021 instead of asking", async () => {
    const { graph } = loginThenConfirm();
    const error = await failure(round(graph, { ctx: contextWith({ sampling: {} }) }));
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32021,
      message: "Client did not declare the form elicitation capability required by resolver 'login'",
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
  });

  it("gates sampling with tools on sampling.tools, whether tools or only toolChoice is set", async () => {
    for (const extra of [
      { tools: [{ name: "t", inputSchema: { type: "object" as const } }] },
      { toolChoice: { mode: "auto" as const } },
    ]) {
      const plan = resolver("plan", () => sample({ messages, maxTokens: 5, ...extra }));
      const error = await failure(
        round(compileResolverGraph({ plan }, "t"), { ctx: contextWith({ sampling: {} }) }),
      );
      expect(error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { sampling: { tools: {} } } },
      });
    }
  });

  it("does not gate a question already answered", async () => {
    const confirm = resolver("confirm", () => elicit("Sure?", Ok));
    const graph = compileResolverGraph({ confirm }, "t");
    const first = pending(await round(graph));
    const values = resolved(
      await round(graph, {
        inputResponses: { confirm: accept({ ok: true }) },
        requestState: first.requestState,
        ctx: contextWith({}),
      }),
    );
    expect(values).toEqual({ confirm: { ok: true } });
  });
});
