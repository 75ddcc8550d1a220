/**
 * The tasks extension's wire schemas read what a conforming server sends: a failed task's `error`
 * is a JSON-RPC error object, whose `data` is optional.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (schema/draft/schema.ts, `FailedTask`).
 */
import { describe, expect, it } from "vitest";
import { GetTaskResultSchema, TaskErrorSchema } from "./tasks.js";

const failed = {
  taskId: "t-1",
  status: "failed",
  statusMessage: "The server running this task stopped before it finished",
  createdAt: "2026-07-28T00:00:00.000Z",
  lastUpdatedAt: "2026-07-28T00:00:01.000Z",
  ttlMs: 60_000,
  error: { code: -32603, message: "The server running this task stopped before it finished" },
};

describe("the tasks extension's wire schemas", () => {
  it("read a failed task whose error has no data", () => {
    expect(TaskErrorSchema.safeParse(failed.error).success).toBe(true);
    expect(GetTaskResultSchema.parse(failed)).toEqual(failed);
  });

  it("keep a failed task's error data when there is some", () => {
    const error = { code: -32603, message: "rate limited", data: { retryAfterMs: 5000 } };
    expect(GetTaskResultSchema.parse({ ...failed, error }).error).toEqual(error);
  });

  it("refuse an error without its code or message", () => {
    expect(TaskErrorSchema.safeParse({ message: "no code" }).success).toBe(false);
    expect(TaskErrorSchema.safeParse({ code: -32603 }).success).toBe(false);
  });
});
