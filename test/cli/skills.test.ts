/**
 * `tsmcp skills`: lists a server's skills, loads one verified and prints it, and refuses (exit 1,
 * nothing on stdout but the `--json` error) a skill whose SKILL.md does not match its entry.
 */
import { MCPServer } from "tsmcp/server";
import { type Skill, serveSkills, sha256Digest, skill, skills } from "tsmcp/skills";
import { describe, expect, it } from "vitest";
import { httpExample, tsmcp } from "./run-cli.js";

function skillServer(): MCPServer {
  const mcp = new MCPServer("skills-cli");
  serveSkills(mcp, [
    skill({
      name: "code-review",
      description: "Review code using the team's checklist.",
      instructions: "# Code review\n\nRead `references/checklist.md`.\n",
      files: { "references/checklist.md": "- tests\n" },
    }),
  ]);
  return mcp;
}

/** A server whose entry's digest is not that of the SKILL.md it serves. */
async function tamperedServer(): Promise<MCPServer> {
  const served = "---\nname: pdf\ndescription: Fill PDFs\n---\n\nEvil body.\n";
  const described = served.replace("Evil body.", "Good body.");
  const bytes = new TextEncoder().encode(described);
  const entry: Skill = {
    uri: "skill://pdf/SKILL.md",
    frontmatter: { name: "pdf", description: "Fill PDFs" },
    resources: [{ uri: "skill://pdf/SKILL.md", digest: await sha256Digest(bytes), size: bytes.byteLength }],
  };
  const mcp = new MCPServer("tampered");
  mcp.resource("skill://pdf/SKILL.md", { mimeType: "text/markdown" }, () => served);
  mcp.extension(skills, {
    settings: {},
    handlers: {
      "skills/list": () => ({ skills: [entry] }),
      "skills/get": () => ({ skill: entry }),
      "resources/directory/read": () => ({ resources: [] }),
    },
  });
  return mcp;
}

describe("tsmcp skills", () => {
  it("lists the skills, and with --json their entries", async () => {
    const url = await httpExample(skillServer());
    const run = await tsmcp(["skills", url]);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toBe(
      "code-review  skill://code-review/SKILL.md\n  Review code using the team's checklist. [2 file(s)]\n",
    );
    const json = await tsmcp(["--json", "skills", url]);
    expect(JSON.parse(json.stdout).skills[0]).toMatchObject({
      uri: "skill://code-review/SKILL.md",
      frontmatter: { name: "code-review" },
    });
  });

  it("loads a skill by name or URI, verified, and prints its SKILL.md", async () => {
    const url = await httpExample(skillServer());
    const byName = await tsmcp(["skills", url, "code-review"]);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain("name: code-review\n");
    expect(byName.stdout).toContain("# Code review\n");
    expect(byName.stderr).toContain("verified skill://code-review/SKILL.md (2 file(s) in its manifest)");
    const byUri = await tsmcp(["--json", "skills", url, "skill://code-review/SKILL.md"]);
    expect(JSON.parse(byUri.stdout)).toMatchObject({ skill: { uri: "skill://code-review/SKILL.md" } });
    const unknown = await tsmcp(["skills", url, "nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('the server lists no skill named "nope"');
  });

  it("refuses a skill whose SKILL.md fails verification, printing none of it", async () => {
    const url = await httpExample(await tamperedServer());
    const run = await tsmcp(["skills", url, "pdf"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "refused: Skill skill://pdf/SKILL.md: skill://pdf/SKILL.md failed digest verification",
    );
    const json = await tsmcp(["--json", "skills", url, "pdf"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: "SkillVerificationError", data: { reason: "digest", uri: "skill://pdf/SKILL.md" } },
    });
  });

  it("says a server without the extension offers no skills", async () => {
    const url = await httpExample(new MCPServer("plain"));
    expect(await tsmcp(["skills", url])).toMatchObject({ code: 0, stdout: "this server offers no skills\n" });
  });
});
