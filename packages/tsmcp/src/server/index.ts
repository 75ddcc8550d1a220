/**
 * tsmcp/server: the high-level `MCPServer` (tools, prompts, resources and templates from schemas
 * and plain functions, requestState sealed by default), the low-level `Server` (handlers in, results
 * out), its middleware chain, the requestState sealing layer, the helpers for answering with an
 * `InputRequiredResult`, and resolvers (`resolver`, `elicit`, `sample`, `listRoots`, `outcome`): what
 * a tool declares it needs, the framework asking each question once. (The `ReplayCache` behind
 * single-use tools, like every state seam, comes from tsmcp/state.) With them, the types a server
 * author annotates: the contexts (`RequestContext` for `Server` handlers, `Context` for `MCPServer`
 * tools, prompts, resources and templates, `ResolvedContext` for a tool with resolvers,
 * `ResolverInput` for a resolver, `CompletionContext` for a completer), the handler types and the
 * constructors' option types; and the tasks extension's engine (`TaskManager`, its options and
 * defaults, `TaskControl` for a task's work). Each name has one home: wire types, `McpError`, `TsmcpError` and the
 * `Logger` come from tsmcp/types; `Dispatcher`, `RequestEnvironment`, `AuthInfo`, `Authenticate`
 * and the protected-resource metadata path from tsmcp/transport, where the HTTP handler lives.
 */

export { type BearerAuthOptions, bearerAuth } from "./auth/bearer.js";
export {
  DEFAULT_INTROSPECTION_CACHE_ENTRIES,
  DEFAULT_INTROSPECTION_CACHE_TTL_MS,
  DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS,
  DEFAULT_INTROSPECTION_TIMEOUT_MS,
  type IntrospectionVerifierOptions,
  introspectionVerifier,
} from "./auth/introspection.js";
export {
  DEFAULT_CLOCK_SKEW_MS,
  DEFAULT_JWKS_CACHE_MAX_AGE_MS,
  DEFAULT_JWKS_COOLDOWN_MS,
  DEFAULT_JWKS_TIMEOUT_MS,
  DEFAULT_JWT_ALGORITHMS,
  DEFAULT_JWT_TYP,
  type JwtVerifierOptions,
  jwtVerifier,
} from "./auth/jwt.js";
export {
  DEFAULT_BEARER_METHODS,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadata,
} from "./auth/metadata.js";
export { InvalidTokenError, type TokenVerifier } from "./auth/verifier.js";
export { inputRequestCapabilityGate } from "./capability-gate.js";
export type { ListRootsOptions, ProgressUpdate, RequestContext } from "./context.js";
export { type ContextKey, contextKey } from "./context-key.js";
export { ELICITATION_COMPLETE, elicitationComplete } from "./elicitation-complete.js";
export type { ExtensionHandlers, ExtensionRegistration } from "./extensions.js";
export type { Awaitable, Handler, ServerHandlers } from "./handlers.js";
export {
  elicitationRequest,
  type InputRequiredFields,
  inputRequired,
  rootsRequest,
  samplingRequest,
} from "./input-required.js";
export { DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS } from "./legacy/dispatch.js";
export {
  DEFAULT_LEGACY_INPUT_REQUIRED_MAX_ROUNDS,
  type LegacyInputRequired,
} from "./legacy/input-required.js";
export {
  type Completer,
  type Completers,
  type CompletionContext,
  MAX_COMPLETION_VALUES,
} from "./mcp/completion.js";
export type { Context, ResolvedContext } from "./mcp/context.js";
export { DEFAULT_PAGE_SIZE } from "./mcp/pagination.js";
export type { PromptArgs, PromptConfig, PromptHandler, PromptReturn } from "./mcp/prompts.js";
export type { RegistrationHandle } from "./mcp/registry.js";
export type {
  ListedResource,
  ResourceConfig,
  ResourceHandler,
  ResourceLister,
  ResourceMetadata,
  ResourceReturn,
  StaticResourceConfig,
  TemplateResourceConfig,
} from "./mcp/resource-config.js";
export type { ResourceContentsInput } from "./mcp/results.js";
export { MCPServer, type MCPServerOptions } from "./mcp/server.js";
export type { ToolTaskSupport } from "./mcp/tool-tasks.js";
export {
  type PlainResolverToolResult,
  type PlainResolverToolReturn,
  type ResolverToolHandler,
  type StructuredToolReturn,
  TOOL_NAME_PATTERN,
  type ToolArgs,
  type ToolConfig,
  type ToolHandler,
  type ToolResolvers,
  type ToolResultOf,
  type ToolReturn,
} from "./mcp/tools.js";
export { type IsStaticUri, UriTemplate, type UriVariables } from "./mcp/uri-template.js";
export type { Middleware, MiddlewareRequest, Next, WireResult } from "./middleware.js";
export { DETERMINISM_RULE, NonDeterministicHandlerError } from "./resolve/ask-errors.js";
export type { Asked, AskValues } from "./resolve/ask-types.js";
export type { ElicitMarker } from "./resolve/elicit.js";
export { elicit } from "./resolve/elicit.js";
export { ResolverError } from "./resolve/errors.js";
export type { ListRootsMarker } from "./resolve/list-roots.js";
export { listRoots } from "./resolve/list-roots.js";
export type {
  NotInputRequired,
  ResolverToolInputRequired,
  ResolverToolReturn,
  WithoutInputRequired,
} from "./resolve/one-channel.js";
export type { ResolverOutcome } from "./resolve/outcome.js";
export type { Question, QuestionValue } from "./resolve/question.js";
export { DEFAULT_MAX_INVALID_ANSWER_RETRIES } from "./resolve/reask.js";
export {
  type DependencyValue,
  type NeedsArgs,
  type NoNeeds,
  type OutcomeDependency,
  outcome,
  RESOLVER_NAME_PATTERN,
  type ResolvedValues,
  type Resolver,
  type ResolverDependency,
  type ResolverInput,
  type ResolverNeeds,
  type ResolverTypes,
  type ResolverValue,
  resolver,
} from "./resolve/resolver.js";
export type { SampleMarker } from "./resolve/sample.js";
export { sample } from "./resolve/sample.js";
export { RESOLVER_STATE_VERSION } from "./resolve/state.js";
export { DEFAULT_MAX_RECORDED_STEP_BYTES } from "./resolve/steps.js";
export {
  type InferSchemaInput,
  type InferSchemaOutput,
  type SchemaLike,
  withJsonSchema,
  type ZodSchemaLike,
} from "./schema/compile.js";
export {
  type ElicitationAnswer,
  type ElicitationContent,
  type ElicitationContentOf,
  readElicitation,
} from "./schema/elicitation-answer.js";
export { type JsonSchemaObject, SUPPORTED_JSON_SCHEMA_DIALECTS } from "./schema/json-schema.js";
export { preloadJsonSchemaEngines } from "./schema/json-schema-loader.js";
export type { StandardJSONSchemaV1, StandardSchemaV1 } from "./schema/standard-schema.js";
export {
  DEFAULT_JSON_SCHEMA_VALIDATOR,
  type JsonSchemaValidator,
} from "./schema/validator-choice.js";
export { type CacheOptions, SERVER_PROTOCOL_VERSIONS, Server, type ServerOptions } from "./server.js";
export { type CacheHint, DEFAULT_CACHE_HINT } from "./shaping.js";
export {
  AesGcmRequestStateCodec,
  REQUEST_STATE_MIN_KEY_BYTES,
  REQUEST_STATE_TOKEN_PREFIX,
  type RequestStateKey,
} from "./state/aes-gcm-codec.js";
export { type RequestStateBoundaryOptions, requestStateBoundary } from "./state/boundary.js";
export { REQUEST_STATE_ENVELOPE_VERSION, REQUEST_STATE_FUTURE_SKEW_MS } from "./state/claims.js";
export type { RequestBinding } from "./state/claims-shape.js";
export type { RequestStateCodec } from "./state/codec.js";
export {
  INVALID_REQUEST_STATE_ERROR,
  INVALID_REQUEST_STATE_REASONS,
  InvalidRequestState,
  type InvalidRequestStateReason,
  type InvalidRequestStateWireError,
} from "./state/errors.js";
export {
  DEFAULT_REQUEST_STATE_TTL_MS,
  type PrincipalBinding,
  RequestStateSecurity,
  type RequestStateSecurityCommonOptions,
  type RequestStateSecurityOptions,
} from "./state/policy.js";
export { authenticatedPrincipal } from "./state/principal.js";
export { DEFAULT_MAX_TASK_SUBSCRIPTIONS, type ListKind } from "./subscriptions.js";
export type { TaskChangeListener, TaskSnapshot } from "./tasks/fanout.js";
export { TaskManager, type TaskStartOptions, type TaskWork } from "./tasks/manager.js";
export {
  DEFAULT_MAX_ACTIVE_TASKS_PER_PRINCIPAL,
  DEFAULT_MAX_TASK_RESULT_BYTES,
  DEFAULT_MAX_TASK_TTL_MS,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
  MIN_TASK_LEASE_MS,
  type TaskOptions,
} from "./tasks/options.js";
export type { PendingTask, TaskControl } from "./tasks/pending.js";
