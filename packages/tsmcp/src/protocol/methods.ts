/**
 * The method table of 2026-07-28: every client -> server method with its params and result schema,
 * whether it may answer with an `InputRequiredResult`, whether its result carries cache hints, and
 * the extension it belongs to (the tasks extension's `tasks/get`, `tasks/update`, `tasks/cancel`).
 * Spec: basic/patterns/mrtr §Supported Requests, server/utilities/caching,
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import * as z from "zod";
import { JSONObjectSchema } from "./schema/base.js";
import {
  CallToolRequestParamsSchema,
  CallToolResultSchema,
  CompleteRequestParamsSchema,
  CompleteResultSchema,
  DiscoverResultSchema,
  GetPromptRequestParamsSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  PaginatedRequestParamsSchema,
  ReadResourceRequestParamsSchema,
  ReadResourceResultSchema,
  RequestParamsSchema,
  ResultSchema,
  SubscriptionsListenRequestParamsSchema,
  SubscriptionsListenResultSchema,
} from "./schema/methods.js";
import { GetTaskResultSchema, TASKS_EXTENSION, TaskIdParamsSchema } from "./schema/tasks.js";

/**
 * `tasks/update` params as a server reads them: each answer only has to be an object, because
 * answers under keys that are not outstanding are ignored, whatever they hold (spec: tasks.md §Task
 * Update Requests); the answer to an outstanding request is checked by whoever awaits it.
 */
const UPDATE_TASK_PARAMS = TaskIdParamsSchema.extend({
  inputResponses: z.record(z.string(), JSONObjectSchema),
});

/** One row of the method table. */
export interface MethodSpec {
  params: z.ZodType;
  result: z.ZodType;
  /** May answer with an `InputRequiredResult` (tools/call, prompts/get, resources/read). */
  inputRequired: boolean;
  /** Its complete result carries `ttlMs` and `cacheScope`. */
  cacheable: boolean;
  /**
   * The extension the method belongs to: a request that did not declare it (in its
   * `clientCapabilities.extensions`) is refused with -32021. Absent for the core methods.
   */
  extension?: string;
}

/** Every method a 2026-07-28 client may send. */
export const METHODS = {
  "server/discover": {
    params: RequestParamsSchema,
    result: DiscoverResultSchema,
    inputRequired: false,
    cacheable: true,
  },
  "tools/list": {
    params: PaginatedRequestParamsSchema,
    result: ListToolsResultSchema,
    inputRequired: false,
    cacheable: true,
  },
  "tools/call": {
    params: CallToolRequestParamsSchema,
    result: CallToolResultSchema,
    inputRequired: true,
    cacheable: false,
  },
  "prompts/list": {
    params: PaginatedRequestParamsSchema,
    result: ListPromptsResultSchema,
    inputRequired: false,
    cacheable: true,
  },
  "prompts/get": {
    params: GetPromptRequestParamsSchema,
    result: GetPromptResultSchema,
    inputRequired: true,
    cacheable: false,
  },
  "resources/list": {
    params: PaginatedRequestParamsSchema,
    result: ListResourcesResultSchema,
    inputRequired: false,
    cacheable: true,
  },
  "resources/templates/list": {
    params: PaginatedRequestParamsSchema,
    result: ListResourceTemplatesResultSchema,
    inputRequired: false,
    cacheable: true,
  },
  "resources/read": {
    params: ReadResourceRequestParamsSchema,
    result: ReadResourceResultSchema,
    inputRequired: true,
    cacheable: true,
  },
  "completion/complete": {
    params: CompleteRequestParamsSchema,
    result: CompleteResultSchema,
    inputRequired: false,
    cacheable: false,
  },
  "subscriptions/listen": {
    params: SubscriptionsListenRequestParamsSchema,
    result: SubscriptionsListenResultSchema,
    inputRequired: false,
    cacheable: false,
  },
  "tasks/get": {
    params: TaskIdParamsSchema,
    result: GetTaskResultSchema,
    inputRequired: false,
    cacheable: false,
    extension: TASKS_EXTENSION,
  },
  "tasks/update": {
    params: UPDATE_TASK_PARAMS,
    result: ResultSchema,
    inputRequired: false,
    cacheable: false,
    extension: TASKS_EXTENSION,
  },
  "tasks/cancel": {
    params: TaskIdParamsSchema,
    result: ResultSchema,
    inputRequired: false,
    cacheable: false,
    extension: TASKS_EXTENSION,
  },
} as const satisfies Record<string, MethodSpec>;

/** A method name of the 2026-07-28 client -> server surface. */
export type Method = keyof typeof METHODS;

/** The three methods that may answer with an `InputRequiredResult`. */
export const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(
  Object.entries(METHODS)
    .filter(([, spec]) => spec.inputRequired)
    .map(([method]) => method),
);

/** The six methods whose complete results carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set(
  Object.entries(METHODS)
    .filter(([, spec]) => spec.cacheable)
    .map(([method]) => method),
);

/** A method that may answer with an `InputRequiredResult`. */
export type InputRequiredMethod = "tools/call" | "prompts/get" | "resources/read";

/** A method whose complete result carries cache hints. */
export type CacheableMethod =
  | "server/discover"
  | "tools/list"
  | "prompts/list"
  | "resources/list"
  | "resources/templates/list"
  | "resources/read";

/**
 * The requests the 2025 handshake era defines beyond the 2026-07-28 table, in either direction
 * (client -> server, and server -> client over a session's back-channel), the 2025 tasks methods
 * included. Internal: for telling a defined method from one a peer made up.
 */
export const HANDSHAKE_ERA_REQUEST_METHODS: ReadonlySet<string> = new Set([
  "initialize",
  "ping",
  "logging/setLevel",
  "resources/subscribe",
  "resources/unsubscribe",
  "tasks/get",
  "tasks/result",
  "tasks/list",
  "tasks/cancel",
  "elicitation/create",
  "sampling/createMessage",
  "roots/list",
]);

/** Every notification either revision (or the tasks extension) defines, in either direction. */
export const NOTIFICATION_METHODS: ReadonlySet<string> = new Set([
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/message",
  "notifications/roots/list_changed",
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
  "notifications/resources/updated",
  "notifications/elicitation/complete",
  "notifications/tasks",
  "notifications/tasks/status",
]);

/** True for a method of the table. */
export function isKnownMethod(method: string): method is Method {
  return Object.hasOwn(METHODS, method);
}

/** True when `result` is an `InputRequiredResult` (by its `resultType`). */
export function isInputRequired(result: unknown): boolean {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === "input_required"
  );
}
