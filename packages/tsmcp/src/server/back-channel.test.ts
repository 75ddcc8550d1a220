import { describe, expect, it } from "vitest";
import { requestMeta, rpc } from "../../../../test/helpers/meta.js";
import { deferred } from "../protocol/async.js";
import { McpError } from "../protocol/errors.js";
import type { ClientCapabilities } from "../protocol/schema/base.js";
import type { BackChannelRequest } from "../transport/dispatcher.js";
import type { RequestContext } from "./context.js";
import {
  errorOf,
  handshake,
  legacyEnv,
  legacyRequest,
  resultOf,
  tableBackChannel,
  testSession,
} from "./legacy/legacy-test-fixtures.js";
import { silentLogger } from "./logger.js";
import { Server } from "./server.js";

const FORM = {
  message: "Which region?",
  requestedSchema: { type: "object" as const, properties: { region: { type: "string" as const } } },
};
const URL_ASK = {
  mode: "url" as const,
  message: "Sign in",
  url: "https://example.com/login",
  elicitationId: "e-1",
};
const SAMPLE = {
  messages: [{ role: "user" as const, content: { type: "text" as const, text: "hi" } }],
  maxTokens: 10,
};

const CLIENT = {
  "elicitation/create": () => ({ action: "accept", content: { region: "eu" } }),
  "sampling/createMessage": () => ({
    role: "assistant",
    content: { type: "text", text: "hello" },
    model: "m",
  }),
  "roots/list": () => ({ roots: [{ uri: "file:///work" }] }),
  ping: () => ({}),
};

/** A server whose one tool runs `body` and answers with its JSON. */
function serverRunning(body: (ctx: RequestContext) => Promise<unknown>) {
  return new Server("Asker", {
    logger: silentLogger,
    onCallTool: async (ctx) => ({
      content: [{ type: "text", text: JSON.stringify((await body(ctx)) ?? null) }],
    }),
  });
}

async function callOnSession(
  body: (ctx: RequestContext) => Promise<unknown>,
  capabilities: ClientCapabilities,
  request: BackChannelRequest = tableBackChannel(CLIENT),
) {
  const server = serverRunning(body);
  const session = testSession();
  await handshake(server, session, capabilities);
  return server.handle(legacyRequest("tools/call", { name: "ask" }), legacyEnv(session, { request }));
}

const textOf = (result: Record<string, unknown>) =>
  JSON.parse((result.content as { text: string }[])[0]?.text ?? "null") as unknown;

describe("ctx back-channel calls on a 2025-era session", () => {
  it("elicits a form from a client that declared elicitation, and returns its answer", async () => {
    const channel = tableBackChannel(CLIENT);
    const response = await callOnSession((ctx) => ctx.elicit(FORM), { elicitation: {} }, channel);
    expect(textOf(resultOf(response))).toEqual({ action: "accept", content: { region: "eu" } });
    expect(channel.sent.map((s) => [s.method, s.params])).toEqual([["elicitation/create", FORM]]);
  });

  it("sends a form elicitation without mode to a 2025-06-18 client, which predates it", async () => {
    const channel = tableBackChannel(CLIENT);
    const server = serverRunning((ctx) => ctx.elicit({ mode: "form", ...FORM }));
    const session = testSession();
    await handshake(server, session, { elicitation: {} }, "2025-06-18");
    await server.handle(
      legacyRequest("tools/call", { name: "ask" }),
      legacyEnv(session, { request: channel }),
    );
    expect(channel.sent.map((s) => s.params)).toEqual([FORM]);
  });

  it("sends a URL elicitation only to a client that declared elicitation.url", async () => {
    const asked = tableBackChannel(CLIENT);
    const declared = await callOnSession((ctx) => ctx.elicit(URL_ASK), { elicitation: { url: {} } }, asked);
    expect(textOf(resultOf(declared))).toEqual({ action: "accept", content: { region: "eu" } });
    expect(asked.sent[0]?.params).toEqual(URL_ASK);
    const channel = tableBackChannel(CLIENT);
    const refused = errorOf(await callOnSession((ctx) => ctx.elicit(URL_ASK), { elicitation: {} }, channel));
    expect(refused).toEqual({
      code: -32021,
      message: "Client did not declare the URL elicitation capability required by 'elicitation/create'",
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    expect(channel.sent).toEqual([]);
  });

  it("lets a handler tell the client a URL elicitation completed, on the session's own channel", async () => {
    const server = serverRunning(async (ctx) => {
      const answer = await ctx.elicit(URL_ASK);
      ctx.session?.notify({
        jsonrpc: "2.0",
        method: "notifications/elicitation/complete",
        params: { elicitationId: URL_ASK.elicitationId },
      });
      return answer.action;
    });
    const session = testSession();
    await handshake(server, session, { elicitation: { url: {} } });
    const env = legacyEnv(session, { request: tableBackChannel(CLIENT) });
    expect(textOf(resultOf(await server.handle(legacyRequest("tools/call", { name: "ask" }), env)))).toBe(
      "accept",
    );
    expect(session.notified).toEqual([
      { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e-1" } },
    ]);
  });

  it("refuses a form elicitation to a URL-only client with -32021 before sending", async () => {
    const channel = tableBackChannel(CLIENT);
    const error = errorOf(
      await callOnSession((ctx) => ctx.elicit(FORM), { elicitation: { url: {} } }, channel),
    );
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { elicitation: { form: {} } } });
    expect(channel.sent).toEqual([]);
  });

  it("samples with sampling declared, and needs sampling.tools when tools are offered", async () => {
    const answer = await callOnSession((ctx) => ctx.createMessage(SAMPLE), { sampling: {} });
    expect(textOf(resultOf(answer))).toEqual({
      role: "assistant",
      content: { type: "text", text: "hello" },
      model: "m",
    });
    const withTools = { ...SAMPLE, tools: [{ name: "t", inputSchema: { type: "object" as const } }] };
    const channel = tableBackChannel(CLIENT);
    const refused = errorOf(
      await callOnSession((ctx) => ctx.createMessage(withTools), { sampling: {} }, channel),
    );
    expect(refused.code).toBe(-32021);
    expect(refused.data).toEqual({ requiredCapabilities: { sampling: { tools: {} } } });
    expect(channel.sent).toEqual([]);
    const allowed = await callOnSession((ctx) => ctx.createMessage(withTools), { sampling: { tools: {} } });
    expect(resultOf(allowed)).toBeDefined();
  });

  it("refuses sampling and roots to a client that declared neither, naming the capability", async () => {
    const channel = tableBackChannel(CLIENT);
    const sampling = errorOf(await callOnSession((ctx) => ctx.createMessage(SAMPLE), {}, channel));
    expect(sampling.data).toEqual({ requiredCapabilities: { sampling: {} } });
    const roots = errorOf(await callOnSession((ctx) => ctx.listRoots(), {}, channel));
    expect(roots).toEqual({
      code: -32021,
      message: "Client did not declare the roots capability required by 'roots/list'",
      data: { requiredCapabilities: { roots: {} } },
    });
    expect(channel.sent).toEqual([]);
  });

  it("lists roots and pings a client that declared roots", async () => {
    const channel = tableBackChannel(CLIENT);
    const response = await callOnSession(
      async (ctx) => {
        await ctx.ping();
        return ctx.listRoots();
      },
      { roots: {} },
      channel,
    );
    expect(textOf(resultOf(response))).toEqual({ roots: [{ uri: "file:///work" }] });
    expect(channel.sent.map((s) => s.method)).toEqual(["ping", "roots/list"]);
  });

  it("refuses a client result that does not validate with -32603", async () => {
    const channel = tableBackChannel({ "roots/list": () => ({ roots: "all of them" }) });
    const error = errorOf(await callOnSession((ctx) => ctx.listRoots(), { roots: {} }, channel));
    expect(error).toEqual({ code: -32603, message: "Client returned an invalid result for 'roots/list'" });
  });

  it("passes the client's error through as the request's error", async () => {
    const channel = tableBackChannel({
      "elicitation/create": () => {
        throw new McpError(-32000, "user walked away", { why: "lunch" });
      },
    });
    const error = errorOf(await callOnSession((ctx) => ctx.elicit(FORM), { elicitation: {} }, channel));
    expect(error).toEqual({ code: -32000, message: "user walked away", data: { why: "lunch" } });
  });

  it("cancels with the request's own signal, passing it to the back-channel", async () => {
    const server = serverRunning((ctx) => ctx.elicit(FORM));
    const session = testSession();
    await handshake(server, session, { elicitation: {} });
    const controller = new AbortController();
    let seenSignal: AbortSignal | undefined;
    const sent = deferred<void>();
    const request: BackChannelRequest = (_method, _params, options) => {
      seenSignal = options?.signal;
      sent.resolve();
      return new Promise((_resolve, reject) => {
        options?.signal?.addEventListener("abort", () => reject(options.signal?.reason));
      });
    };
    const pending = server.handle(
      legacyRequest("tools/call", { name: "ask" }),
      legacyEnv(session, { request, signal: controller.signal }),
    );
    await sent.promise;
    expect(seenSignal?.aborted).toBe(false);
    controller.abort(new McpError(-32800, "Request cancelled"));
    expect(seenSignal?.aborted).toBe(true);
    expect(errorOf(await pending).code).toBe(-32800);
  });

  it("passes the caller's timeout and signal to the back-channel", async () => {
    const channel = tableBackChannel(CLIENT);
    const mine = new AbortController();
    await callOnSession((ctx) => ctx.ping({ timeoutMs: 1234, signal: mine.signal }), {}, channel);
    const options = channel.sent[0]?.options;
    expect(options?.timeoutMs).toBe(1234);
    mine.abort();
    expect(options?.signal?.aborted).toBe(true);
  });

  it("refuses on a stateless session without a back-channel with the no-back-channel -32600", async () => {
    const server = serverRunning((ctx) => ctx.elicit(FORM));
    const session = testSession();
    await handshake(server, session, { elicitation: {} });
    const error = errorOf(
      await server.handle(legacyRequest("tools/call", { name: "ask" }), legacyEnv(session)),
    );
    expect(error).toEqual({
      code: -32600,
      message:
        "Cannot send 'elicitation/create': this transport context has no back-channel for server-initiated requests.",
    });
  });
});

describe("ctx back-channel calls on the 2026-07-28 wire", () => {
  it.each([
    ["elicitation/create", (ctx: RequestContext) => ctx.elicit(FORM)],
    ["sampling/createMessage", (ctx: RequestContext) => ctx.createMessage(SAMPLE)],
    ["roots/list", (ctx: RequestContext) => ctx.listRoots()],
    ["ping", (ctx: RequestContext) => ctx.ping()],
  ])("refuse %s with -32600: no back-channel, even when the capability is declared", async (method, body) => {
    const server = serverRunning(body);
    const capabilities = { elicitation: {}, sampling: {}, roots: {} };
    const response = await server.handle(
      rpc("tools/call", { name: "ask", _meta: requestMeta(capabilities) }),
      {
        signal: new AbortController().signal,
      },
    );
    expect(errorOf(response)).toEqual({
      code: -32600,
      message: `Cannot send '${method}': this transport context has no back-channel for server-initiated requests.`,
    });
  });

  it("makes closeSseStream a no-op where the transport cannot resume, and calls the transport's otherwise", async () => {
    let closed = 0;
    const server = serverRunning(async (ctx) => {
      ctx.closeSseStream();
      return "ok";
    });
    const signal = new AbortController().signal;
    expect(resultOf(await server.handle(rpc("tools/call", { name: "ask" }), { signal }))).toBeDefined();
    await server.handle(rpc("tools/call", { name: "ask" }), { signal, closeSseStream: () => closed++ });
    expect(closed).toBe(1);
  });
});
