import { Client } from "tsmcp/client";
import { listSkills, loadSkill, SkillVerificationError } from "tsmcp/skills";

/** Loads the `code-review` skill and the one file its instructions point to, both verified. */
export async function reviewInstructions(url: string | URL) {
  const client = await Client.connect(url);
  try {
    const listed = await listSkills(client); // entries with their manifests; no file is read
    const entry = listed.find((s) => s.frontmatter.name === "code-review");
    if (entry === undefined) return undefined;
    const loaded = await loadSkill(client, entry); // reads SKILL.md, checks size, digest, front matter
    const checklist = await loaded.readFile("references/checklist.md"); // only files the manifest lists
    return { instructions: loaded.body, checklist: checklist.text };
  } catch (error) {
    if (error instanceof SkillVerificationError) console.error(`refused (${error.reason}): ${error.uri}`);
    throw error;
  } finally {
    await client.close();
  }
}
