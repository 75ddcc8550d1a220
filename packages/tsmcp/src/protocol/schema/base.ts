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
/**
 * The {@link ImplementationSchema} shape: `name` and `version` required; sent as `_meta` `clientInfo` by a
 * client and `serverInfo` by a server.
 */
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
/**
 * The {@link ClientCapabilitiesSchema} shape, sent in every request's
 * `_meta["io.modelcontextprotocol/clientCapabilities"]`; `{}` declares no optional capability. `roots` and
 * `sampling` are deprecated features.
 */
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
/**
 * The {@link ServerCapabilitiesSchema} shape, read from `DiscoverResult.capabilities`; a method behind a
 * capability the server does not advertise answers -32601.
 */
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
/**
 * One of {@link LOGGING_LEVELS}: the per-request `_meta["io.modelcontextprotocol/logLevel"]` and the `level`
 * of `notifications/message`. Spec: server/utilities/logging (deprecated feature).
 */
export const LoggingLevelSchema = z.enum(LOGGING_LEVELS);
/**
 * The {@link LoggingLevelSchema} shape: `"debug"` through `"emergency"`; a server answers an unknown level
 * with -32602.
 */
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
/**
 * The {@link RequestMetaSchema} shape, keyed by the reserved names of {@link META}. A request missing a
 * required key is refused with -32602 (HTTP 400). Spec: basic/index (per-request `_meta`).
 */
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

/** `_meta` on a result: the server's identity, plus anything else. */
export const ResultMetaSchema = z.looseObject({ [META.serverInfo]: ImplementationSchema.optional() });

/** Whether a result may be shared across authorization contexts. Spec: server/utilities/caching. */
export const CacheScopeSchema = z.enum(["public", "private"]);
/**
 * The {@link CacheScopeSchema} values: `"public"` (no user-specific data; any client or gateway may share it)
 * or `"private"` (reuse only within the same authorization context).
 */
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
