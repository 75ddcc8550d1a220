import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { skillsFromDirectory } from "./skills.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "tsmcp-skills-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string): Promise<void> {
  await mkdir(join(root, path, ".."), { recursive: true });
  await writeFile(join(root, path), text);
}

const md = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n# ${name}\n`;

describe("skillsFromDirectory", () => {
  it("finds every directory with a SKILL.md, prefixes and nested skills included, in path order", async () => {
    await put("pdf/SKILL.md", md("pdf"));
    await put("pdf/references/FORMS.md", "forms\n");
    await put("pdf/.cache/x", "hidden\n");
    await put("acme/billing/refunds/SKILL.md", md("refunds"));
    await put("acme/billing/refunds/inner/SKILL.md", md("inner"));
    await put("notes/README.md", "no skill here\n");
    await symlink(join(root, "notes/README.md"), join(root, "pdf/link.md"));
    const sources = await skillsFromDirectory(root);
    expect(sources.map((s) => [s.path, s.name, [...s.files.keys()]])).toEqual([
      ["acme/billing/refunds", "refunds", ["SKILL.md", "inner/SKILL.md"]],
      ["acme/billing/refunds/inner", "inner", ["SKILL.md"]],
      ["pdf", "pdf", ["SKILL.md", "references/FORMS.md"]],
    ]);
  });

  it("refuses a SKILL.md at the root and a skill whose directory is not its name", async () => {
    await put("SKILL.md", md("root"));
    await expect(skillsFromDirectory(root)).rejects.toThrow(/put each skill in a subdirectory/);
    await rm(join(root, "SKILL.md"));
    await put("wrong-dir/SKILL.md", md("pdf"));
    await expect(skillsFromDirectory(root)).rejects.toThrow(/must equal the name "pdf"/);
  });
});
