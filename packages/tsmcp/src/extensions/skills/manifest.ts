/**
 * A served skill's entry: the URIs of its files and the manifest computed from the bytes served
 * (SHA-256 digest and size of each). Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
import { sha256Digest } from "./format.js";
import type { SkillSource } from "./source.js";
import { SKILL_MD, type Skill } from "./wire.js";

/** The URI scheme skills are served under when none is chosen: `skill`. */
export const DEFAULT_SKILL_SCHEME = "skill";

/** `<scheme>://<path>`, each segment percent-encoded where a URI needs it. */
export function skillPathUri(scheme: string, path: string): string {
  return `${scheme}://${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** The resource URI of `file` (relative to the skill's root) of `source`. */
export function skillFileUri(scheme: string, source: SkillSource, file: string): string {
  return skillPathUri(scheme, `${source.path}/${file}`);
}

/**
 * The entry of `source` under `scheme`: the `SKILL.md` URI, the front matter verbatim, and every
 * file (`SKILL.md` first) with the digest and size of its bytes.
 */
export async function skillEntry(source: SkillSource, scheme: string = DEFAULT_SKILL_SCHEME): Promise<Skill> {
  const files = [SKILL_MD, ...[...source.files.keys()].filter((file) => file !== SKILL_MD)];
  const resources = await Promise.all(
    files.map(async (file) => {
      const bytes = source.files.get(file) as Uint8Array;
      return {
        uri: skillFileUri(scheme, source, file),
        digest: await sha256Digest(bytes),
        size: bytes.byteLength,
      };
    }),
  );
  return {
    uri: skillFileUri(scheme, source, SKILL_MD),
    frontmatter: structuredClone(source.frontmatter),
    resources,
  };
}
