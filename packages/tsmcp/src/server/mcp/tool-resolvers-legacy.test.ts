/**
 * Resolver tools on a 2025-11-25 session, through `MCPServer.handle` with a handshake-era
 * environment whose back-channel is scripted: the same declaration serves both eras; questions go
 * over the back-channel (independent ones together, dependent ones in turn), their answers feed the
 * same engine, the capability gate refuses before anything is sent, and no `InputRequiredResult`
 * or `requestState` reaches the wire.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import type { ClientCapabilities } from "../../protocol/schema/base.js";
import type { LegacySession, RequestEnvironment } from "../../transport/dispatcher.js";
import { elicit } from "../resolve/elicit.js";
import { listRoots } from "../resolve/list-roots.js";
import { outcome, resolver } from "../resolve/resolver.js";
import { sample } from "../resolve/sample.js";
import { RequestStateSecurity } from "../state/policy.js";
import { MCPServer } from "./server.js";

const Login = z.object({ user: z.string() });
const Ok = z.object({ ok: z.boolean() });

type Script = (method: string, params: Record<string, unknown> | undefined) => Record<string, unknown>;

/** A 2025-era session on `mcp`, initialized with `capabilities`, whose client answers with `script`. */
async function legacyClient(
  mcp: MCPServer,
  script: Script,
  capabilities: ClientCapabilities = { elicitation: {} },
) {
  const sent: { method: string; params: Record<string, unknown> | undefined }[] = [];
  const lifetime = new AbortController();
  const session: LegacySession = {
    id: undefined,
    handshake: undefined,
    initialized: false,
    logLevel: undefined,
    resourceSubscriptions: new Set(),
    signal: lifetime.signal,
    notify: () => {},
  };
  let nextId = 1;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the response's fields directly
  const handle = async (method: string, params?: Record<string, unknown>): Promise<any> => {
    const env: RequestEnvironment = {
      signal: new AbortController().signal,
      session,
      request: async (requestMethod, requestParams) => {
        sent.push({ method: requestMethod, params: requestParams });
        return script(requestMethod, requestParams);
      },
    };
    const request: JSONRPCRequest = { jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) };
    return await mcp.handle(request, env);
  };
  const init = await handle("initialize", {
    protocolVersion: "2025-11-25",
    capabilities,
    clientInfo: { name: "old-client", version: "1.0.0" },
  });
  expect(init).toHaveProperty("result");
  await mcp.handle(
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { signal: lifetime.signal, session },
  );
  return { handle, sent };
}

const answers =
  (byMessage: Record<string, Record<string, unknown>>): Script =>
  (_method, params) => {
    const content = byMessage[String(params?.message)];
    return content === undefined ? { action: "decline" } : { action: "accept", content };
  };

/** login (asks) -> confirm (asks, needs login); `enter` welcomes, `vault` wants confirm's outcome. */
function loginServer(options: ConstructorParameters<typeof MCPServer>[1] = {}) {
  const mcp = new MCPServer("legacy-resolvers", options);
  const login = resolver("login", () => elicit("Who are you?", Login));
  const confirm = resolver("confirm", { needs: { login } }, ({ needs }) =>
    elicit(`Proceed as ${needs.login.user}?`, Ok),
  );
  mcp.tool("enter", { resolve: { login, confirm } }, (_args, { resolved }) =>
    resolved.confirm.ok ? `Welcome, ${resolved.login.user}` : "Turned away",
  );
  mcp.tool("vault", { resolve: { confirm: outcome(confirm) } }, (_args, { resolved }) =>
    resolved.confirm.status === "accepted" ? "opened" : `not opened (${resolved.confirm.status})`,
  );
  return mcp;
}

describe("resolver tools on a 2025-11-25 session", () => {
  it("asks dependent questions in turn over the back-channel and answers with a plain result", async () => {
    const mcp = loginServer({ requestStateSecurity: RequestStateSecurity.ephemeral() });
    const { handle, sent } = await legacyClient(
      mcp,
      answers({ "Who are you?": { user: "ada" }, "Proceed as ada?": { ok: true } }),
    );
    const response = await handle("tools/call", { name: "enter", arguments: {} });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "Welcome, ada" }] },
    });
    expect(sent.map(({ method, params }) => [method, params?.message])).toEqual([
      ["elicitation/create", "Who are you?"],
      ["elicitation/create", "Proceed as ada?"],
    ]);
  });

  it("lists the same tool definition in both eras", async () => {
    const mcp = loginServer();
    const { handle } = await legacyClient(mcp, answers({}));
    const legacy = (await handle("tools/list")) as { result: { tools: unknown[] } };
    const modern = (await mcp.handle(
      {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      },
      { signal: new AbortController().signal },
    )) as unknown as { result: { tools: unknown[] } };
    expect(legacy.result.tools).toEqual(modern.result.tools);
  });

  it("gives an outcome consumer the decline, and fails a plain consumer with an error result", async () => {
    const mcp = loginServer();
    const { handle } = await legacyClient(mcp, answers({ "Who are you?": { user: "ada" } }));
    expect(await handle("tools/call", { name: "vault", arguments: {} })).toMatchObject({
      result: { content: [{ type: "text", text: "not opened (declined)" }] },
    });
    expect(await handle("tools/call", { name: "enter", arguments: {} })).toMatchObject({
      result: {
        isError: true,
        content: [
          {
            type: "text",
            text: "The user declined the question for 'confirm'.",
          },
        ],
      },
    });
  });

  it("sends independent questions of every kind together and feeds the answers to the handler", async () => {
    const mcp = new MCPServer("kinds");
    const form = resolver("form", () => elicit("Name?", Login));
    const summary = resolver("summary", () =>
      sample({ messages: [{ role: "user", content: { type: "text", text: "Sum up" } }], maxTokens: 5 }),
    );
    const roots = resolver("roots", () => listRoots());
    mcp.tool("all", { resolve: { form, summary, roots } }, (_args, { resolved }) =>
      [
        resolved.form.user,
        (resolved.summary.content as { text: string }).text,
        resolved.roots.roots.length,
      ].join(" "),
    );
    const { handle, sent } = await legacyClient(
      mcp,
      (method) => {
        if (method === "elicitation/create") return { action: "accept", content: { user: "ada" } };
        if (method === "sampling/createMessage")
          return { role: "assistant", content: { type: "text", text: "short" }, model: "m" };
        return { roots: [{ uri: "file:///a" }, { uri: "file:///b" }] };
      },
      { elicitation: {}, sampling: {}, roots: {} },
    );
    expect(await handle("tools/call", { name: "all", arguments: {} })).toMatchObject({
      result: { content: [{ type: "text", text: "ada short 2" }] },
    });
    expect(sent.map(({ method }) => method)).toEqual([
      "elicitation/create",
      "sampling/createMessage",
      "roots/list",
    ]);
  });

  it("refuses with -32021 naming the resolver when the client did not declare the capability, sending nothing", async () => {
    const mcp = loginServer();
    const { handle, sent } = await legacyClient(mcp, answers({}), {});
    expect(await handle("tools/call", { name: "enter", arguments: {} })).toMatchObject({
      error: {
        code: -32021,
        message: "Client did not declare the form elicitation capability required by resolver 'login'",
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      },
    });
    expect(sent).toEqual([]);
  });

  it("fails the call with an error result when the accepted content does not match the form", async () => {
    const mcp = loginServer();
    const { handle } = await legacyClient(mcp, () => ({ action: "accept", content: { user: 7 } }));
    const response = (await handle("tools/call", { name: "enter", arguments: {} })) as {
      result: { isError: boolean; content: { text: string }[] };
    };
    expect(response.result.isError).toBe(true);
    expect(response.result.content[0]?.text).toContain("does not match the requested schema");
  });
});
