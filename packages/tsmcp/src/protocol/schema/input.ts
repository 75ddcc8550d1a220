/**
 * Multi Round-Trip Requests on the wire: the three kinds of input request a server may embed in an
 * `InputRequiredResult` (elicitation, sampling, roots), their responses, and the result itself.
 * Spec: basic/patterns/mrtr, client/elicitation, client/sampling, client/roots.
 */
import * as z from "zod";
import { JSONObjectSchema, ResultBaseSchema } from "./base.js";
import {
  AudioContentSchema,
  ContentBlockSchema,
  ImageContentSchema,
  RoleSchema,
  TextContentSchema,
  ToolSchema,
} from "./content.js";

const meta = JSONObjectSchema.optional();

// ---------------------------------------------------------------- elicitation

const described = { title: z.string().optional(), description: z.string().optional() };

/**
 * A string field of a form: optional `minLength`/`maxLength` (characters), `format` (`"email"`, `"uri"`,
 * `"date"`, `"date-time"`) and `default`. Spec: client/elicitation §Requested Schema.
 */
export const StringSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...described,
  minLength: z.int().min(0).optional(),
  maxLength: z.int().min(0).optional(),
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
  default: z.string().optional(),
});
/**
 * A numeric field of a form: `type` `"number"` or `"integer"`, optional `minimum`, `maximum` and `default`.
 * Spec: client/elicitation §Requested Schema.
 */
export const NumberSchemaSchema = z.looseObject({
  type: z.enum(["number", "integer"]),
  ...described,
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
/** A yes/no field of a form, with an optional `default`. Spec: client/elicitation §Requested Schema. */
export const BooleanSchemaSchema = z.looseObject({
  type: z.literal("boolean"),
  ...described,
  default: z.boolean().optional(),
});
/**
 * A single choice among `enum` strings (shown as they are), with an optional `default`; also accepts the
 * legacy `enumNames` display titles. Spec: client/elicitation §Requested Schema.
 */
export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...described,
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
/**
 * A single choice among `oneOf` options, each a `const` value with a display `title`, and an optional
 * `default`. Spec: client/elicitation §Requested Schema.
 */
export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...described,
  oneOf: z.array(z.looseObject({ const: z.string(), title: z.string() })),
  default: z.string().optional(),
});
/**
 * A multiple choice (`type: "array"`) among `items.enum` strings, with optional `minItems`/`maxItems` and a
 * `default` list. Spec: client/elicitation §Requested Schema.
 */
export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  ...described,
  minItems: z.int().min(0).optional(),
  maxItems: z.int().min(0).optional(),
  items: z.looseObject({ type: z.literal("string"), enum: z.array(z.string()) }),
  default: z.array(z.string()).optional(),
});
/**
 * A multiple choice (`type: "array"`) among `items.anyOf` options, each a `const` value with a display
 * `title`, with optional `minItems`/`maxItems` and `default`. Spec: client/elicitation §Requested Schema.
 */
export const TitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  ...described,
  minItems: z.int().min(0).optional(),
  maxItems: z.int().min(0).optional(),
  items: z.looseObject({ anyOf: z.array(z.looseObject({ const: z.string(), title: z.string() })) }),
  default: z.array(z.string()).optional(),
});

/** One property of a form's `requestedSchema`: a primitive or an enum, never nested. */
export const PrimitiveSchemaDefinitionSchema = z.union([
  UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
]);
/** The {@link PrimitiveSchemaDefinitionSchema} union: one string, number, boolean or enum field of a form. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/** A form's schema: a flat object of primitive properties. */
export const RequestedSchemaSchema = z.looseObject({
  $schema: z.string().optional(),
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.array(z.string()).optional(),
});
/**
 * The {@link RequestedSchemaSchema} shape: `type: "object"`, flat `properties`, and the `required` keys.
 * Spec: client/elicitation §Requested Schema.
 */
export type RequestedSchema = z.infer<typeof RequestedSchemaSchema>;

/** Form-mode elicitation; a missing `mode` means form. */
export const ElicitRequestFormParamsSchema = z.looseObject({
  mode: z.literal("form").optional(),
  message: z.string(),
  requestedSchema: RequestedSchemaSchema,
  _meta: meta,
});
/**
 * The {@link ElicitRequestFormParamsSchema} shape: the `message` to show and the `requestedSchema` of the
 * form. Spec: client/elicitation.
 */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** URL-mode elicitation: the user completes an interaction out of band, then the client retries. */
export const ElicitRequestURLParamsSchema = z.looseObject({
  mode: z.literal("url"),
  message: z.string(),
  url: z.string(),
  _meta: meta,
});
/**
 * The {@link ElicitRequestURLParamsSchema} shape: the `message` and the `url` to open, only with the client's
 * `elicitation.url` capability. Spec: client/elicitation.
 */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/**
 * The params of an embedded `elicitation/create`: URL mode when `mode` is `"url"`, form mode otherwise. Spec:
 * client/elicitation.
 */
export const ElicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
/** The {@link ElicitRequestParamsSchema} union; narrow it on `mode === "url"`. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/**
 * An `elicitation/create` input request: ask the user through a form or a URL. Needs the client's
 * `elicitation` capability. Spec: client/elicitation, basic/patterns/mrtr.
 */
export const ElicitRequestSchema = z.looseObject({
  method: z.literal("elicitation/create"),
  params: ElicitRequestParamsSchema,
});
/** The {@link ElicitRequestSchema} shape (`method: "elicitation/create"`). */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** The user's answer; `content` only with `accept` in form mode. */
export const ElicitResultSchema = z.looseObject({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]))
    .optional(),
  _meta: meta,
});
/**
 * The {@link ElicitResultSchema} shape: `action` `"accept"`, `"decline"` or `"cancel"`; a URL-mode accept is
 * consent only (the interaction happens out of band).
 */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

// ---------------------------------------------------------------- sampling (deprecated feature)

/**
 * A `tool_use` block of a sampling message: the model calls tool `name` with `input`, under an `id` the
 * matching `tool_result` names. Spec: client/sampling (deprecated feature).
 */
export const ToolUseContentSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: JSONObjectSchema,
  _meta: meta,
});
/** The {@link ToolUseContentSchema} shape (`type: "tool_use"`). */
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

/**
 * A `tool_result` block of a sampling message: the result of the `tool_use` whose `id` is `toolUseId`, as
 * content blocks, optional `structuredContent` and `isError`. Spec: client/sampling (deprecated feature).
 */
export const ToolResultContentSchema = z.looseObject({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: meta,
});
/**
 * The {@link ToolResultContentSchema} shape (`type: "tool_result"`); a user message with tool results carries
 * only tool results.
 */
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

/**
 * A content block of a sampling message, discriminated by `type`: `"text"`, `"image"`, `"audio"`,
 * `"tool_use"` or `"tool_result"`. Spec: client/sampling (deprecated feature).
 */
export const SamplingMessageContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
/** The {@link SamplingMessageContentBlockSchema} union. */
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

/**
 * One message of a `sampling/createMessage` conversation: a `role` and one content block or an array of them.
 * Spec: client/sampling (deprecated feature).
 */
export const SamplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: z.union([SamplingMessageContentBlockSchema, z.array(SamplingMessageContentBlockSchema)]),
  _meta: meta,
});
/** The {@link SamplingMessageSchema} shape; `content` may be a single block or an array. */
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

/**
 * The server's model preferences for sampling: `hints` (model names, evaluated in order) and `costPriority`,
 * `speedPriority`, `intelligencePriority`, each 0 to 1. Spec: client/sampling (deprecated feature).
 */
export const ModelPreferencesSchema = z.looseObject({
  hints: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  costPriority: z.number().min(0).max(1).optional(),
  speedPriority: z.number().min(0).max(1).optional(),
  intelligencePriority: z.number().min(0).max(1).optional(),
});
/** The {@link ModelPreferencesSchema} shape; advisory, the client picks the model. */
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

/**
 * How the model may use the offered `tools`: `mode` `"auto"`, `"required"` or `"none"`. Only with the
 * client's `sampling.tools` capability. Spec: client/sampling (deprecated feature).
 */
export const ToolChoiceSchema = z.looseObject({ mode: z.enum(["auto", "required", "none"]).optional() });

/**
 * The params of an embedded `sampling/createMessage`: `messages` and `maxTokens` required (the client must
 * respect it); `includeContext` `"thisServer"`/`"allServers"` are deprecated; `tools`/`toolChoice` need
 * `sampling.tools`. Spec: client/sampling (deprecated feature).
 */
export const CreateMessageRequestParamsSchema = z.looseObject({
  messages: z.array(SamplingMessageSchema),
  modelPreferences: ModelPreferencesSchema.optional(),
  systemPrompt: z.string().optional(),
  includeContext: z.enum(["none", "thisServer", "allServers"]).optional(),
  temperature: z.number().optional(),
  maxTokens: z.int(),
  stopSequences: z.array(z.string()).optional(),
  metadata: JSONObjectSchema.optional(),
  tools: z.array(ToolSchema).optional(),
  toolChoice: ToolChoiceSchema.optional(),
  _meta: meta,
});
/** The {@link CreateMessageRequestParamsSchema} shape. */
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

/**
 * A `sampling/createMessage` input request: ask the client's model for a completion. Needs the client's
 * `sampling` capability. Spec: client/sampling (deprecated feature), basic/patterns/mrtr.
 */
export const CreateMessageRequestSchema = z.looseObject({
  method: z.literal("sampling/createMessage"),
  params: CreateMessageRequestParamsSchema,
});
/** The {@link CreateMessageRequestSchema} shape (`method: "sampling/createMessage"`). */
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

/**
 * The client's answer to `sampling/createMessage`: the generated message (`role`, `content`), the `model`
 * that produced it, and an optional `stopReason` (`"endTurn"`, `"stopSequence"`, `"maxTokens"`, `"toolUse"`
 * or another string). Spec: client/sampling (deprecated feature).
 */
export const CreateMessageResultSchema = SamplingMessageSchema.extend({
  model: z.string(),
  stopReason: z.string().optional(),
});
/** The {@link CreateMessageResultSchema} shape; carries no `resultType`. */
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

// ---------------------------------------------------------------- roots (deprecated feature)

/**
 * A `roots/list` input request: ask which filesystem roots the client exposes. Needs the client's `roots`
 * capability. Spec: client/roots (deprecated feature), basic/patterns/mrtr.
 */
export const ListRootsRequestSchema = z.looseObject({
  method: z.literal("roots/list"),
  params: z.looseObject({ _meta: meta }).optional(),
});
/** The {@link ListRootsRequestSchema} shape (`method: "roots/list"`, `params` optional). */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/**
 * A root the client exposes: a `uri` (a `file://` URI) and an optional display `name`. Spec: client/roots
 * (deprecated feature).
 */
export const RootSchema = z.looseObject({ uri: z.string(), name: z.string().optional(), _meta: meta });
/** The {@link RootSchema} shape. */
export type Root = z.infer<typeof RootSchema>;

/**
 * The client's answer to `roots/list`: the `roots` it permits the server to see. Spec: client/roots
 * (deprecated feature).
 */
export const ListRootsResultSchema = z.looseObject({ roots: z.array(RootSchema), _meta: meta });
/** The {@link ListRootsResultSchema} shape; carries no `resultType`. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

// ---------------------------------------------------------------- the MRTR carrier

/** One request embedded in an `InputRequiredResult`: method and params, no `jsonrpc`, no `id`. */
export const InputRequestSchema = z.discriminatedUnion("method", [
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
]);
/**
 * The {@link InputRequestSchema} union, discriminated by `method`: `"elicitation/create"`,
 * `"sampling/createMessage"` or `"roots/list"`. Spec: basic/patterns/mrtr §Core Types.
 */
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** The client's answer to one input request. */
export const InputResponseSchema = z.union([
  ElicitResultSchema,
  CreateMessageResultSchema,
  ListRootsResultSchema,
]);
/**
 * The {@link InputResponseSchema} union: an `ElicitResult`, `CreateMessageResult` or `ListRootsResult`, none
 * of which carries `resultType`.
 */
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Input requests keyed by names the server picks. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);
/**
 * The {@link InputRequestsSchema} shape: `InputRequiredResult.inputRequests`; a client fulfils every entry
 * before it retries. Spec: basic/patterns/mrtr §Core Types.
 */
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** Input responses under the same keys as the requests they answer. */
export const InputResponsesSchema = z.record(z.string(), InputResponseSchema);
/**
 * The {@link InputResponsesSchema} shape: the retry's `inputResponses`, one entry per requested key. Spec:
 * basic/patterns/mrtr §Core Types.
 */
export type InputResponses = z.infer<typeof InputResponsesSchema>;

/**
 * `InputRequiredResult`: the server needs input before it can complete. Carries at least one of
 * `inputRequests` and `requestState`, and never cache hints.
 */
export const InputRequiredResultSchema = ResultBaseSchema.extend({
  resultType: z.literal("input_required"),
  inputRequests: InputRequestsSchema.optional(),
  requestState: z.string().optional(),
}).refine(
  (r) =>
    (r.inputRequests !== undefined && Object.keys(r.inputRequests).length > 0) ||
    r.requestState !== undefined,
  {
    message: "an InputRequiredResult carries inputRequests, requestState, or both",
  },
);
/**
 * The {@link InputRequiredResultSchema} shape (`resultType: "input_required"`), allowed only from
 * `tools/call`, `prompts/get` and `resources/read`; the client echoes `requestState` unchanged on the retry.
 * Spec: basic/patterns/mrtr §Core Types.
 */
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;
