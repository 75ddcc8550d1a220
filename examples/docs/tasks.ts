/**
 * The servers of the tasks guide (`docs/tasks.md`): an `MCPServer` whose long-running tool runs as
 * a task of the tasks extension when the client allows it, a tool that only runs as one and asks
 * its question inside the task, a tool that asks a multi round-trip round before its task exists,
 * and a low-level `Server` that creates tasks with a `TaskManager`.
 * `examples/docs/tasks.test.ts` runs them over Streamable HTTP on 127.0.0.1.
 */
import { inputRequired, MCPServer, Server, TaskManager } from "tsmcp/server";
import * as z from "zod";

/** Waits `ms` milliseconds, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** The guide's `MCPServer`: `pageMs` is how long rendering one page of a report takes. */
export function createReportServer(pageMs = 50): MCPServer {
  const mcp = new MCPServer("reports", {
    tasks: { defaultTtlMs: 600_000, maxActivePerPrincipal: 5 },
  });

  mcp.tool(
    "build_report",
    {
      description: "Renders a report, one page at a time",
      inputSchema: z.object({ pages: z.number().int().min(1).max(100) }),
      task: "optional",
    },
    async ({ pages }, ctx) => {
      for (let page = 1; page <= pages; page++) {
        await pause(pageMs, ctx.signal);
        ctx.sendProgress({ progress: page, total: pages, message: `Rendered page ${page} of ${pages}` });
      }
      return `Report of ${pages} pages ready`;
    },
  );

  mcp.tool(
    "purge_archive",
    { description: "Empties the archive, once confirmed", task: "required" },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        mode: "form",
        message: "Purge every archived report?",
        requestedSchema: {
          type: "object",
          properties: { confirm: { type: "boolean" } },
          required: ["confirm"],
        },
      });
      if (answer.action !== "accept" || answer.content?.confirm !== true) return "Kept the archive";
      await ctx.task?.setStatusMessage("Purging");
      await pause(pageMs, ctx.signal);
      return "Purged the archive";
    },
  );

  mcp.tool("rebuild_index", { description: "Rebuilds a named index", task: "required" }, (_args, ctx) => {
    const answer = ctx.inputResponses?.index as { content?: { name?: string } } | undefined;
    if (answer?.content?.name === undefined) {
      return inputRequired({
        inputRequests: {
          index: {
            method: "elicitation/create",
            params: {
              mode: "form",
              message: "Which index?",
              requestedSchema: {
                type: "object",
                properties: { name: { type: "string" } },
                required: ["name"],
              },
            },
          },
        },
      });
    }
    return `Rebuilt the ${answer.content.name} index`;
  });

  return mcp;
}

/** The guide's low-level `Server`: `export` runs as a task when the request allows it. */
export function createExportServer(): Server {
  const tasks = new TaskManager({ maxActivePerPrincipal: 10 });
  return new Server("exports", {
    tasks,
    onListTools: () => ({ tools: [{ name: "export", inputSchema: { type: "object" } }] }),
    onCallTool: (ctx) => {
      if (!tasks.accepts(ctx)) return { content: [{ type: "text", text: "Exported (synchronously)" }] };
      return tasks.run(ctx, async (taskCtx, task) => {
        await task.setStatusMessage("Exporting rows");
        await pause(10, taskCtx.signal);
        return { content: [{ type: "text", text: "Exported" }] };
      });
    },
  });
}
