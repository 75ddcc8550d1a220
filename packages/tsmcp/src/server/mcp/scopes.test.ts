/**
 * `requiredScopes` on tools, prompts and resources, through the dispatcher with the identity an
 * auth layer would set: refused before the handler runs, hidden from lists only when asked.
 */
import { describe, expect, it } from "vitest";
import { rpc } from "../../../../../test/helpers/meta.js";
import type { JSONRPCErrorResponse, JSONRPCResultResponse } from "../../protocol/jsonrpc.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { silentLogger } from "../logger.js";
import { MCPServer } from "./server.js";

const READER: AuthInfo = { token: "r", clientId: "app", subject: "alice", scopes: ["notes:read"] };
const ADMIN: AuthInfo = {
  token: "a",
  clientId: "app",
  subject: "root",
  scopes: ["notes:read", "notes:admin"],
};

function notes(hideUnauthorized = false) {
  const ran: string[] = [];
  const mcp = new MCPServer("notes", { logger: silentLogger, hideUnauthorized });
  mcp.tool("read", {}, () => "read");
  mcp.tool("purge", { requiredScopes: ["notes:admin"] }, () => {
    ran.push("purge");
    return "purged";
  });
  mcp.prompt("audit", { requiredScopes: ["notes:admin"] }, () => "audit");
  mcp.resource("notes://all", { requiredScopes: ["notes:admin"] }, () => "everything");
  mcp.resource(
    "notes://{id}",
    { requiredScopes: ["notes:admin"], list: () => [{ uri: "notes://1" }] },
    ({ id }) => id,
  );
  mcp.resource("notes://public", {}, () => "public");
  return { mcp, ran };
}

async function send(mcp: MCPServer, method: string, params: Record<string, unknown>, auth?: AuthInfo) {
  return mcp.handle(rpc(method, params), {
    signal: new AbortController().signal,
    ...(auth === undefined ? {} : { auth }),
  });
}

const REFUSED = {
  code: -32600,
  message: "Forbidden: insufficient scope",
  data: { reason: "insufficient_scope", requiredScopes: ["notes:admin"] },
};

describe("requiredScopes", () => {
  it("refuses a tool, prompt or resource to a token without the scope, and to a request without a token, before the handler", async () => {
    const { mcp, ran } = notes();
    for (const auth of [READER, undefined]) {
      for (const [method, params] of [
        ["tools/call", { name: "purge" }],
        ["prompts/get", { name: "audit" }],
        ["resources/read", { uri: "notes://all" }],
        ["resources/read", { uri: "notes://7" }],
      ] as const) {
        const response = (await send(mcp, method, params, auth)) as JSONRPCErrorResponse;
        expect(response.error).toStrictEqual(REFUSED);
      }
    }
    expect(ran).toEqual([]);
    const allowed = (await send(mcp, "tools/call", { name: "purge" }, ADMIN)) as JSONRPCResultResponse;
    expect(allowed.result.content).toEqual([{ type: "text", text: "purged" }]);
    expect(
      ((await send(mcp, "resources/read", { uri: "notes://7" }, ADMIN)) as JSONRPCResultResponse).result
        .contents,
    ).toHaveLength(1);
  });

  it("lists everything by default (but a scoped template's items), and only what the token may use with hideUnauthorized", async () => {
    const names = async (mcp: MCPServer, auth: AuthInfo) => {
      const tools = (await send(mcp, "tools/list", {}, auth)) as JSONRPCResultResponse;
      const prompts = (await send(mcp, "prompts/list", {}, auth)) as JSONRPCResultResponse;
      const resources = (await send(mcp, "resources/list", {}, auth)) as JSONRPCResultResponse;
      const templates = (await send(mcp, "resources/templates/list", {}, auth)) as JSONRPCResultResponse;
      return {
        tools: (tools.result.tools as { name: string }[]).map((tool) => tool.name),
        prompts: (prompts.result.prompts as { name: string }[]).map((prompt) => prompt.name),
        resources: (resources.result.resources as { uri: string }[]).map((resource) => resource.uri),
        templates: (templates.result.resourceTemplates as { uriTemplate: string }[]).map(
          (t) => t.uriTemplate,
        ),
      };
    };
    expect(await names(notes().mcp, READER)).toStrictEqual({
      tools: ["read", "purge"],
      prompts: ["audit"],
      // The template's list callback never runs without its scopes: its items are what they protect.
      resources: ["notes://all", "notes://public"],
      templates: ["notes://{id}"],
    });
    expect(await names(notes(true).mcp, READER)).toStrictEqual({
      tools: ["read"],
      prompts: [],
      resources: ["notes://public"],
      templates: [],
    });
    expect((await names(notes(true).mcp, ADMIN)).tools).toEqual(["read", "purge"]);
  });

  it("refuses a registration whose requiredScopes are not scope tokens, and a non-boolean hideUnauthorized", () => {
    const mcp = new MCPServer("notes", { logger: silentLogger });
    expect(() => mcp.tool("bad", { requiredScopes: ["two words"] }, () => "")).toThrow(TypeError);
    expect(() => mcp.prompt("bad", { requiredScopes: "notes:read" as never }, () => "")).toThrow(TypeError);
    expect(() => mcp.resource("notes://bad", { requiredScopes: [1 as never] }, () => "")).toThrow(TypeError);
    expect(() => new MCPServer("notes", { hideUnauthorized: "yes" as never })).toThrow(TypeError);
  });
});
