/**
 * The 2025-era path of a `Server`, taken when the transport hands a message in with a session:
 * `initialize` and `ping` at any time; after `initialize`, `logging/setLevel`,
 * `resources/subscribe`/`unsubscribe` (when the server offers subscriptions) and every
 * list/get/call/read/complete method the server has a handler for, through the same middleware
 * chain and params schemas as at 2026-07-28. `server/discover` and `subscriptions/listen` do not
 * exist in that era (-32601). Results leave without `resultType`, the `serverInfo` stamp and cache
 * hints. Spec (2025-11-25): basic/lifecycle, basic/utilities/ping, server/utilities/logging,
 * server/resources §Subscriptions. With tasks, the revision's core tasks: `capabilities.tasks`,
 * `tools/call` with `params.task` answered with `CreateTaskResult { task }`, and `tasks/get`,
 * `tasks/result`, `tasks/list`, `tasks/cancel` (server/tasks/legacy-*); spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */

import type * as z from "zod";
import { invalidParams, McpError, methodNotFound } from "../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { isInputRequired } from "../../protocol/methods.js";
import type { RequestMeta } from "../../protocol/schema/base.js";
import {
  HandshakeRequestMetaSchema,
  SetLevelRequestParamsSchema,
  SubscribeRequestParamsSchema,
} from "../../protocol/schema/handshake.js";
import { LegacyTaskParamsSchema } from "../../protocol/schema/tasks-legacy.js";
import type { LegacySession, RequestEnvironment } from "../../transport/dispatcher.js";
import { createRequestContext, type RequestContext } from "../context.js";
import type { LogFields, Logger } from "../logger.js";
import { middlewareRequest, type Step, type WireResult } from "../middleware.js";
import { describeIssue } from "../request-meta.js";
import { LEGACY_TASK_METHODS, serveLegacyTaskMethod } from "../tasks/legacy-methods.js";
import { canListTasks, markTaskRequested } from "../tasks/legacy-scope.js";
import type { LegacyTaskStatus } from "../tasks/legacy-status.js";
import { isCreateTaskResult, legacyTasksCapability, toLegacyCreateTaskResult } from "../tasks/legacy-wire.js";
import type { TaskManager } from "../tasks/manager.js";
import { initialize, type ServerSelfDescription } from "./handshake.js";
import { fulfilInputRequired, type LegacyInputRequired } from "./input-required.js";
import type { LegacySessions } from "./sessions.js";

/** The most URIs one 2025-era session may subscribe to with `resources/subscribe`, by default. */
export const DEFAULT_MAX_RESOURCE_SUBSCRIPTIONS = 1000;

/**
 * The longest URI, in UTF-16 code units, a 2025-era session may subscribe to: a session's
 * subscriptions are kept with it (in a shared store, read back at every request), so their size
 * is bounded: 1000 subscriptions of at most 2048 characters each.
 */
export const MAX_SUBSCRIBED_URI_LENGTH = 2048;

/** What the 2025-era path needs of its server. */
export interface LegacyCore extends ServerSelfDescription {
  readonly logger: Logger;
  readonly sessions: LegacySessions;
  readonly inputRequired: LegacyInputRequired;
  readonly maxInputRequiredRounds: number;
  /** The most URIs one session may subscribe to. */
  readonly maxResourceSubscriptions: number;
  /** True when a handler serves `method` (a method of the 2026-07-28 table). */
  serves(method: string): boolean;
  /** The middleware chain, ending in params validation, the handler and result shaping. */
  readonly run: Step;
  /** Logs an error without ever throwing. */
  logError(message: string, fields: LogFields): void;
  /** The server's tasks, when it serves them (2025-11-25 core tasks on sessions). */
  readonly tasks: LegacyTasks | undefined;
}

/**
 * What the 2025-era path tells the record that traces a request (the server's request span): the
 * request context it is tied to, and the result the middleware chain answered.
 */
export interface LegacyTraceRecord {
  attach(context: RequestContext): void;
  observe(result: WireResult): void;
}

/** What a server that serves tasks gives the 2025-era path. */
export interface LegacyTasks {
  readonly manager: TaskManager;
  /** Sends `notifications/tasks/status` to the session that created a task. */
  readonly status: LegacyTaskStatus;
}

/**
 * The methods only the 2026-07-28 revision has (the tasks extension's among them: under 2025-11-25
 * the extension does not apply; a server that serves tasks answers that revision's own `tasks/get`
 * and `tasks/cancel` first).
 */
const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set([
  "server/discover",
  "subscriptions/listen",
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

/**
 * Answers one request of a 2025-era session.
 *
 * @throws McpError -32600 before `initialize` (other than `ping`) or for a second `initialize`;
 *   -32602 for a `resources/subscribe` past the session's `maxResourceSubscriptions`, or of a
 *   uri longer than {@link MAX_SUBSCRIBED_URI_LENGTH};
 *   -32601 for a method this server does not serve in that era; -32602 for invalid params; what the
 *   handler throws.
 *
 * `record`, when telemetry records the request, is tied to its context and told the result the
 * middleware chain answered (before it is shaped for the era).
 */
export async function dispatchLegacy(
  core: LegacyCore,
  request: JSONRPCRequest,
  env: RequestEnvironment & { session: LegacySession },
  record?: LegacyTraceRecord,
): Promise<WireResult> {
  const { method, params } = request;
  const { session } = env;
  if (method === "initialize") {
    const result = initialize(session, params, core);
    if (core.tasks !== undefined && core.serves("tools/call") && result.capabilities.tasks === undefined) {
      result.capabilities.tasks = legacyTasksCapability(canListTasks(env));
    }
    core.sessions.add(session);
    return result as WireResult;
  }
  if (method === "ping") return {};
  if (session.handshake === undefined) {
    throw McpError.of("INVALID_REQUEST", "Invalid request: session not initialized; send initialize first");
  }
  switch (method) {
    case "logging/setLevel": {
      if (core.capabilities.logging === undefined) throw methodNotFound(method);
      session.logLevel = parse(SetLevelRequestParamsSchema, params ?? {}).level;
      return {};
    }
    case "resources/subscribe":
    case "resources/unsubscribe": {
      if (core.capabilities.resources?.subscribe !== true) throw methodNotFound(method);
      const { uri } = parse(SubscribeRequestParamsSchema, params ?? {});
      const subscriptions = session.resourceSubscriptions;
      if (method === "resources/subscribe" && uri.length > MAX_SUBSCRIBED_URI_LENGTH) {
        throw invalidParams(
          `Invalid params: a subscribed uri may be at most ${MAX_SUBSCRIBED_URI_LENGTH} characters long, got ${uri.length}`,
        );
      }
      if (method === "resources/unsubscribe") subscriptions.delete(uri);
      else if (subscriptions.has(uri) || subscriptions.size < core.maxResourceSubscriptions)
        subscriptions.add(uri);
      else {
        throw invalidParams(
          `Invalid params: this session is subscribed to ${core.maxResourceSubscriptions} resources, the most it may be; unsubscribe from one first`,
        );
      }
      return {};
    }
  }
  const tasks = core.tasks;
  if (tasks !== undefined && LEGACY_TASK_METHODS.has(method)) {
    return await serveLegacyTaskMethod(tasks.manager, method, params, env);
  }
  if (MODERN_ONLY_METHODS.has(method) || !core.serves(method)) throw methodNotFound(method);
  if (tasks !== undefined && method === "tools/call" && params?.task !== undefined) {
    const { ttl } = parse(LegacyTaskParamsSchema, params.task, "task.");
    markTaskRequested(env, { ttlMs: ttl ?? undefined });
  }
  const rawMeta = params?._meta;
  const meta = rawMeta === undefined ? {} : (parse(HandshakeRequestMetaSchema, rawMeta, "_meta.") ?? {});
  const context = createRequestContext(method, request.id, meta as RequestMeta, env);
  record?.attach(context);
  const chainRequest = middlewareRequest(method, params ?? {}, context, core.logger);
  let result = await core.run(chainRequest);
  if (isInputRequired(result) && core.inputRequired === "fulfil") {
    result = await fulfilInputRequired(
      core.run,
      chainRequest,
      result,
      env,
      core.maxInputRequiredRounds,
      (message, fields) => core.logError(message, fields),
    );
  }
  record?.observe(result);
  if (tasks !== undefined && isCreateTaskResult(result)) {
    tasks.status.watch(result.taskId as string, session);
    return toLegacyCreateTaskResult(result);
  }
  return toHandshakeEraResult(result);
}

/** Takes a notification of a 2025-era session: `notifications/initialized` marks it ready. */
export function receiveLegacyNotification(notification: JSONRPCNotification, session: LegacySession): void {
  if (notification.method === "notifications/initialized" && session.handshake !== undefined) {
    session.initialized = true;
  }
}

/** A result as a 2025-era client expects it: no `resultType`, `ttlMs` or `cacheScope`. */
export function toHandshakeEraResult(result: WireResult): WireResult {
  const shaped: WireResult = {};
  for (const key of Object.keys(result)) {
    if (key !== "resultType" && key !== "ttlMs" && key !== "cacheScope") shaped[key] = result[key];
  }
  return shaped;
}

/**
 * `value` parsed by `schema`.
 *
 * @throws McpError -32602 "Invalid params: <prefix><path>: <problem>" otherwise.
 */
function parse<T>(schema: z.ZodType<T>, value: unknown, prefix = ""): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidParams(`Invalid params: ${prefix}${describeIssue(parsed.error.issues)}`);
  return parsed.data;
}
