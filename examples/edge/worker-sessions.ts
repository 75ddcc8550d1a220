/**
 * The edge server as a Cloudflare Worker that also asks handshake-era (2025-11-25) clients: each
 * such session lives in its own Durable Object (`McpSession`), where the HTTP handler keeps the
 * session, so a tool's question (elicitation, here) and the client's answer meet in one object.
 * 2026-07-28 requests are served by the Worker itself, statelessly. Needs the `nodejs_compat`
 * compatibility flag, the `STATE_KEY` secret, the `MCP_HOSTNAME` variable and the Durable Object
 * binding of `wrangler.toml` beside this file.
 */
import { elicitationRequest, inputRequired, type MCPServer } from "tsmcp/server";
import type { ElicitResult } from "tsmcp/types";
import {
  createSessionObject,
  createSessionRouter,
  type DurableObjectNamespaceLike,
  type SessionRouter,
} from "tsmcp/workers";
import { createEdgeServer } from "./provisioning.js";

/** The bindings this worker reads. */
export interface Env {
  readonly STATE_KEY: string;
  /** The hostname clients reach this worker at, such as `mcp.example.com`. */
  readonly MCP_HOSTNAME: string;
  /** The Durable Object namespace of `McpSession`. */
  readonly MCP_SESSIONS: DurableObjectNamespaceLike;
}

/** The edge server, plus a `wipe` tool that asks with `ctx.elicit` on a session. */
function createServer(env: Env): MCPServer {
  const mcp = createEdgeServer(env.STATE_KEY);
  mcp.tool(
    "wipe",
    { inputSchema: { type: "object", properties: { disk: { type: "string" } } } },
    async (args, ctx) => {
      const ask = {
        message: `Wipe ${String(args.disk)}?`,
        requestedSchema: { type: "object" as const, properties: { ok: { type: "boolean" as const } } },
      };
      const answer =
        ctx.session !== undefined
          ? await ctx.elicit(ask) // 2025 era: asked over the session, in its Durable Object
          : (ctx.inputResponses?.ok as ElicitResult | undefined); // 2026-07-28: the retry's answers
      if (answer === undefined) return inputRequired({ inputRequests: { ok: elicitationRequest(ask) } });
      return answer.action === "accept" && answer.content?.ok === true
        ? `Wiped ${String(args.disk)}`
        : "Kept";
    },
  );
  return mcp;
}

/** The Durable Object class (`class_name = "McpSession"`): one object per handshake-era session. */
export class McpSession extends createSessionObject(createServer, (env: Env) => ({
  allowedHosts: [env.MCP_HOSTNAME],
})) {}

let router: SessionRouter | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    router ??= createSessionRouter({
      sessions: env.MCP_SESSIONS,
      handler: createServer(env).httpHandler({ allowedHosts: [env.MCP_HOSTNAME] }),
    });
    return router(request);
  },
};
