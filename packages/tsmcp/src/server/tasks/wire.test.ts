import { describe, expect, it } from "vitest";
import { DetailedTaskSchema } from "../../protocol/schema/tasks.js";
import type { TaskSnapshot } from "./fanout.js";
import { toDetailedTask } from "./wire.js";

const base: TaskSnapshot = {
  taskId: "t-1",
  owner: "anonymous",
  status: "completed",
  createdAtMs: Date.UTC(2026, 6, 28),
  lastUpdatedAtMs: Date.UTC(2026, 6, 28, 0, 0, 1),
  ttlMs: 60_000,
  pollIntervalMs: 50,
};

describe("toDetailedTask", () => {
  it("inlines a completed task's result as the call would have answered it, resultType complete included", () => {
    const stored = { content: [{ type: "text", text: "done" }], isError: false };
    const detailed = toDetailedTask({ ...base, result: stored });
    expect(detailed.result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "done" }],
      isError: false,
    });
    expect(DetailedTaskSchema.parse(detailed)).toEqual(detailed);
    expect(stored).toEqual({ content: [{ type: "text", text: "done" }], isError: false });
  });

  it("keeps the task's other payloads to their status: the error of a failed task, no result", () => {
    const detailed = toDetailedTask({
      ...base,
      status: "failed",
      result: { content: [] },
      error: { code: -32603, message: "lost", data: { worker: 7 } },
    });
    expect(detailed.result).toBeUndefined();
    expect(detailed.error).toEqual({ code: -32603, message: "lost", data: { worker: 7 } });
  });
});
