/**
 * Principal binding with an auth hook that returns only `{ token, scopes }` (no client, issuer or
 * subject): the token itself is then the principal, over real HTTP, for a sealed requestState and
 * for a 2025-era session; the token never shows in the sealed state or in the logs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import type { LogFields, Logger } from "../../packages/tsmcp/src/protocol/index.js";
import {
  elicitationRequest,
  inputRequired,
  MCPServer,
  readElicitation,
} from "../../packages/tsmcp/src/server/index.js";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/transport/http/node/node.js";
import type { AuthenticateRequest } from "../../packages/tsmcp/src/transport/http/server/authenticate.js";
import { initialize, legacy, modern, onSession, post } from "../helpers/mcp-post.js";

const ALICE = "alice-opaque-token-0123456789";
const BOB = "bob-opaque-token-9876543210";
const CONFIRM = elicitationRequest({
  message: "Delete this note?",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
});

const logged: string[] = [];
const logger: Logger = {
  debug: (message: string, fields?: LogFields) => logged.push(message, JSON.stringify(fields ?? {})),
  info: (message: string, fields?: LogFields) => logged.push(message, JSON.stringify(fields ?? {})),
  warn: (message: string, fields?: LogFields) => logged.push(message, JSON.stringify(fields ?? {})),
  error: (message: string, fields?: LogFields) => logged.push(message, String(fields?.error ?? "")),
};

/** A hook that knows tokens and their scopes only, as a user's lookup table might. */
function tokenOnly(request: AuthenticateRequest) {
  const token = request.headers.get("authorization")?.replace(/^Bearer /, "");
  if (token !== ALICE && token !== BOB) return new Response("unauthorized", { status: 401 });
  return { token, scopes: ["notes:write"] };
}

let handle: HttpServerHandle;

beforeAll(async () => {
  const mcp = new MCPServer("notes", { logger, legacyInputRequired: "fulfil" });
  mcp.tool("delete-note", { inputSchema: z.object({ id: z.string() }) }, ({ id }, ctx) => {
    const answer = readElicitation(ctx.inputResponses?.confirm, z.object({ ok: z.boolean() }));
    if (answer.status !== "accepted")
      return inputRequired({ inputRequests: { confirm: CONFIRM }, requestState: `delete:${id}` });
    return `${answer.content.ok ? "deleted" : "kept"} ${id}`;
  });
  handle = await serve(mcp, { port: 0, authenticate: tokenOnly });
});

afterAll(async () => {
  await handle?.close();
});

describe("an auth hook that gives a token and scopes but no identity", () => {
  it("binds requestState to the token: Bob cannot continue Alice's flow, Alice can", async () => {
    const first = await post(
      handle.url,
      modern("tools/call", { name: "delete-note", arguments: { id: "n1" } }),
      ALICE,
    );
    const requestState = first.body.result.requestState as string;
    expect(requestState).toMatch(/^v1\./);
    expect(Buffer.from(requestState, "latin1").toString()).not.toContain(ALICE);
    const retry = {
      name: "delete-note",
      arguments: { id: "n1" },
      inputResponses: { confirm: { action: "accept", content: { ok: true } } },
      requestState,
    };
    const stolen = await post(handle.url, modern("tools/call", retry), BOB);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
    const done = await post(handle.url, modern("tools/call", retry), ALICE);
    expect(done.body.result.content).toEqual([{ type: "text", text: "deleted n1" }]);
    expect(logged.join("\n")).not.toContain(ALICE);
    expect(logged.join("\n")).not.toContain(BOB);
  });

  it("binds a 2025-era session to the token: Bob's requests on Alice's session get 404", async () => {
    const opened = await post(handle.url, initialize(), ALICE);
    expect(opened.status).toBe(200);
    const headers = onSession(opened.sessionId as string);
    expect((await post(handle.url, legacy("tools/list"), ALICE, headers)).status).toBe(200);
    const hijack = await post(handle.url, legacy("tools/list"), BOB, headers);
    expect(hijack.status).toBe(404);
    expect(hijack.body.error.message).toBe("Session not found");
    expect(logged.join("\n")).not.toContain(ALICE);
  });
});
