/**
 * `tsmcp skills <target> [name-or-uri]`: the server's skills (Skills extension,
 * `io.modelcontextprotocol/skills`). Without a skill, lists the entries (`skills/list`; nothing is
 * read). With one (its URI, or a name the listing holds once), loads it: reads its `SKILL.md` and
 * verifies it against its entry (size, SHA-256 digest, front matter) before printing it; a skill
 * that fails is not printed, and the command exits 1 naming the check.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
import type { Client } from "tsmcp/client";
import { listSkills, loadSkill, type Skill, skills } from "tsmcp/skills";
import { type Output, print, printJson } from "./commands.js";
import { note } from "./connect.js";
import { EXIT_FAILURE, EXIT_OK, UsageError } from "./target.js";

/** Lists the server's skills, or loads and prints one, verified. Returns the exit code. */
export async function skillsCommand(
  client: Client,
  skill: string | undefined,
  output: Output,
): Promise<number> {
  if (!client.supportsExtension(skills)) {
    if (skill !== undefined) {
      note("this server does not offer skills (it declares no io.modelcontextprotocol/skills extension)");
      return EXIT_FAILURE;
    }
    output.json ? printJson({ skills: [] }) : print("this server offers no skills");
    return EXIT_OK;
  }
  if (skill === undefined) {
    const entries = await listSkills(client);
    output.json
      ? printJson({ skills: entries })
      : print(entries.length === 0 ? "(no skills)" : renderSkills(entries));
    return EXIT_OK;
  }
  const target = skill.includes("://") ? skill : await byName(client, skill);
  const loaded = await loadSkill(client, target);
  if (output.json) {
    printJson({ skill: loaded.entry, text: loaded.text });
  } else {
    const files = loaded.files.length;
    note(
      `verified ${loaded.uri} (${files === 0 ? "dynamic: front matter only" : `${files} file(s) in its manifest`})`,
    );
    print(loaded.text.replace(/\n$/, ""));
  }
  return EXIT_OK;
}

/** The entry of the one listed skill named `name`. */
async function byName(client: Client, name: string): Promise<Skill> {
  const matches = (await listSkills(client)).filter((entry) => entry.frontmatter.name === name);
  if (matches.length === 1) return matches[0] as Skill;
  if (matches.length === 0)
    throw new UsageError(`the server lists no skill named ${JSON.stringify(name)}; pass its SKILL.md URI`);
  throw new UsageError(
    `${matches.length} skills are named ${JSON.stringify(name)}; pass one URI: ${matches.map((m) => m.uri).join(", ")}`,
  );
}

/** One block per skill: name and URI, then the description and the number of files. */
function renderSkills(entries: readonly Skill[]): string {
  return entries
    .map((entry) => {
      const files = entry.resources === "dynamic" ? "dynamic" : `${entry.resources.length} file(s)`;
      return `${entry.frontmatter.name}  ${entry.uri}\n  ${entry.frontmatter.description} [${files}]`;
    })
    .join("\n");
}
