/**
 * The conformance everything-server: every fixture the official suite calls (the table in
 * `reference/conformance.md`) on one `MCPServer`, served over Streamable HTTP at
 * `http://127.0.0.1:$PORT/mcp` (PORT default 3000), one endpoint for 2026-07-28 requests and
 * 2025-11-25 sessions. `requestState` is sealed (the MCPServer default), so a tampered token is
 * refused. It also serves the Skills extension with `directoryRead` (the `sep-2640-*` scenarios):
 * one skill read from `test/conformance/skills/` and one written in code. Run:
 * `PORT=3000 npm run conformance:server`.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve, skillsFromDirectory } from "tsmcp/node";
import { MCPServer } from "tsmcp/server";
import { serveSkills, skill } from "tsmcp/skills";
import { registerPrompts, registerResources } from "./everything-prompts-resources.js";
import { registerTools } from "./everything-tools.js";

/** The skills folder beside this file (run from source) or under test/conformance (built). */
function skillsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const beside = join(here, "skills");
  return existsSync(beside) ? beside : join(here, "../test/conformance/skills");
}

/** Builds the everything-server. */
async function createEverythingServer(): Promise<MCPServer> {
  // The multi-round-trip fixtures hand-build InputRequiredResults; on a 2025-era session they are
  // fulfilled over the back-channel, so every tool works in both eras.
  const mcp = new MCPServer("tsmcp-conformance", { version: "0.1.0", legacyInputRequired: "fulfil" });
  registerTools(mcp);
  registerPrompts(mcp);
  registerResources(mcp);
  const reviewSkill = skill({
    name: "code-review",
    description: "Review code using the team's checklist.",
    prefix: "acme",
    instructions: "# Code review\n\nRead `references/checklist.md`, then review the diff.\n",
    files: {
      "references/checklist.md": "# Review checklist\n\nCheck correctness, tests, and compatibility.\n",
    },
  });
  serveSkills(mcp, [...(await skillsFromDirectory(skillsFolder())), reviewSkill], { directoryRead: true });
  return mcp;
}

const handle = await serve(await createEverythingServer(), {
  host: "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
});
console.log(`conformance server listening on ${handle.url}`);
