/**
 * The task tools of the 2025-11-25 task tests, on one `MCPServer` served to both eras: `crunch
 * {label}` ("optional"), `confirm` ("required": asks `Delete everything?` with `ctx.elicit` inside
 * the task), `idle` ("optional": runs until cancelled), `explode` ("optional": fails with the
 * JSON-RPC error -32050), `oops` ("optional": answers an `isError` result), `pid` (no task support).
 * Run as a stdio server: `node --import tsx test/e2e/legacy-task-server.ts`.
 */
import { fileURLToPath } from "node:url";
import * as z from "zod";
import { McpError } from "../../packages/tsmcp/src/protocol/errors.js";
import { silentLogger } from "../../packages/tsmcp/src/protocol/index.js";
import { MCPServer } from "../../packages/tsmcp/src/server/index.js";
import { serveStdio } from "../../packages/tsmcp/src/stdio/index.js";

/** The JSON-RPC error code `explode` fails with. */
export const EXPLODE_CODE = -32050;

/** The task server; `pollIntervalMs` is the interval it suggests to clients. */
export function legacyTaskServer(options: { pollIntervalMs?: number } = {}): MCPServer {
  const mcp = new MCPServer("legacy-tasks", {
    logger: silentLogger,
    tasks: { pollIntervalMs: options.pollIntervalMs ?? 20 },
  });
  mcp.tool(
    "crunch",
    { inputSchema: z.object({ label: z.string() }), task: "optional" },
    async ({ label }, ctx) => {
      await ctx.task?.setStatusMessage(`crunching ${label}`);
      return `crunched ${label}`;
    },
  );
  mcp.tool("confirm", { task: "required" }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: "form",
      message: "Delete everything?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return answer.action === "accept" && answer.content?.ok === true ? "deleted" : "kept";
  });
  mcp.tool("idle", { task: "optional" }, async (_args, ctx) => {
    await new Promise<never>((_resolve, reject) => {
      ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason), { once: true });
    });
    return "never";
  });
  mcp.tool("explode", { task: "optional" }, () => {
    throw new McpError(EXPLODE_CODE, "The reactor exploded", { core: "breached" });
  });
  mcp.tool("oops", { task: "optional" }, () => ({
    content: [{ type: "text" as const, text: "the tool failed" }],
    isError: true,
  }));
  mcp.tool("pid", {}, () => String(process.pid));
  return mcp;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serveStdio(legacyTaskServer());
}
