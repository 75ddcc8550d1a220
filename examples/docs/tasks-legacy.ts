/**
 * The 2025-11-25 section of the tasks guide: one `MCPServer` tool declared with `task`, which a
 * 2026-07-28 client reaches through the tasks extension and a 2025-11-25 session through that
 * revision's core tasks (`params.task`, `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`),
 * and a handshake-era client that calls it as a task. `examples/docs/tasks-legacy.test.ts` runs both
 * over Streamable HTTP on 127.0.0.1.
 */
import { Client } from "tsmcp/client";
import { MCPServer } from "tsmcp/server";
import type { CallToolResult } from "tsmcp/types";
import * as z from "zod";

/** The export server: `export` runs as a task and asks for a confirmation inside it. */
export function exportServer(): MCPServer {
  const mcp = new MCPServer("exports", { tasks: { maxTtlMs: 6 * 3_600_000 } });
  mcp.tool(
    "export",
    { inputSchema: z.object({ table: z.string() }), task: "optional" },
    async ({ table }, ctx) => {
      await ctx.task?.setStatusMessage(`exporting ${table}`);
      // On a 2025-11-25 session this question reaches the client while it waits on tasks/result.
      const answer = await ctx.elicit({
        mode: "form",
        message: `Include deleted rows of ${table}?`,
        requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
      });
      return `exported ${table}${answer.content?.ok === true ? " with deleted rows" : ""}`;
    },
  );
  return mcp;
}

/** A handshake-era client that runs `export` as a task, asking to keep it for an hour. */
export async function exportAsTask(url: string | URL, table: string): Promise<CallToolResult> {
  const client = await Client.connect(url, {
    protocolVersion: "legacy",
    elicitationCallback: async () => ({ action: "accept", content: { ok: true } }),
  });
  try {
    const task = await client.callTool("export", { table }, { task: { ttlMs: 3_600_000 } });
    return await task.result(); // tasks/get, then tasks/result while the question is answered
  } finally {
    await client.close();
  }
}
