/**
 * Skills from a directory on disk, for `serveSkills`: every directory below the root that holds a
 * `SKILL.md` is a skill, its path relative to the root its skill path, and every file beneath it
 * (those of skills nested in it included) one of its files. Node.js only.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { type SkillSource, skillFromFiles } from "../extensions/skills/source.js";

/**
 * Reads every skill under `root`: each subdirectory holding a `SKILL.md` is a skill, at the skill
 * path relative to `root` (`root/code-review/SKILL.md` is served at `skill://code-review/SKILL.md`,
 * `root/acme/refunds/SKILL.md` at `skill://acme/refunds/SKILL.md`). Names starting with `.` and
 * symbolic links are skipped. The skills come in path order.
 *
 * @example
 * serveSkills(mcp, await skillsFromDirectory("./skills"));
 * @throws TypeError for a skill that breaks the rules (see `skillFromFiles`), or when `root`
 *   itself holds a `SKILL.md`; RangeError past the per-skill limits; the file system's errors
 *   (ENOENT for a missing `root`).
 */
export async function skillsFromDirectory(root: string): Promise<SkillSource[]> {
  if (typeof root !== "string" || root === "")
    throw new TypeError("skillsFromDirectory: root must be a path");
  const files = await walk(root);
  const paths = files.map((file) => relative(root, file).split(sep).join("/"));
  const skillDirs = paths
    .filter((p) => p === "SKILL.md" || p.endsWith("/SKILL.md"))
    .map((p) => p.slice(0, -9));
  if (skillDirs.includes(""))
    throw new TypeError(
      `skillsFromDirectory: ${root} holds a SKILL.md itself; put each skill in a subdirectory`,
    );
  const sources: SkillSource[] = [];
  for (const dir of skillDirs.map((d) => d.replace(/\/$/, "")).sort()) {
    const mine = new Map<string, Uint8Array>();
    for (const [index, path] of paths.entries()) {
      if (!path.startsWith(`${dir}/`)) continue;
      mine.set(path.slice(dir.length + 1), new Uint8Array(await readFile(files[index] as string)));
    }
    sources.push(skillFromFiles(dir, mine));
  }
  return sources;
}

/** Every regular file below `dir`, skipping dot-names and symbolic links. */
async function walk(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    const stat = await lstat(path);
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) found.push(...(await walk(path)));
    else if (stat.isFile()) found.push(path);
  }
  return found.sort();
}
