/**
 * An MCP App: a counter whose UI, a `ui://` HTML resource, the host renders in a sandboxed iframe.
 * `show_counter` (seen by the model) opens it; `increment` (for the app only) is what its button
 * calls back through the host. A client without MCP Apps gets the text of each result instead.
 */
import { readFileSync } from "node:fs";
import { appResource, appTool } from "tsmcp/apps";
import { MCPServer } from "tsmcp/server";
import * as z from "zod";

/** The counter's UI: an HTML5 document that speaks the MCP Apps protocol to its host. */
const COUNTER_HTML = readFileSync(new URL("./counter.html", import.meta.url), "utf8");

/** Builds the counter server; `calls()` says how many times `increment` ran. */
export function createCounterServer(): { mcp: MCPServer; calls: () => number } {
  const mcp = new MCPServer("counter", { version: "1.0.0" });
  let count = 0;
  let increments = 0;

  appResource(
    mcp,
    "ui://counter/view",
    { name: "counter-view", description: "The counter, with a button", ui: { prefersBorder: true } },
    COUNTER_HTML,
  );

  const Count = z.object({ count: z.number().int() });
  appTool(
    mcp,
    "show_counter",
    {
      description: "Shows the counter",
      outputSchema: Count,
      ui: { resourceUri: "ui://counter/view" },
    },
    () => ({ count }),
  );
  appTool(
    mcp,
    "increment",
    {
      description: "Adds to the counter",
      inputSchema: z.object({ by: z.number().int().min(1) }),
      outputSchema: Count,
      ui: { resourceUri: "ui://counter/view", visibility: ["app"] },
    },
    ({ by }) => {
      increments += 1;
      count += by;
      return { count };
    },
  );
  return { mcp, calls: () => increments };
}
