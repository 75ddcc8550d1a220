/** The Skills guide's server and client, over Streamable HTTP on 127.0.0.1. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { listSkills } from "tsmcp/skills";
import { describe, expect, it, onTestFinished } from "vitest";
import { warningOfProcessLocalKey } from "../../test/helpers/logs.js";
import { reviewInstructions } from "./skills-client.js";
import { createSkillsServer } from "./skills-server.js";

async function served(): Promise<URL> {
  const folder = await mkdtemp(join(tmpdir(), "tsmcp-docs-skills-"));
  await mkdir(join(folder, "pdf-processing"));
  await writeFile(
    join(folder, "pdf-processing/SKILL.md"),
    "---\nname: pdf-processing\ndescription: Fill PDF forms.\n---\n\n# PDF\n",
  );
  const mcp = await createSkillsServer(folder);
  const handle = await warningOfProcessLocalKey(() => serve(mcp, { host: "127.0.0.1", port: 0 }));
  onTestFinished(async () => {
    await handle.close();
    mcp.close();
    await rm(folder, { recursive: true, force: true });
  });
  return handle.url;
}

describe("the Skills guide", () => {
  it("serves a skill from code and one from a folder; the client loads one and its file, verified", async () => {
    const url = await served();
    const client = await Client.connect(url);
    expect((await listSkills(client)).map((s) => s.uri)).toEqual([
      "skill://code-review/SKILL.md",
      "skill://pdf-processing/SKILL.md",
    ]);
    await client.close();
    expect(await reviewInstructions(url)).toEqual({
      instructions: "\n# Code review\n\nRead `references/checklist.md`, then review the diff.\n",
      checklist: "# Checklist\n\nCheck correctness, tests and compatibility.\n",
    });
  });
});
