/**
 * Where a server's skills come from: {@link skill} builds one from code (its front matter fields,
 * its instructions and supporting files), {@link skillFromFiles} from the files of a skill
 * directory (what `skillsFromDirectory` in `tsmcp/node` reads from disk). Both check the skill at
 * construction: a `SKILL.md` with YAML front matter naming it, a name that follows the Agent Skills
 * rules and equals the last segment of its path, relative file paths, and the per-skill limits.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
import { stringify as stringifyYaml } from "yaml";
import { isSkillName, parseSkillMarkdown, utf8 } from "./format.js";
import { SKILL_MD, type SkillFrontmatter } from "./wire.js";

/** The most files a skill should have, `SKILL.md` included (hosts must accept up to this): 512. */
export const MAX_SKILL_FILES = 512;
/** The most bytes a skill's files should add up to (hosts must accept up to this): 16 MiB. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024;

/** A skill ready to serve: its path, name, front matter and every file's bytes. */
export interface SkillSource {
  /**
   * Its skill path: the organizational prefix, if any, and the name, `/`-separated
   * (`acme/billing/refunds`). The `SKILL.md` is served at `skill://<path>/SKILL.md`.
   */
  readonly path: string;
  /** Its name (the front matter's `name`, the last segment of `path`). */
  readonly name: string;
  /** Its `SKILL.md` front matter, every field as written. */
  readonly frontmatter: SkillFrontmatter;
  /** Every file by its path relative to the skill's root (`SKILL.md`, `references/FORMS.md`), raw bytes. */
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** What {@link skill} takes. */
export interface SkillDefinition {
  /** The skill's name: 1 to 64 lowercase letters, digits and hyphens (no hyphen first, last or doubled). */
  name: string;
  /** What the skill does and when to use it, for the model choosing among skills. */
  description: string;
  /** The Markdown instructions: the body of `SKILL.md` after its front matter. */
  instructions: string;
  /** Further front matter fields (`license`, `compatibility`, `metadata`, ...), written as given. */
  frontmatter?: Record<string, unknown>;
  /** An organizational prefix of path segments before the name (`acme/billing`). Default none. */
  prefix?: string;
  /** Supporting files by their path relative to the skill's root; text is served as UTF-8. */
  files?: Readonly<Record<string, string | Uint8Array>>;
}

/**
 * A skill from code: writes its `SKILL.md` (the front matter as YAML, then `instructions`) and
 * takes the supporting `files` as given.
 *
 * @example
 * const review = skill({
 *   name: "code-review",
 *   description: "Review code using the team's checklist.",
 *   instructions: "# Code review\n\nRead `references/checklist.md`, then review the diff.\n",
 *   files: { "references/checklist.md": "# Review checklist\n\nCheck correctness and tests.\n" },
 * });
 * @throws TypeError for a bad name, an empty description, front matter that repeats `name` or
 *   `description`, or a bad file path (see {@link skillFromFiles}); RangeError past the limits.
 */
export function skill(definition: SkillDefinition): SkillSource {
  if (typeof definition !== "object" || definition === null)
    throw new TypeError("skill: expected { name, description, instructions, ... }");
  const { name, description, instructions, frontmatter = {}, prefix, files = {} } = definition;
  if (typeof instructions !== "string") throw new TypeError(`skill(${name}): instructions must be a string`);
  if (typeof frontmatter !== "object" || frontmatter === null || Array.isArray(frontmatter))
    throw new TypeError(`skill(${name}): frontmatter must be an object`);
  if ("name" in frontmatter || "description" in frontmatter)
    throw new TypeError(`skill(${name}): give name and description as their own options, not in frontmatter`);
  if (Object.hasOwn(files, SKILL_MD))
    throw new TypeError(`skill(${name}): SKILL.md is written from instructions; it is not one of files`);
  if (prefix !== undefined && (typeof prefix !== "string" || !validPath(prefix)))
    throw new TypeError(
      `skill(${name}): prefix ${JSON.stringify(prefix)} is not a /-separated relative path`,
    );
  const yaml = stringifyYaml({ name, description, ...frontmatter }, { lineWidth: 0 });
  const markdown = `---\n${yaml}---\n\n${instructions}`;
  return skillFromFiles(prefix === undefined ? name : `${prefix}/${name}`, {
    ...files,
    [SKILL_MD]: markdown,
  });
}

/**
 * A skill from the files of its directory: `path` is its skill path (`acme/billing/refunds`),
 * `files` every file by its path relative to the skill's root, `SKILL.md` included.
 *
 * @throws TypeError when `SKILL.md` is missing, its front matter does not parse or lacks a string
 *   `name` and a non-empty `description`, the name breaks the naming rules or differs from the
 *   last segment of `path`, or a path is not a plain relative path (no `.`, `..`, empty segment
 *   or backslash); RangeError past {@link MAX_SKILL_FILES} files or {@link MAX_SKILL_BYTES} bytes.
 */
export function skillFromFiles(
  path: string,
  files: Readonly<Record<string, string | Uint8Array>> | ReadonlyMap<string, string | Uint8Array>,
): SkillSource {
  if (typeof path !== "string" || !validPath(path))
    throw new TypeError(`skill: path ${JSON.stringify(path)} is not a /-separated relative path`);
  const entries = files instanceof Map ? [...files.entries()] : Object.entries(files);
  const bytes = new Map<string, Uint8Array>();
  let total = 0;
  for (const [file, content] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!validPath(file))
      throw new TypeError(
        `skill ${path}: file path ${JSON.stringify(file)} is not a /-separated relative path`,
      );
    if (typeof content !== "string" && !(content instanceof Uint8Array))
      throw new TypeError(`skill ${path}: ${file} must be a string or a Uint8Array`);
    const raw = typeof content === "string" ? utf8(content) : new Uint8Array(content);
    total += raw.byteLength;
    bytes.set(file, raw);
  }
  const skillMd = bytes.get(SKILL_MD);
  if (skillMd === undefined) throw new TypeError(`skill ${path}: it has no ${SKILL_MD}`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(skillMd);
  } catch {
    throw new TypeError(`skill ${path}: ${SKILL_MD} is not UTF-8`);
  }
  const parsed = parseSkillMarkdown(text);
  if (typeof parsed === "string") throw new TypeError(`skill ${path}: ${parsed}`);
  const { name, description } = parsed.frontmatter;
  if (typeof name !== "string" || !isSkillName(name))
    throw new TypeError(
      `skill ${path}: front matter name ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and hyphens, no hyphen first, last or doubled`,
    );
  if (typeof description !== "string" || description.trim() === "")
    throw new TypeError(`skill ${path}: front matter needs a non-empty description`);
  const last = path.slice(path.lastIndexOf("/") + 1);
  if (last !== name)
    throw new TypeError(`skill ${path}: the last path segment "${last}" must equal the name "${name}"`);
  if (bytes.size > MAX_SKILL_FILES)
    throw new RangeError(`skill ${path}: ${bytes.size} files, more than ${MAX_SKILL_FILES}`);
  if (total > MAX_SKILL_BYTES)
    throw new RangeError(`skill ${path}: ${total} bytes, more than ${MAX_SKILL_BYTES}`);
  return Object.freeze({
    path,
    name,
    frontmatter: parsed.frontmatter as SkillFrontmatter,
    files: bytes,
  });
}

/** A plain relative path: non-empty segments, none `.` or `..`, no backslash or template brace. */
function validPath(path: string): boolean {
  if (path === "" || /[\\{}]/.test(path)) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}
