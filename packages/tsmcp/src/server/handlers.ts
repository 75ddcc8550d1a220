/**
 * The handler options of the low-level `Server`: one function per method, taking the request
 * context and the validated params, returning the result (or, for the three carrier methods, an
 * `InputRequiredResult`). `resultType`, `serverInfo` and cache hints are filled in afterwards.
 */
import type { InputRequiredResult } from "../protocol/schema/input.js";
import type {
  CallToolRequestParams,
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedRequestParams,
  ReadResourceRequestParams,
  ReadResourceResult,
} from "../protocol/schema/methods.js";
import type { CreateTaskResult } from "../protocol/schema/tasks.js";
import type { RequestContext } from "./context.js";

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** A handler for one method. */
export type Handler<P, R> = (ctx: RequestContext, params: P) => Awaitable<R>;

/** The methods a low-level `Server` can serve; register only the ones you implement. */
export interface ServerHandlers {
  /** `tools/list` (paginated). */
  onListTools?: Handler<PaginatedRequestParams, ListToolsResult>;
  /**
   * `tools/call`: the result, an `InputRequiredResult` to ask for input first, or (with the
   * `tasks` option, for a request that declared the tasks extension) the `CreateTaskResult` of
   * `tasks.run(ctx, work)`.
   */
  onCallTool?: Handler<CallToolRequestParams, CallToolResult | InputRequiredResult | CreateTaskResult>;
  /** `prompts/list` (paginated). */
  onListPrompts?: Handler<PaginatedRequestParams, ListPromptsResult>;
  /** `prompts/get`: the messages, or an `InputRequiredResult`. */
  onGetPrompt?: Handler<GetPromptRequestParams, GetPromptResult | InputRequiredResult>;
  /** `resources/list` (paginated). */
  onListResources?: Handler<PaginatedRequestParams, ListResourcesResult>;
  /** `resources/templates/list` (paginated). */
  onListResourceTemplates?: Handler<PaginatedRequestParams, ListResourceTemplatesResult>;
  /** `resources/read`: the contents, or an `InputRequiredResult`. A missing resource: throw -32602. */
  onReadResource?: Handler<ReadResourceRequestParams, ReadResourceResult | InputRequiredResult>;
  /** `completion/complete`. */
  onComplete?: Handler<CompleteRequestParams, CompleteResult>;
}

/** Which handler serves which method. */
export const HANDLER_FOR_METHOD = {
  "tools/list": "onListTools",
  "tools/call": "onCallTool",
  "prompts/list": "onListPrompts",
  "prompts/get": "onGetPrompt",
  "resources/list": "onListResources",
  "resources/templates/list": "onListResourceTemplates",
  "resources/read": "onReadResource",
  "completion/complete": "onComplete",
} as const satisfies Record<string, keyof ServerHandlers>;

/** A method served by a user handler. */
export type HandledMethod = keyof typeof HANDLER_FOR_METHOD;
