/**
 * Content blocks, resources, prompts and tools as they appear on the wire.
 * Spec: schema/2026-07-28/schema.ts (ContentBlock, Resource, Prompt, Tool).
 */
import * as z from "zod";
import { AnnotationsSchema, IconSchema, JSONObjectSchema } from "./base.js";

const meta = JSONObjectSchema.optional();

export const TextContentSchema = z.looseObject({
  type: z.literal("text"),
  text: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
export type TextContent = z.infer<typeof TextContentSchema>;

export const ImageContentSchema = z.looseObject({
  type: z.literal("image"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
export type ImageContent = z.infer<typeof ImageContentSchema>;

export const AudioContentSchema = z.looseObject({
  type: z.literal("audio"),
  data: z.string(),
  mimeType: z.string(),
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
export type AudioContent = z.infer<typeof AudioContentSchema>;

export const TextResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  text: z.string(),
  _meta: meta,
});
export type TextResourceContents = z.infer<typeof TextResourceContentsSchema>;

export const BlobResourceContentsSchema = z.looseObject({
  uri: z.string(),
  mimeType: z.string().optional(),
  blob: z.string(),
  _meta: meta,
});
export type BlobResourceContents = z.infer<typeof BlobResourceContentsSchema>;

export const ResourceContentsSchema = z.union([TextResourceContentsSchema, BlobResourceContentsSchema]);
export type ResourceContents = z.infer<typeof ResourceContentsSchema>;

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
export type Resource = z.infer<typeof ResourceSchema>;

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
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

export const ResourceLinkSchema = ResourceSchema.extend({ type: z.literal("resource_link") });
export type ResourceLink = z.infer<typeof ResourceLinkSchema>;

export const EmbeddedResourceSchema = z.looseObject({
  type: z.literal("resource"),
  resource: ResourceContentsSchema,
  annotations: AnnotationsSchema.optional(),
  _meta: meta,
});
export type EmbeddedResource = z.infer<typeof EmbeddedResourceSchema>;

/** What a tool result or prompt message carries. */
export const ContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ResourceLinkSchema,
  EmbeddedResourceSchema,
]);
export type ContentBlock = z.infer<typeof ContentBlockSchema>;

export const PromptArgumentSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
});
export type PromptArgument = z.infer<typeof PromptArgumentSchema>;

export const PromptSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(PromptArgumentSchema).optional(),
  icons: z.array(IconSchema).optional(),
  _meta: meta,
});
export type Prompt = z.infer<typeof PromptSchema>;

export const RoleSchema = z.enum(["user", "assistant"]);
export type Role = z.infer<typeof RoleSchema>;

export const PromptMessageSchema = z.looseObject({ role: RoleSchema, content: ContentBlockSchema });
export type PromptMessage = z.infer<typeof PromptMessageSchema>;

export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

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
export type Tool = z.infer<typeof ToolSchema>;
