import { describe, expect, it } from "vitest";
import * as z from "zod";
import { McpError } from "../../protocol/errors.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import type {
  BackChannelRequestOptions,
  LegacySession,
  RequestEnvironment,
} from "../../transport/dispatcher.js";
import { createRequestContext, type RequestContext } from "../context.js";
import { resolveOverBackChannel } from "./back-channel.js";
import { elicit } from "./elicit.js";
import { ResolverError } from "./errors.js";
import { compileResolverGraph } from "./graph.js";
import { listRoots } from "./list-roots.js";
import {
  ALL_CAPABILITIES,
  completion,
  failure,
  Login,
  loginThenConfirm,
  messages,
  Ok,
} from "./resolve-test-fixtures.js";
import { outcome, resolver } from "./resolver.js";
import { sample } from "./sample.js";

/** One server -> client request as the back-channel saw it. */
interface Sent {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
  readonly signal: AbortSignal | undefined;
}

type Answer = (sent: Sent) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** A `tools/call` context on a 2025-11-25 session whose client declared `capabilities`. */
function legacyContext(
  answer: Answer,
  options: { capabilities?: ClientCapabilities; backChannel?: boolean } = {},
): { ctx: RequestContext; sent: Sent[] } {
  const sent: Sent[] = [];
  const session: LegacySession = {
    id: undefined,
    handshake: {
      protocolVersion: "2025-11-25",
      clientInfo: { name: "old-client", version: "1.0.0" },
      clientCapabilities: options.capabilities ?? ALL_CAPABILITIES,
    },
    initialized: true,
    logLevel: undefined,
    resourceSubscriptions: new Set(),
    signal: new AbortController().signal,
    notify: () => {},
  };
  const env: RequestEnvironment = { signal: new AbortController().signal, session };
  if (options.backChannel !== false) {
    env.request = async (method, params, requestOptions?: BackChannelRequestOptions) => {
      const entry = { method, params, signal: requestOptions?.signal };
      sent.push(entry);
      return await answer(entry);
    };
  }
  return { ctx: createRequestContext("tools/call", 1, {} as never, env), sent };
}

const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

describe("resolveOverBackChannel", () => {
  it("sends one question as elicitation/create and gives the handler the validated content", async () => {
    const region = resolver("region", () =>
      elicit("Which region?", z.object({ region: z.string(), zone: z.string().default("a") })),
    );
    const { ctx, sent } = legacyContext(() => accept({ region: "eu-west-1" }));
    const result = await resolveOverBackChannel(compileResolverGraph({ region }, "t"), {}, ctx);
    expect(result).toEqual({ status: "resolved", values: { region: { region: "eu-west-1", zone: "a" } } });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      method: "elicitation/create",
      params: { mode: "form", message: "Which region?", requestedSchema: { type: "object" } },
    });
  });

  it("asks dependent questions in turn, each once, while resolver functions re-run each round", async () => {
    const { runs, graph } = loginThenConfirm();
    const { ctx, sent } = legacyContext(({ params }) =>
      params?.message === "Who are you?" ? accept({ user: "ada" }) : accept({ ok: true }),
    );
    const result = await resolveOverBackChannel(graph, {}, ctx);
    expect(result.values).toEqual({ login: { user: "ada" }, confirm: { ok: true } });
    expect(sent.map((entry) => entry.params?.message)).toEqual(["Who are you?", "Proceed as ada?"]);
    expect(runs).toEqual({ login: 3, confirm: 2 });
  });

  it("sends independent questions of every kind together, before any is answered", async () => {
    const form = resolver("form", () => elicit("Name?", Login));
    const summary = resolver("summary", () => sample({ messages, maxTokens: 10 }));
    const roots = resolver("roots", () => listRoots());
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { ctx, sent } = legacyContext(async ({ method }) => {
      if (sent.length === 3) release();
      await released;
      if (method === "elicitation/create") return accept({ user: "ada" });
      if (method === "sampling/createMessage") return { ...completion };
      return { roots: [{ uri: "file:///repo" }] };
    });
    const result = await resolveOverBackChannel(compileResolverGraph({ form, summary, roots }, "t"), {}, ctx);
    expect(sent.map((entry) => entry.method)).toEqual([
      "elicitation/create",
      "sampling/createMessage",
      "roots/list",
    ]);
    expect(result.values).toEqual({
      form: { user: "ada" },
      summary: completion,
      roots: { roots: [{ uri: "file:///repo" }] },
    });
  });

  it("refuses with -32021 naming the resolver before sending any question of the round", async () => {
    const form = resolver("form", () => elicit("Name?", Login));
    const roots = resolver("roots", () => listRoots());
    const { ctx, sent } = legacyContext(() => accept({ user: "ada" }), {
      capabilities: { elicitation: {} },
    });
    const error = await failure(resolveOverBackChannel(compileResolverGraph({ form, roots }, "t"), {}, ctx));
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: -32021,
      message: "Client did not declare the roots capability required by resolver 'roots'",
      data: { requiredCapabilities: { roots: {} } },
    });
    expect(sent).toEqual([]);
  });

  it("fails a plain consumer of a declined question, and gives an outcome consumer the outcome", async () => {
    const confirm = resolver("confirm", () => elicit("Sure?", Ok));
    const { ctx } = legacyContext(() => ({ action: "decline" }));
    const error = await failure(resolveOverBackChannel(compileResolverGraph({ confirm }, "t"), {}, ctx));
    expect(error).toBeInstanceOf(ResolverError);
    expect(error.message).toBe("The user declined the question for 'confirm'.");
    const { ctx: again } = legacyContext(() => ({ action: "cancel" }));
    const result = await resolveOverBackChannel(
      compileResolverGraph({ confirm: outcome(confirm) }, "t"),
      {},
      again,
    );
    expect(result.values).toEqual({ confirm: { status: "cancelled" } });
  });

  it("asks an off-schema answer again, then fails the call naming the fields only", async () => {
    const login = resolver("login", () => elicit("Who?", Login));
    const { ctx, sent } = legacyContext(() => accept({ user: 42 }));
    const graph = compileResolverGraph({ login }, "t");
    const error = await failure(resolveOverBackChannel(graph, {}, ctx, { maxInvalidAnswerRetries: 1 }));
    expect(error).toBeInstanceOf(ResolverError);
    expect(error.message).toBe(
      "The answer to resolver 'login' still does not match the requested schema after 2 attempts (fields: user).",
    );
    expect(sent).toHaveLength(2);
    const { ctx: once } = legacyContext(() => accept({ user: 42 }));
    const first = await failure(resolveOverBackChannel(graph, {}, once, { maxInvalidAnswerRetries: 0 }));
    expect(first.message).toBe(
      "The answer to resolver 'login' does not match the requested schema (fields: user).",
    );
  });

  it("rejects with the client's error and cancels the other questions of the round", async () => {
    const first = resolver("first", () => elicit("First?", Ok));
    const second = resolver("second", () => elicit("Second?", Ok));
    const { ctx, sent } = legacyContext(({ params, signal }) => {
      if (params?.message === "First?") throw new McpError(-1, "User rejected");
      return new Promise((_resolve, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    });
    const error = await failure(
      resolveOverBackChannel(compileResolverGraph({ first, second }, "t"), {}, ctx),
    );
    expect(error).toMatchObject({ code: -1, message: "User rejected" });
    expect(sent[1]?.signal?.aborted).toBe(true);
  });

  it("gives up on a question that changes every round instead of asking forever", async () => {
    let asked = 0;
    const volatile = resolver("volatile", () => {
      asked += 1;
      return elicit(`Now is ${asked}. Proceed?`, Ok);
    });
    const { ctx, sent } = legacyContext(() => accept({ ok: true }));
    const error = await failure(resolveOverBackChannel(compileResolverGraph({ volatile }, "t"), {}, ctx));
    expect(error).toBeInstanceOf(ResolverError);
    expect(error.message).toContain("asked a different question every round");
    expect(sent).toHaveLength(1);
  });

  it("fails with the no-back-channel -32600 on a session without one", async () => {
    const login = resolver("login", () => elicit("Who?", Login));
    const { ctx } = legacyContext(() => accept({ user: "ada" }), { backChannel: false });
    const error = await failure(resolveOverBackChannel(compileResolverGraph({ login }, "t"), {}, ctx));
    expect(error).toMatchObject({
      code: -32600,
      message:
        "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests.",
    });
  });
});
