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

export const StringSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...described,
  minLength: z.int().min(0).optional(),
  maxLength: z.int().min(0).optional(),
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
  default: z.string().optional(),
});
export const NumberSchemaSchema = z.looseObject({
  type: z.enum(["number", "integer"]),
  ...described,
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
export const BooleanSchemaSchema = z.looseObject({
  type: z.literal("boolean"),
  ...described,
  default: z.boolean().optional(),
});
export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...described,
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  ...described,
  oneOf: z.array(z.looseObject({ const: z.string(), title: z.string() })),
  default: z.string().optional(),
});
export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  ...described,
  minItems: z.int().min(0).optional(),
  maxItems: z.int().min(0).optional(),
  items: z.looseObject({ type: z.literal("string"), enum: z.array(z.string()) }),
  default: z.array(z.string()).optional(),
});
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
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/** A form's schema: a flat object of primitive properties. */
export const RequestedSchemaSchema = z.looseObject({
  $schema: z.string().optional(),
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.array(z.string()).optional(),
});
export type RequestedSchema = z.infer<typeof RequestedSchemaSchema>;

/** Form-mode elicitation; a missing `mode` means form. */
export const ElicitRequestFormParamsSchema = z.looseObject({
  mode: z.literal("form").optional(),
  message: z.string(),
  requestedSchema: RequestedSchemaSchema,
  _meta: meta,
});
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** URL-mode elicitation: the user completes an interaction out of band, then the client retries. */
export const ElicitRequestURLParamsSchema = z.looseObject({
  mode: z.literal("url"),
  message: z.string(),
  url: z.string(),
  _meta: meta,
});
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

export const ElicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

export const ElicitRequestSchema = z.looseObject({
  method: z.literal("elicitation/create"),
  params: ElicitRequestParamsSchema,
});
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** The user's answer; `content` only with `accept` in form mode. */
export const ElicitResultSchema = z.looseObject({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]))
    .optional(),
  _meta: meta,
});
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

// ---------------------------------------------------------------- sampling (deprecated feature)

export const ToolUseContentSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: z.string(),
  name: z.string(),
  input: JSONObjectSchema,
  _meta: meta,
});
export type ToolUseContent = z.infer<typeof ToolUseContentSchema>;

export const ToolResultContentSchema = z.looseObject({
  type: z.literal("tool_result"),
  toolUseId: z.string(),
  content: z.array(ContentBlockSchema),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: meta,
});
export type ToolResultContent = z.infer<typeof ToolResultContentSchema>;

export const SamplingMessageContentBlockSchema = z.discriminatedUnion("type", [
  TextContentSchema,
  ImageContentSchema,
  AudioContentSchema,
  ToolUseContentSchema,
  ToolResultContentSchema,
]);
export type SamplingMessageContentBlock = z.infer<typeof SamplingMessageContentBlockSchema>;

export const SamplingMessageSchema = z.looseObject({
  role: RoleSchema,
  content: z.union([SamplingMessageContentBlockSchema, z.array(SamplingMessageContentBlockSchema)]),
  _meta: meta,
});
export type SamplingMessage = z.infer<typeof SamplingMessageSchema>;

export const ModelPreferencesSchema = z.looseObject({
  hints: z.array(z.looseObject({ name: z.string().optional() })).optional(),
  costPriority: z.number().min(0).max(1).optional(),
  speedPriority: z.number().min(0).max(1).optional(),
  intelligencePriority: z.number().min(0).max(1).optional(),
});
export type ModelPreferences = z.infer<typeof ModelPreferencesSchema>;

export const ToolChoiceSchema = z.looseObject({ mode: z.enum(["auto", "required", "none"]).optional() });

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
export type CreateMessageRequestParams = z.infer<typeof CreateMessageRequestParamsSchema>;

export const CreateMessageRequestSchema = z.looseObject({
  method: z.literal("sampling/createMessage"),
  params: CreateMessageRequestParamsSchema,
});
export type CreateMessageRequest = z.infer<typeof CreateMessageRequestSchema>;

export const CreateMessageResultSchema = SamplingMessageSchema.extend({
  model: z.string(),
  stopReason: z.string().optional(),
});
export type CreateMessageResult = z.infer<typeof CreateMessageResultSchema>;

// ---------------------------------------------------------------- roots (deprecated feature)

export const ListRootsRequestSchema = z.looseObject({
  method: z.literal("roots/list"),
  params: z.looseObject({ _meta: meta }).optional(),
});
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

export const RootSchema = z.looseObject({ uri: z.string(), name: z.string().optional(), _meta: meta });
export type Root = z.infer<typeof RootSchema>;

export const ListRootsResultSchema = z.looseObject({ roots: z.array(RootSchema), _meta: meta });
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;

// ---------------------------------------------------------------- the MRTR carrier

/** One request embedded in an `InputRequiredResult`: method and params, no `jsonrpc`, no `id`. */
export const InputRequestSchema = z.discriminatedUnion("method", [
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
]);
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** The client's answer to one input request. */
export const InputResponseSchema = z.union([
  ElicitResultSchema,
  CreateMessageResultSchema,
  ListRootsResultSchema,
]);
export type InputResponse = z.infer<typeof InputResponseSchema>;

/** Input requests keyed by names the server picks. */
export const InputRequestsSchema = z.record(z.string(), InputRequestSchema);
export type InputRequests = z.infer<typeof InputRequestsSchema>;

/** Input responses under the same keys as the requests they answer. */
export const InputResponsesSchema = z.record(z.string(), InputResponseSchema);
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
export type InputRequiredResult = z.infer<typeof InputRequiredResultSchema>;
