/**
 * tsmcp/skills: the Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) on both sides.
 * A server publishes skills, directories of instructions and supporting files, from code
 * (`skill`) or files (`skillFromFiles`; `skillsFromDirectory` in `tsmcp/node` reads them from
 * disk) with `serveSkills`; a client lists them (`listSkills`, `getSkill`) and loads one
 * (`loadSkill`), verified against its entry before any content is used. Runtime-neutral.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */

export {
  getSkill,
  LoadedSkill,
  type LoadSkillOptions,
  listSkills,
  loadSkill,
  MAX_SKILLS_PAGES,
  type SkillFile,
  SkillVerificationError,
  type SkillVerificationReason,
} from "./client.js";
export {
  isSkillName,
  type ParsedSkillMarkdown,
  parseSkillMarkdown,
  sha256Digest,
} from "./format.js";
export { DEFAULT_SKILL_SCHEME, skillEntry } from "./manifest.js";
export {
  DEFAULT_SKILLS_PAGE_SIZE,
  mimeTypeOf,
  type ServeSkillsOptions,
  serveSkills,
} from "./server.js";
export {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  type SkillDefinition,
  type SkillSource,
  skill,
  skillFromFiles,
} from "./source.js";
export {
  DIRECTORY_MIME_TYPE,
  GetSkillParamsSchema,
  type GetSkillResult,
  GetSkillResultSchema,
  ListSkillsParamsSchema,
  type ListSkillsResult,
  ListSkillsResultSchema,
  ReadResourceDirectoryParamsSchema,
  type ReadResourceDirectoryResult,
  ReadResourceDirectoryResultSchema,
  SKILL_DIGEST_PATTERN,
  SKILL_MD,
  SKILLS_EXTENSION_ID,
  type Skill,
  type SkillFrontmatter,
  SkillFrontmatterSchema,
  type SkillResource,
  SkillResourceSchema,
  SkillSchema,
  type SkillsServerSettings,
  SkillsServerSettingsSchema,
  skills,
} from "./wire.js";
