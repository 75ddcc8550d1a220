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
/**
 * The {@link RequestParamsSchema} shape: `_meta` is required, so every 2026-07-28 request carries `params`.
 * Spec: basic/index (per-request `_meta`).
 */
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/**
 * Params of the four list methods (`tools/list`, `prompts/list`, `resources/list`,
 * `resources/templates/list`): an opaque `cursor` from the previous page's `nextCursor`. Spec:
 * server/utilities/pagination.
 */
export const PaginatedRequestParamsSchema = RequestParamsSchema.extend({ cursor: z.string().optional() });
/**
 * The {@link PaginatedRequestParamsSchema} shape; no `cursor` asks for the first page, and an empty-string
 * cursor is a valid cursor.
 */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** The retry fields of the three carrier methods. */
const retryFields = {
  inputResponses: InputResponsesSchema.optional(),
  requestState: z.string().optional(),
};

/**
 * `tools/call` params: the tool `name`, its `arguments` object, and on an MRTR retry `inputResponses` and the
 * echoed `requestState`. Spec: server/tools, basic/patterns/mrtr.
 */
export const CallToolRequestParamsSchema = RequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  ...retryFields,
});
/** The {@link CallToolRequestParamsSchema} shape; an unknown `name` answers -32602. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/**
 * `prompts/get` params: the prompt `name`, its `arguments` (string values only), and on an MRTR retry
 * `inputResponses` and the echoed `requestState`. Spec: server/prompts, basic/patterns/mrtr.
 */
export const GetPromptRequestParamsSchema = RequestParamsSchema.extend({
  name: z.string(),
  arguments: z.record(z.string(), z.string()).optional(),
  ...retryFields,
});
/**
 * The {@link GetPromptRequestParamsSchema} shape; an unknown `name` or a missing required argument answers
 * -32602.
 */
export type GetPromptRequestParams = z.infer<typeof GetPromptRequestParamsSchema>;

/**
 * `resources/read` params: the resource `uri`, and on an MRTR retry `inputResponses` and the echoed
 * `requestState`. Spec: server/resources, basic/patterns/mrtr.
 */
export const ReadResourceRequestParamsSchema = RequestParamsSchema.extend({
  uri: z.string(),
  ...retryFields,
});
/**
 * The {@link ReadResourceRequestParamsSchema} shape; a resource that does not exist answers -32602 with
 * `data.uri`.
 */
export type ReadResourceRequestParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/**
 * A `completion/complete` reference to a prompt by `name` (`type: "ref/prompt"`). Spec:
 * server/utilities/completion.
 */
export const PromptReferenceSchema = z.looseObject({
  type: z.literal("ref/prompt"),
  name: z.string(),
  title: z.string().optional(),
});
/**
 * A `completion/complete` reference to a resource or resource template by `uri` (`type: "ref/resource"`).
 * Spec: server/utilities/completion.
 */
export const ResourceTemplateReferenceSchema = z.looseObject({
  type: z.literal("ref/resource"),
  uri: z.string(),
});

/**
 * `completion/complete` params: the `ref` (prompt or resource template), the `argument` being typed (`name`,
 * partial `value`), and the other arguments' values in `context`. Spec: server/utilities/completion.
 */
export const CompleteRequestParamsSchema = RequestParamsSchema.extend({
  ref: z.discriminatedUnion("type", [PromptReferenceSchema, ResourceTemplateReferenceSchema]),
  argument: z.looseObject({ name: z.string(), value: z.string() }),
  context: z.looseObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
/** The {@link CompleteRequestParamsSchema} shape; needs the server's `completions` capability. */
export type CompleteRequestParams = z.infer<typeof CompleteRequestParamsSchema>;

/** Which notification types a `subscriptions/listen` stream asks for. */
export const SubscriptionFilterSchema = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
  /** The tasks extension: `notifications/tasks` for these task ids (needs the extension declared). */
  taskIds: z.array(z.string()).optional(),
});
/**
 * The {@link SubscriptionFilterSchema} shape: `toolsListChanged`, `promptsListChanged`,
 * `resourcesListChanged`, the URIs of `resourceSubscriptions`, and the tasks extension's `taskIds`.
 * Spec: basic/patterns/subscriptions, https://github.com/modelcontextprotocol/ext-tasks (tasks.md
 * §Task Status Notifications).
 */
export type SubscriptionFilter = z.infer<typeof SubscriptionFilterSchema>;

/**
 * `subscriptions/listen` params: the `notifications` filter (required). The stream lives as long as this
 * request. Spec: basic/patterns/subscriptions.
 */
export const SubscriptionsListenRequestParamsSchema = RequestParamsSchema.extend({
  notifications: SubscriptionFilterSchema,
});
/**
 * The {@link SubscriptionsListenRequestParamsSchema} shape; the request's JSON-RPC id becomes the
 * subscription id.
 */
export type SubscriptionsListenRequestParams = z.infer<typeof SubscriptionsListenRequestParamsSchema>;

// ---------------------------------------------------------------- results

/** Any result: `resultType` (absent = "complete") and `_meta`. */
export const ResultSchema = ResultBaseSchema;
/**
 * The {@link ResultSchema} shape; any `resultType` besides "complete" and "input_required" comes from an
 * advertised extension.
 */
export type Result = z.infer<typeof ResultSchema>;

const paginated = { nextCursor: z.string().optional() };

/**
 * `server/discover` result: `supportedVersions`, `capabilities`, optional `instructions`, and cache hints;
 * the server's identity rides in `_meta`, not at the top level. Spec: server/discover.
 */
export const DiscoverResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
});
/** The {@link DiscoverResultSchema} shape; never an `InputRequiredResult`. */
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/**
 * `tools/list` result: one page of `tools`, `nextCursor` when more follow, and cache hints. Spec:
 * server/tools, server/utilities/pagination, server/utilities/caching.
 */
export const ListToolsResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  tools: z.array(ToolSchema),
});
/** The {@link ListToolsResultSchema} shape; only an absent `nextCursor` ends the list. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/**
 * `tools/call` complete result: `content` blocks, optional `structuredContent` (any JSON value, matching the
 * tool's `outputSchema`) and `isError` for a tool-level failure. Not cacheable. Spec: server/tools.
 */
export const CallToolResultSchema = CompleteResultBaseSchema.extend({
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
/**
 * The {@link CallToolResultSchema} shape; `isError: true` is a result for the model to see, not a JSON-RPC
 * error.
 */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/**
 * `prompts/list` result: one page of `prompts`, `nextCursor` when more follow, and cache hints. Spec:
 * server/prompts, server/utilities/pagination, server/utilities/caching.
 */
export const ListPromptsResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  prompts: z.array(PromptSchema),
});
/** The {@link ListPromptsResultSchema} shape; only an absent `nextCursor` ends the list. */
export type ListPromptsResult = z.infer<typeof ListPromptsResultSchema>;

/**
 * `prompts/get` complete result: the prompt's `messages` and an optional `description`. Not cacheable. Spec:
 * server/prompts.
 */
export const GetPromptResultSchema = CompleteResultBaseSchema.extend({
  description: z.string().optional(),
  messages: z.array(PromptMessageSchema),
});
/** The {@link GetPromptResultSchema} shape. */
export type GetPromptResult = z.infer<typeof GetPromptResultSchema>;

/**
 * `resources/list` result: one page of `resources`, `nextCursor` when more follow, and cache hints. Spec:
 * server/resources, server/utilities/pagination, server/utilities/caching.
 */
export const ListResourcesResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  resources: z.array(ResourceSchema),
});
/** The {@link ListResourcesResultSchema} shape; only an absent `nextCursor` ends the list. */
export type ListResourcesResult = z.infer<typeof ListResourcesResultSchema>;

/**
 * `resources/templates/list` result: one page of `resourceTemplates`, `nextCursor` when more follow, and
 * cache hints. Spec: server/resources, server/utilities/pagination, server/utilities/caching.
 */
export const ListResourceTemplatesResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  ...paginated,
  resourceTemplates: z.array(ResourceTemplateSchema),
});
/** The {@link ListResourceTemplatesResultSchema} shape; only an absent `nextCursor` ends the list. */
export type ListResourceTemplatesResult = z.infer<typeof ListResourceTemplatesResultSchema>;

/**
 * `resources/read` complete result: the `contents` (several for, say, a directory) and cache hints. Spec:
 * server/resources, server/utilities/caching.
 */
export const ReadResourceResultSchema = CompleteResultBaseSchema.extend({
  ...CacheableSchema.shape,
  contents: z.array(ResourceContentsSchema),
});
/**
 * The {@link ReadResourceResultSchema} shape; a missing resource is a -32602 error, never empty `contents`.
 */
export type ReadResourceResult = z.infer<typeof ReadResourceResultSchema>;

/**
 * `completion/complete` result: `completion.values` (at most 100), the optional `total` number of matches and
 * `hasMore`. Spec: server/utilities/completion.
 */
export const CompleteResultSchema = CompleteResultBaseSchema.extend({
  completion: z.looseObject({
    values: z.array(z.string()).max(100),
    total: z.int().optional(),
    hasMore: z.boolean().optional(),
  }),
});
/** The {@link CompleteResultSchema} shape; not cacheable, never an `InputRequiredResult`. */
export type CompleteResult = z.infer<typeof CompleteResultSchema>;

/**
 * `subscriptions/listen` result, sent when the server ends the stream: a complete result whose `_meta`
 * carries the subscription id. Spec: basic/patterns/subscriptions.
 */
export const SubscriptionsListenResultSchema = CompleteResultBaseSchema;
/**
 * The {@link SubscriptionsListenResultSchema} shape; a stream lost with the transport ends with no result.
 */
export type SubscriptionsListenResult = z.infer<typeof SubscriptionsListenResultSchema>;

// ---------------------------------------------------------------- notifications (server -> client)

const notificationMeta = JSONObjectSchema.optional();

/**
 * `notifications/progress` params: the request's `progressToken`, `progress` (increases every time, may be
 * fractional), optional `total` and `message`. Sent only on that request's response stream. Spec:
 * basic/patterns/progress.
 */
export const ProgressNotificationParamsSchema = z.looseObject({
  progressToken: ProgressTokenSchema,
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
  _meta: notificationMeta,
});
/** The {@link ProgressNotificationParamsSchema} shape. */
export type ProgressNotificationParams = z.infer<typeof ProgressNotificationParamsSchema>;

/**
 * `notifications/message` params: `level`, optional `logger` name, and any JSON `data`. Only for a request
 * that set `_meta` `logLevel`, at or above that level. Spec: server/utilities/logging (deprecated feature).
 */
export const LoggingMessageNotificationParamsSchema = z.looseObject({
  level: LoggingLevelSchema,
  logger: z.string().optional(),
  data: z.unknown(),
  _meta: notificationMeta,
});
/** The {@link LoggingMessageNotificationParamsSchema} shape. */
export type LoggingMessageNotificationParams = z.infer<typeof LoggingMessageNotificationParamsSchema>;

/**
 * `notifications/cancelled` params: the `requestId` (required) of the request to cancel and an optional
 * `reason`. A client sends it on stdio; a server sends it only to end a `subscriptions/listen` stream. Spec:
 * basic/patterns/cancellation.
 */
export const CancelledNotificationParamsSchema = z.looseObject({
  requestId: RequestIdSchema,
  reason: z.string().optional(),
  _meta: notificationMeta,
});
/** The {@link CancelledNotificationParamsSchema} shape; a receiver may ignore an unknown or finished id. */
export type CancelledNotificationParams = z.infer<typeof CancelledNotificationParamsSchema>;

/**
 * `notifications/subscriptions/acknowledged` params: the subset of the requested `notifications` filter the
 * server honours; the first message of every listen stream. Spec: basic/patterns/subscriptions.
 */
export const SubscriptionsAcknowledgedParamsSchema = z.looseObject({
  notifications: SubscriptionFilterSchema,
  _meta: notificationMeta,
});

/**
 * `notifications/resources/updated` params: the `uri` that changed (possibly a sub-resource of the one
 * subscribed to), sent on a listen stream with `resourceSubscriptions`. Spec: basic/patterns/subscriptions,
 * server/resources.
 */
export const ResourceUpdatedNotificationParamsSchema = z.looseObject({
  uri: z.string(),
  _meta: notificationMeta,
});

/** The server's identity on a result's `_meta`. */
export const ServerInfoSchema = ImplementationSchema;
