/**
 * Who a 2025-11-25 session's tasks belong to, and whether a request asked for one. With an
 * authenticated principal, its tasks are the principal's (as at 2026-07-28: another session of the
 * same principal reaches them). Without one, they are the session's (`Mcp-Session-Id`, the same on
 * every replica), so one unauthenticated client never lists or reads another's; on stdio, the one
 * peer's. A request without a principal, on HTTP without a session id, cannot be told apart from
 * another: `tasks/list` is then not offered. Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks §Task Isolation
 * and Access Control.
 */
import { createHash } from "node:crypto";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import { environmentOf, type RequestContext } from "../context.js";
import { ANONYMOUS_TASK_OWNER, taskOwnerOf } from "./identity.js";

/** What a request asked of a task with its `params.task`. */
export interface RequestedTask {
  /** The TTL asked for, milliseconds; undefined for the server's default. */
  readonly ttlMs: number | undefined;
}

/** The requests of 2025-era sessions that asked for a task, by their transport environment. */
const requested = new WeakMap<RequestEnvironment, RequestedTask>();

/** Records that the request of `env` is task-augmented (a `tools/call` with `params.task`). */
export function markTaskRequested(env: RequestEnvironment, task: RequestedTask): void {
  requested.set(env, task);
}

/** What the request of `ctx` asked of a task, or undefined when it asked for none. */
export function requestedTaskOf(ctx: RequestContext): RequestedTask | undefined {
  if (ctx.session === undefined) return undefined;
  try {
    return requested.get(environmentOf(ctx));
  } catch {
    return undefined;
  }
}

/**
 * The owner key of a 2025-era request's tasks: the principal's (`taskOwnerOf`) when authenticated,
 * else a digest of the session id, else (stdio) the anonymous key.
 */
export function legacyTaskOwnerOf(env: Pick<RequestEnvironment, "auth" | "session">): string {
  if (env.auth !== undefined) return taskOwnerOf(env.auth);
  const id = env.session?.id;
  if (id === undefined) return ANONYMOUS_TASK_OWNER;
  return `session:${createHash("sha256").update(id, "utf8").digest("hex")}`;
}

/**
 * True when the requestor of `env` can be told apart from others (a principal, a session id, or a
 * transport with one peer), so its tasks can be listed without showing anyone else's.
 */
export function canListTasks(env: Pick<RequestEnvironment, "auth" | "session" | "headers">): boolean {
  return env.auth !== undefined || env.session?.id !== undefined || env.headers === undefined;
}

/** The owner key of the tasks a request creates: the 2025-era scope on a session, else the principal's. */
export function taskOwnerOfRequest(ctx: RequestContext): string {
  return ctx.session === undefined ? taskOwnerOf(ctx.auth) : legacyTaskOwnerOf(ctx);
}
