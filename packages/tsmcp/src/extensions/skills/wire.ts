/**
 * The Skills extension (`io.modelcontextprotocol/skills`, SEP-2640) on the wire: its declaration
 * (`skills/list`, `skills/get`, `resources/directory/read`, the `directoryRead` setting) and the
 * schemas of its entries. A skill is a directory of files served as resources (`skill://...`); an
 * entry carries its `SKILL.md` URI, its front matter verbatim and a manifest of every file with a
 * SHA-256 digest and a byte size.
 * Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
import * as z from "zod";
import { defineExtension } from "../../protocol/extension.js";
import { CacheableSchema } from "../../protocol/schema/base.js";
import { ResourceSchema } from "../../protocol/schema/content.js";

/** The extension identifier, the key under `capabilities.extensions` on both sides. */
export const SKILLS_EXTENSION_ID = "io.modelcontextprotocol/skills";

/** The file name every skill has at its root. */
export const SKILL_MD = "SKILL.md";

/** The MIME type of a directory resource (`resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** The settings a server advertises: `directoryRead` (default `false`) when it serves `resources/directory/read`. */
export const SkillsServerSettingsSchema = z.looseObject({ directoryRead: z.boolean().optional() });
/** The {@link SkillsServerSettingsSchema} shape: `{ directoryRead?: boolean }`. */
export type SkillsServerSettings = z.infer<typeof SkillsServerSettingsSchema>;

/** `sha256:` and 64 lowercase hexadecimal digits: the SHA-256 of a file's raw bytes. */
export const SKILL_DIGEST_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** One file of a skill: its resource URI, the SHA-256 `digest` of its raw bytes and its `size` in bytes. */
export const SkillResourceSchema = z.looseObject({
  uri: z.string(),
  digest: z.string().regex(SKILL_DIGEST_PATTERN, "digest must be sha256: and 64 lowercase hex digits"),
  size: z.number().int().nonnegative(),
});
/** The {@link SkillResourceSchema} shape. */
export type SkillResource = z.infer<typeof SkillResourceSchema>;

/** A skill's `SKILL.md` front matter as a JSON object: `name` and `description` always, every other field verbatim. */
export const SkillFrontmatterSchema = z.looseObject({ name: z.string(), description: z.string() });
/** The {@link SkillFrontmatterSchema} shape. */
export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

/**
 * One skill: `uri` of its `SKILL.md`, its `frontmatter`, and `resources`: the complete manifest
 * (`SKILL.md` included) or `"dynamic"` for generated content that has no stable digests.
 */
export const SkillSchema = z.looseObject({
  uri: z.string(),
  frontmatter: SkillFrontmatterSchema,
  resources: z.union([z.array(SkillResourceSchema), z.literal("dynamic")]),
});
/** The {@link SkillSchema} shape: an entry of `skills/list`, or `skills/get`'s `skill`. */
export type Skill = z.infer<typeof SkillSchema>;

/** `skills/list` params: an optional `cursor` from the previous page's `nextCursor`. */
export const ListSkillsParamsSchema = z.looseObject({ cursor: z.string().optional() });
/** `skills/list` result: `skills` and, when more follow, `nextCursor`; cacheable. */
export const ListSkillsResultSchema = CacheableSchema.extend({
  skills: z.array(SkillSchema),
  nextCursor: z.string().optional(),
});
/** The {@link ListSkillsResultSchema} shape. */
export type ListSkillsResult = z.infer<typeof ListSkillsResultSchema>;

/** `skills/get` params: the `uri` of a skill's `SKILL.md`. */
export const GetSkillParamsSchema = z.looseObject({ uri: z.string() });
/** `skills/get` result: the one `skill`; cacheable, no cursor. */
export const GetSkillResultSchema = CacheableSchema.extend({ skill: SkillSchema });
/** The {@link GetSkillResultSchema} shape. */
export type GetSkillResult = z.infer<typeof GetSkillResultSchema>;

/** `resources/directory/read` params: a directory `uri` (no trailing slash) and an optional `cursor`. */
export const ReadResourceDirectoryParamsSchema = z.looseObject({
  uri: z.string(),
  cursor: z.string().optional(),
});
/** `resources/directory/read` result: the direct children (`inode/directory` for subdirectories). */
export const ReadResourceDirectoryResultSchema = z.looseObject({
  resources: z.array(ResourceSchema),
  nextCursor: z.string().optional(),
});
/** The {@link ReadResourceDirectoryResultSchema} shape. */
export type ReadResourceDirectoryResult = z.infer<typeof ReadResourceDirectoryResultSchema>;

/**
 * The Skills extension's declaration: register it on a server with `serveSkills` (or
 * `mcp.extension(skills, ...)`), read skills on a client with `listSkills`, `getSkill` and
 * `loadSkill`. `skills/list` and `skills/get` are cacheable; a server's declaration alone lets a
 * client call them. Spec: https://modelcontextprotocol.io/extensions/skills/overview
 */
export const skills = defineExtension({
  id: SKILLS_EXTENSION_ID,
  serverSettings: SkillsServerSettingsSchema,
  methods: {
    "skills/list": { params: ListSkillsParamsSchema, result: ListSkillsResultSchema, cacheable: true },
    "skills/get": { params: GetSkillParamsSchema, result: GetSkillResultSchema, cacheable: true },
    "resources/directory/read": {
      params: ReadResourceDirectoryParamsSchema,
      result: ReadResourceDirectoryResultSchema,
    },
  },
});
