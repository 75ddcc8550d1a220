import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { testRequestStateSecurity } from "../../../../test/helpers/request-state.js";
import { type HttpServerHandle, serve } from "../transport/http/node/node.js";
import type { LegacySession } from "../transport/index.js";
import { elicitationComplete } from "./elicitation-complete.js";
import { MCPServer } from "./mcp/server.js";

/** An `MCPServer` whose `sign_in` tool asks for a URL-mode elicitation and remembers who asked. */
function signInServer(asked: Map<string, LegacySession>) {
  const mcp = new MCPServer("auth", { requestStateSecurity: testRequestStateSecurity() });
  mcp.tool("sign_in", {}, async (_args, ctx) => {
    const elicitationId = `e-${asked.size + 1}`;
    if (ctx.session !== undefined) asked.set(elicitationId, ctx.session);
    const answer = await ctx.elicit({
      mode: "url",
      elicitationId,
      url: "https://auth.example.com/start",
      message: "Sign in",
    });
    return answer.action;
  });
  mcp.tool("signed_in_now", {}, async (_args, ctx) => {
    ctx.notifyElicitationComplete("e-now");
    return "done";
  });
  return mcp;
}

/** The official 1.x client, declaring URL elicitation, accepting every one, recording completions. */
async function connect(url: URL) {
  const client = new Client({ name: "v1", version: "1" }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" }));
  const completed: string[] = [];
  let arrived!: () => void;
  const completion = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(notification.params.elicitationId);
    arrived();
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  return { client, completed, completion };
}

describe("notifications/elicitation/complete to the official 1.x client over HTTP", () => {
  let handle: HttpServerHandle | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await handle?.close();
    handle = undefined;
    close = undefined;
  });

  it("reaches the session that asked when sent later, outside the handler, with elicitationComplete", async () => {
    const asked = new Map<string, LegacySession>();
    handle = await serve(signInServer(asked));
    const { client, completed, completion } = await connect(handle.url);
    close = () => client.close();
    const result = await client.callTool({ name: "sign_in", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "accept" }]);
    const session = asked.get("e-1");
    expect(session).toBeDefined();
    elicitationComplete(session as LegacySession, "e-1");
    await completion;
    expect(completed).toEqual(["e-1"]);
  });

  it("is sent by ctx.notifyElicitationComplete from a handler", async () => {
    handle = await serve(signInServer(new Map()));
    const { client, completed, completion } = await connect(handle.url);
    close = () => client.close();
    await client.callTool({ name: "signed_in_now", arguments: {} });
    await completion;
    expect(completed).toEqual(["e-now"]);
  });

  it("refuses an empty elicitationId with a TypeError", () => {
    const session = { signal: new AbortController().signal, notify: () => {} } as unknown as LegacySession;
    expect(() => elicitationComplete(session, "")).toThrow(TypeError);
  });
});
