import { skillsFromDirectory } from "tsmcp/node";
import { MCPServer } from "tsmcp/server";
import { serveSkills, skill } from "tsmcp/skills";

/** A server publishing one skill written in code and every skill found under `folder`. */
export async function createSkillsServer(folder: string): Promise<MCPServer> {
  const mcp = new MCPServer("team-skills");
  const review = skill({
    name: "code-review",
    description: "Review code using the team's checklist.",
    instructions: "# Code review\n\nRead `references/checklist.md`, then review the diff.\n",
    files: { "references/checklist.md": "# Checklist\n\nCheck correctness, tests and compatibility.\n" },
  });
  // Every file becomes a resource; skills/list and skills/get answer with digests of those bytes.
  return serveSkills(mcp, [review, ...(await skillsFromDirectory(folder))], { directoryRead: true });
}
