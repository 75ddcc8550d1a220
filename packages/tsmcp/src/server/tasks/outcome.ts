/**
 * How a task ends, apart from the run that writes it: the terminal change of the work's result or
 * error (a result object -> `completed`, one whose JSON is past the size cap -> `failed` -32603, an
 * `McpError` -> `failed` with it), the -32603 of a task its server stopped or that ran past its
 * TTL, and the -32600 refusal of a task past its owner's cap. Spec:
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Execution
 * Errors).
 */
import { ERRORS, McpError } from "../../protocol/errors.js";
import { isInputRequired } from "../../protocol/methods.js";
import type { TaskError } from "../../state/task-store.js";
import { ANONYMOUS_TASK_OWNER } from "./identity.js";

/** The change that ends a task as its runner writes it. */
export interface TerminalChange {
  readonly status: "completed" | "failed";
  readonly result?: Record<string, unknown>;
  readonly error?: TaskError;
  readonly statusMessage?: string;
}

/** The message of a task its server stopped running (closed, or its lease lapsed) before it finished. */
export const STOPPED_MESSAGE = "The server running this task stopped before it finished";

/** UTF-8 bytes of `text`. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** A `failed` change with an -32603 error of `message` (also the status message). */
export function internalFailure(message: string): TerminalChange {
  return { status: "failed", error: { code: ERRORS.INTERNAL_ERROR.code, message }, statusMessage: message };
}

/** The `failed` change of a task whose work failed with `error`. */
export function failureOf(error: McpError): TerminalChange {
  return { status: "failed", error: error.toObject(), statusMessage: error.message };
}

/**
 * The terminal change of work that resolved with `result`: `completed` with it, or `failed`
 * (-32603, saying so) when its JSON is larger than `maxResultBytes`.
 *
 * @throws TypeError for a value that is not a result object, an `InputRequiredResult`, or a result
 *   that is not JSON (the work is then failed as an internal error).
 */
export function completionOf(result: unknown, maxResultBytes: number): TerminalChange {
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw new TypeError(
      `a task's work resolved with ${result === null ? "null" : typeof result}, not a result object`,
    );
  }
  if (isInputRequired(result)) {
    throw new TypeError(
      "a task's work may not resolve with an InputRequiredResult; ask through ctx.elicit instead",
    );
  }
  const bytes = utf8Bytes(JSON.stringify(result));
  if (bytes > maxResultBytes) {
    return internalFailure(
      `The task's result is ${bytes} bytes of JSON, more than the ${maxResultBytes} this server keeps`,
    );
  }
  return { status: "completed", result: result as Record<string, unknown> };
}

/** The message of a task that was still running at its TTL. */
export function pastTtlMessage(ttlMs: number): string {
  return `The task ran past its time to live (${ttlMs} ms) and was stopped`;
}

/**
 * The refusal of a task past its owner's cap: -32600 `too_many_tasks`. Without auth every caller
 * is the one anonymous owner, so the message says the limit is shared and how to get one's own.
 */
export function tooManyTasks(owner: string, max: number): McpError {
  const message =
    owner === ANONYMOUS_TASK_OWNER
      ? `Too many tasks: unauthenticated callers share one limit of ${max} running task${max === 1 ? "" : "s"}, and it is reached; wait for one to finish or cancel one (the server can require authentication to give each caller its own limit)`
      : `Too many tasks: this caller already has ${max} tasks running; wait for one to finish or cancel one`;
  return McpError.of("INVALID_REQUEST", message, { reason: "too_many_tasks", maxActiveTasks: max });
}
