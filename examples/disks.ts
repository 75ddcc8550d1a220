/**
 * One tool for clients of both eras, asking directly: on a handshake-era (2025-11-25) session
 * `ctx.elicit` sends `elicitation/create` over the session and waits for the answer; at 2026-07-28
 * the handler returns an `InputRequiredResult` and reads the answer from the retry. `main` calls it
 * with the official 1.x SDK client (`@modelcontextprotocol/sdk`), which registers a handler for
 * the server's `elicitation/create` requests.
 *
 * Run it: `npm run example -- disks` (serves on a free 127.0.0.1 port, calls `wipe`, prints the
 * result, stops).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { serve } from "tsmcp/node";
import { elicitationRequest, inputRequired, MCPServer } from "tsmcp/server";
import type { ElicitRequestFormParams, ElicitResult } from "tsmcp/types";
import * as z from "zod";

const ASK_OK: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { ok: { type: "boolean" } },
  required: ["ok"],
};

/** Builds the server with its `wipe` tool. */
export function createDisksServer(): MCPServer {
  const mcp = new MCPServer("disks", { version: "1.0.0" });
  mcp.tool("wipe", { inputSchema: z.object({ disk: z.string() }) }, async ({ disk }, ctx) => {
    const ask = { message: `Wipe ${disk}?`, requestedSchema: ASK_OK };
    const answer =
      ctx.session !== undefined
        ? await ctx.elicit(ask) // 2025 era: a server -> client request on the session
        : (ctx.inputResponses?.ok as ElicitResult | undefined); // 2026-07-28: the retry's answers
    if (answer === undefined) return inputRequired({ inputRequests: { ok: elicitationRequest(ask) } });
    return answer.action === "accept" && answer.content?.ok === true ? `Wiped ${disk}` : "Kept";
  });
  return mcp;
}

/** Serves the server, calls `wipe` with the official 1.x client, prints the result, stops. */
export async function main(): Promise<void> {
  const mcp = createDisksServer();
  const handle = await serve(mcp); // a free port on 127.0.0.1; pass { port: 3000 } to pick one
  try {
    const app = { name: "legacy-app", version: "1.0.0" };
    const client = new Client(app, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { ok: true } }));
    await client.connect(new StreamableHTTPClientTransport(handle.url));
    console.log(await client.callTool({ name: "wipe", arguments: { disk: "sdb" } }));
    await client.close();
  } finally {
    await handle.close();
    await mcp.close();
  }
}
