/**
 * The tasks guide's 2025-11-25 section (examples/docs/tasks-legacy.ts) over Streamable HTTP on
 * 127.0.0.1: the task tool run as a 2025-11-25 task, its question answered while `tasks/result`
 * waits.
 */
import { serve } from "tsmcp/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportAsTask, exportServer } from "./tasks-legacy.js";

let handle: Awaited<ReturnType<typeof serve>>;

beforeAll(async () => {
  handle = await serve(exportServer(), { port: 0 });
});

afterAll(async () => {
  await handle?.close();
});

describe("the tasks guide's 2025-11-25 section", () => {
  it("runs the tool as a 2025-11-25 task and answers its question during tasks/result", async () => {
    const result = await exportAsTask(handle.url, "orders");
    expect(result.content).toEqual([{ type: "text", text: "exported orders with deleted rows" }]);
  });
});
