/**
 * The conformance everything-server: every fixture the official suite calls (the table in
 * `reference/conformance.md`) on one `MCPServer`, served over Streamable HTTP at
 * `http://127.0.0.1:$PORT/mcp` (PORT default 3000), one endpoint for 2026-07-28 requests and
 * 2025-11-25 sessions. `requestState` is sealed (the MCPServer default), so a tampered token is
 * refused. Run: `PORT=3000 npm run conformance:server`.
 */
import { serve } from "tsmcp/node";
import { MCPServer } from "tsmcp/server";
import { registerPrompts, registerResources } from "./everything-prompts-resources.js";
import { registerTools } from "./everything-tools.js";

/** Builds the everything-server. */
function createEverythingServer(): MCPServer {
  // The multi-round-trip fixtures hand-build InputRequiredResults; on a 2025-era session they are
  // fulfilled over the back-channel, so every tool works in both eras.
  const mcp = new MCPServer("tsmcp-conformance", { version: "0.1.0", legacyInputRequired: "fulfil" });
  registerTools(mcp);
  registerPrompts(mcp);
  registerResources(mcp);
  return mcp;
}

const handle = await serve(createEverythingServer(), {
  host: "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
});
console.log(`conformance server listening on ${handle.url}`);
