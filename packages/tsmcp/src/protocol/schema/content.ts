/**
 * Content blocks, resources, prompts and tools as they appear on the wire.
 * Spec: schema/2026-07-28/schema.ts (ContentBlock, Resource, Prompt, Tool).
 */
import * as z from "zod";
import { AnnotationsSchema, IconSchema, JSONObjectSchema } from "./base.js";

const meta = JSONObjectSchema.optional();

/**
 * A `text` content block: plain text in `text`, with optional `annotations` and `_meta`. Spec: server/tools,
 * server/prompts (ContentBlock).
 */
export const TextContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
/** The {@link TextContentSchema} shape (`type: "text"`). */
export type TextContent = z.infer<typeof TextContentSchema>;

/**
 * An `image` content block: the image bytes base64-encoded in `data` and their `mimeType`, both required.
 * Spec: server/tools, server/prompts (ContentBlock).
 */
export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
/** The {@link ImageContentSchema} shape (`type: "image"`); `data` stays base64 text, never decoded here. */
export type ImageContent = z.infer<typeof ImageContentSchema>;

/**
 * An `audio` content block: the audio bytes base64-encoded in `data` and their `mimeType`, both required.
 * Spec: server/tools, server/prompts (ContentBlock).
 */
export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
/** The {@link AudioContentSchema} shape (`type: "audio"`); `data` stays base64 text. */
export type AudioContent = z.infer<typeof AudioContentSchema>;

/**
 * A resource's contents as text: its `uri`, an optional `mimeType`, and `text`. One entry of
 * `resources/read`'s `contents`. Spec: server/resources.
 */
export const TextResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string(),
  _meta: meta,
});
/** The {@link TextResourceContentsSchema} shape: has `text`, never `blob`. */
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

/**
 * A resource's contents as binary: its `uri`, an optional `mimeType`, and the bytes base64-encoded in `blob`.
 * Spec: server/resources.
 */
export const BlobResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  blob: z.string(),
  _meta: meta,
});
/** The {@link BlobResourceContentsSchema} shape: has `blob` (base64), never `text`. */
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

/**
 * One resource's contents, text ({@link TextResourceContentsSchema}) or binary ({@link
 * BlobResourceContentsSchema}): an entry of `ReadResourceResult.contents` or the body of an embedded
 * resource. Spec: server/resources.
 */
export const ResourceContentsSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);
/**
 * The {@link ResourceContentsSchema} union; tell the two apart with `"text" in contents` or `"blob" in
 * contents`.
 */
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

/**
 * A resource as `resources/list` lists it: `uri` and `name` required; `size` in bytes; `annotations` with
 * audience, priority (0 to 1) and `lastModified` (ISO 8601). Spec: server/resources.
 */
export const ResourceSchema = z.looseObject({
  uri: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  size: z.number().optional(),
  icons: z.array(IconSchema).optional(),
  _meta: meta,
});
/**
 * The {@link ResourceSchema} shape: a description of a resource, not its contents (read those with
 * `resources/read`).
 */
export type Resource = z.infer<typeof ResourceSchema>;

/**
 * A parameterised resource as `resources/templates/list` lists it: `uriTemplate` is an RFC 6570 URI template;
 * `name` required. Spec: server/resources §Resource Templates.
 */
export const ResourceTemplateSchema = z.looseObject({
  uriTemplate: z.string(),
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  annotations: AnnotationsSchema.optional(),
  icons: z.array(IconSchema).optional(),
  _meta: meta,
});
/**
 * The {@link ResourceTemplateSchema} shape; a client expands `uriTemplate` and reads the result with
 * `resources/read`.
 */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

/**
 * A `resource_link` content block: the {@link ResourceSchema} fields plus `type`, a reference to a resource
 * rather than its contents. Spec: server/tools (ContentBlock).
 */
export const ResourceLinkSchema = ResourceSchema.extend({ type: z.literal("resource_link") });
/** The {@link ResourceLinkSchema} shape (`type: "resource_link"`). */
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

/**
 * A `resource` content block: one resource's contents inline in `resource` (a `uri` with `text` or `blob`),
 * with optional `annotations`. Spec: server/tools, server/prompts (ContentBlock).
 */
export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: ResourceContentsSchema,
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
/** The {@link EmbeddedResourceSchema} shape (`type: "resource"`). */
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** What a tool result or prompt message carries. */
export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
/**
 * The {@link ContentBlockSchema} union, discriminated by `type`: `"text"`, `"image"`, `"audio"`,
 * `"resource_link"` or `"resource"`.
 */
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

/**
 * One argument a prompt accepts: `name`, optional `title` and `description`, and whether it is `required`.
 * Spec: server/prompts.
 */
export const PromptArgumentSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
/** The {@link PromptArgumentSchema} shape; `prompts/get` passes argument values as strings. */
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

/**
 * A prompt as `prompts/list` lists it: `name` required, optional `title`, `description`, `icons` and the
 * `arguments` it accepts. Spec: server/prompts.
 */
export const PromptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  icons: z.array(IconSchema).optional(),
  _meta: meta,
});
/** The {@link PromptSchema} shape; fetch its messages with `prompts/get`. */
export type Prompt = z.infer<typeof PromptSchema>;

/**
 * Who speaks a prompt or sampling message: `"user"` or `"assistant"`. Spec: server/prompts, client/sampling.
 */
export const RoleSchema = z.enum(["user", "assistant"]);
/** The {@link RoleSchema} values: `"user"` or `"assistant"`. */
export type Role = z.infer<typeof RoleSchema>;

/**
 * One message of a `prompts/get` result: a `role` and exactly one content block (not an array). Spec:
 * server/prompts.
 */
export const PromptMessageSchema = z.looseObject({ role: RoleSchema, content: ContentBlockSchema });
/** The {@link PromptMessageSchema} shape. */
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

/**
 * Hints about a tool: a display `title` and `readOnlyHint`, `destructiveHint`, `idempotentHint`,
 * `openWorldHint`. A client treats them as untrusted unless it trusts the server. Spec: server/tools.
 */
export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
/** The {@link ToolAnnotationsSchema} shape: advisory only, never a security guarantee. */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/**
 * A tool as `tools/list` lists it: `name`, `inputSchema` (a JSON Schema, 2020-12 when `$schema` is absent,
 * root `type: "object"`), and an optional `outputSchema` (any JSON Schema) that `structuredContent` must
 * match. Spec: server/tools.
 */
export const ToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ $schema: z.string().optional(), type: z.literal("object") }),
  outputSchema: z.looseObject({ $schema: z.string().optional() }).optional(),
  annotations: ToolAnnotationsSchema.optional(),
  icons: z.array(IconSchema).optional(),
  _meta: meta,
});
/** The {@link ToolSchema} shape; its display name is `title`, else `annotations.title`, else `name`. */
export type Tool = z.infer<typeof ToolSchema>;
