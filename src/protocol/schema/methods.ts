/**
 * Request params and results of every client -> server method of 2026-07-28, and the notifications
 * a server sends. Spec: schema/2026-07-28/schema.ts (ClientRequest, ServerResult, ServerNotification).
 */
import * as z from "zod";
import {
  CacheableSchema,
  CompleteResultBaseSchema,
  ImplementationSchema,
  JSONObjectSchema,
  LoggingLevelSchema,
  ProgressTokenSchema,
  RequestIdSchema,
  RequestMetaSchema,
  ResultBaseSchema,
  ServerCapabilitiesSchema,
} from "./base.js";
import {
  ContentBlockSchema,
  PromptMessageSchema,
  PromptSchema,
  ResourceContentsSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ToolSchema,
} from "./content.js";
import { InputResponsesSchema } from "./input.js";

// ---------------------------------------------------------------- params

/** Params every 2026-07-28 request has: the per-request `_meta`. */
export const RequestParamsSchema = z.looseObject({ _meta: RequestMetaSchema });
export type RequestParams = z.infer<typeof RequestParamsSchema>;

export const PaginatedRequestParamsSchema = RequestParamsSchema.extend({ cursor: z.string().optional() });
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** The retry fields of the three carrier methods. */
const retryFields = {
  inputResponses: InputResponsesSchema.optional(),
  requestState: z.string().optional(),
};

export const CallToolRequestParamsSchema = RequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  ...retryFields,
});
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

export const GetPromptRequestParamsSchema = RequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
  ...retryFields,
});
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

export const ReadResourceRequestParamsSchema = RequestParamsSchema.extend({
  uri: z.string(),
  ...retryFields,
});
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

export const PromptReferenceSchema = z.looseObject({
  type: z.literal("ref/prompt"),
  name: z.string(),
  title: z.string().optional(),
});
export const ResourceTemplateReferenceSchema = z.looseObject({
  type: z.literal("ref/resource"),
  uri: z.string(),
});

export const CompleteRequestParamsSchema = RequestParamsSchema.extend({
  ref: z.discriminatedUnion("type", [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** Which notification types a `subscriptions/listen` stream asks for. */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
});
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

export const SubscriptionsListenRequestParamsSchema = RequestParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});
export type SubscriptionsListenRequestParams = z.infer<typeof SubscriptionsListenRequestParamsSchema>;

// ---------------------------------------------------------------- results

/** Any result: `resultType` (absent = "complete") and `_meta`. */
export const ResultSchema = ResultBaseSchema;
export type Result = z.infer<typeof ResultSchema>;

const paginated = { nextCursor: z.string().optional() };

export const DiscoverResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
});
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

export const ListToolsResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  tools: z.array(ToolSchema),
});
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

export const CallToolResultSchema = CompleteResultBaseSchema.extend({
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

export const ListPromptsResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  prompts: z.array(PromptSchema),
});
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

export const GetPromptResultSchema = CompleteResultBaseSchema.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

export const ListResourcesResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  resources: z.array(ResourceSchema),
});
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

export const ListResourceTemplatesResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  resourceTemplates: z.array(ResourceTemplateSchema),
});
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

export const ReadResourceResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  contents: z.array(ResourceContentsSchema),
});
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

export const CompleteResultSchema = CompleteResultBaseSchema.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

export const SubscriptionsListenResultSchema = CompleteResultBaseSchema;
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

// ---------------------------------------------------------------- notifications (server -> client)

const notificationMeta = JSONObjectSchema.optional();

export const ProgressNotificationParamsSchema = z.looseObject({
  progressToken: ProgressTokenSchema,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
  _meta: notificationMeta,
});
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

export const LoggingMessageNotificationParamsSchema = z.looseObject({
  level: LoggingLevelSchema,
  logger: z.string().optional(),
  data: z.unknown(),
  _meta: notificationMeta,
});
export type LoggingMessageNotificationParams = z.infer<typeof LoggingMessageNotificationParamsSchema>;

export const CancelledNotificationParamsSchema = z.looseObject({
  requestId: RequestIdSchema,
  reason: z.string().optional(),
  _meta: notificationMeta,
});
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

export const SubscriptionsAcknowledgedParamsSchema = z.looseObject({
  notifications: SubscriptionFilterSchema,
  _meta: notificationMeta,
});

export const ResourceUpdatedNotificationParamsSchema = z.looseObject({
  uri: z.string(),
  _meta: notificationMeta,
});

/** The server's identity on a result's `_meta`. */
export const ServerInfoSchema = ImplementationSchema;
