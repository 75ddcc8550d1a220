/**
 * Wire schemas shared by every method of the 2026-07-28 revision: JSON values, implementations,
 * capabilities, the per-request `_meta`, cache hints. Objects are loose: unknown keys pass through.
 * Spec: schema/2026-07-28/schema.ts.
 */
import * as z from "zod";
import { META } from "../versions.js";

/** Any JSON object. */
export const JSONObjectSchema = z.record(z.string(), z.unknown());

/** A request id: string or integer. */
export const RequestIdSchema = z.union([z.string(), z.int()]);

/** A progress token: string or integer. */
export const ProgressTokenSchema = z.union([z.string(), z.int()]);

/** An icon a client may render. */
export const IconSchema = z.looseObject({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(["light", "dark"]).optional(),
});

/** `Implementation`: who a client or server says it is (self-reported, for display and logs). */
export const ImplementationSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  websiteUrl: z.string().optional(),
  icons: z.array(IconSchema).optional(),
});
export type Implementation = z.infer<typeof ImplementationSchema>;

/** What a client can do, sent on every request. `elicitation: {}` means form mode only. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), JSONObjectSchema).optional(),
  roots: JSONObjectSchema.optional(),
  sampling: z
    .looseObject({ context: JSONObjectSchema.optional(), tools: JSONObjectSchema.optional() })
    .optional(),
  elicitation: z
    .looseObject({ form: JSONObjectSchema.optional(), url: JSONObjectSchema.optional() })
    .optional(),
  extensions: z.record(z.string(), JSONObjectSchema).optional(),
});
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** What a server offers, returned by `server/discover`. */
export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), JSONObjectSchema).optional(),
  logging: JSONObjectSchema.optional(),
  completions: JSONObjectSchema.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  extensions: z.record(z.string(), JSONObjectSchema).optional(),
});
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** Log levels, least to most severe (RFC 5424). */
export const LOGGING_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;
export const LoggingLevelSchema = z.enum(LOGGING_LEVELS);
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/**
 * The per-request `_meta` of 2026-07-28: protocol version and client capabilities are required,
 * client info, log level and progress token optional.
 */
export const RequestMetaSchema = z.looseObject({
  [META.protocolVersion]: z.string(),
  [META.clientCapabilities]: ClientCapabilitiesSchema,
  [META.clientInfo]: ImplementationSchema.optional(),
  [META.logLevel]: LoggingLevelSchema.optional(),
  [META.progressToken]: ProgressTokenSchema.optional(),
});
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

/** `_meta` on a result: the server's identity, plus anything else. */
export const ResultMetaSchema = z.looseObject({ [META.serverInfo]: ImplementationSchema.optional() });

/** Whether a result may be shared across authorization contexts. Spec: server/utilities/caching. */
export const CacheScopeSchema = z.enum(["public", "private"]);
export type CacheScope = z.infer<typeof CacheScopeSchema>;

/** `resultType`: "complete", "input_required", or an extension's value. */
export const ResultTypeSchema = z.string();

/** Fields every result has. A missing `resultType` (an older server) reads as "complete". */
export const ResultBaseSchema = z.looseObject({
  _meta: ResultMetaSchema.optional(),
  resultType: ResultTypeSchema.optional(),
});

/** Fields every complete result has: `resultType` is "complete" (absent from an older server). */
export const CompleteResultBaseSchema = ResultBaseSchema.extend({
  resultType: z.literal("complete").optional(),
});

/** Cache hints on the six cacheable results. */
export const CacheableSchema = z.looseObject({
  ttlMs: z.number().optional(),
  cacheScope: CacheScopeSchema.optional(),
});

/** Optional annotations on content and resources. */
export const AnnotationsSchema = z.looseObject({
  audience: z.array(z.enum(["user", "assistant"])).optional(),
  priority: z.number().min(0).max(1).optional(),
  lastModified: z.string().optional(),
});
