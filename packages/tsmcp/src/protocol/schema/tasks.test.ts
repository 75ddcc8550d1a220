import { describe, expect, it } from "vitest";
import { GetTaskResultSchema } from "./tasks.js";

const failed = {
  resultType: "complete",
  taskId: "t-1",
  status: "failed",
  createdAt: "2026-07-28T00:00:00.000Z",
  lastUpdatedAt: "2026-07-28T00:00:01.000Z",
  ttlMs: 60_000,
  statusMessage: "The job lost its worker",
};

describe("GetTaskResultSchema", () => {
  it("reads a failed task whose JSON-RPC error has no data (data is optional in JSON-RPC)", () => {
    const parsed = GetTaskResultSchema.parse({ ...failed, error: { code: -32603, message: "lost" } });
    expect(parsed.error).toEqual({ code: -32603, message: "lost" });
  });

  it("keeps the error's data when there is some", () => {
    const parsed = GetTaskResultSchema.parse({
      ...failed,
      error: { code: -32603, message: "lost", data: { worker: 7 } },
    });
    expect(parsed.error).toEqual({ code: -32603, message: "lost", data: { worker: 7 } });
  });

  it("refuses an error without its code", () => {
    expect(GetTaskResultSchema.safeParse({ ...failed, error: { message: "lost" } }).success).toBe(false);
  });
});
