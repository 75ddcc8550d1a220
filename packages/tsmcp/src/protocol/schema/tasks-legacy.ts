/**
 * Wire schemas of the 2025-11-25 revision's core tasks (not the extension): the `Task` whose
 * durations are `ttl` and `pollInterval`, `CreateTaskResult { task }`, and the `tasks/list` page,
 * with the conversion of a 2025 task to the extension's field names (`ttlMs`, `pollIntervalMs`), so
 * a client shows one shape for both eras.
 * Spec (2025-11-25): https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import * as z from "zod";
import { ResultBaseSchema } from "./base.js";
import { type Task, TaskStatusSchema } from "./tasks.js";

/** A 2025-11-25 `Task`: `ttl` (milliseconds, null unlimited) and `pollInterval` (milliseconds). */
export const LegacyTaskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.number().nonnegative().nullable(),
  pollInterval: z.number().positive().optional(),
});
/** The {@link LegacyTaskSchema} shape. */
export type LegacyTask = z.infer<typeof LegacyTaskSchema>;

/** A 2025-11-25 `CreateTaskResult`: the task nested under `task`. */
export const LegacyCreateTaskResultSchema = ResultBaseSchema.extend({ task: LegacyTaskSchema });

/** A 2025-11-25 `tasks/get` or `tasks/cancel` result: the task, flat. */
export const LegacyGetTaskResultSchema = ResultBaseSchema.extend(LegacyTaskSchema.shape);

/** A 2025-11-25 `tasks/list` page. */
export const LegacyListTasksResultSchema = ResultBaseSchema.extend({
  tasks: z.array(LegacyTaskSchema),
  nextCursor: z.string().optional(),
});

/** A 2025-11-25 task under the extension's field names: `ttl` -> `ttlMs`, `pollInterval` -> `pollIntervalMs`. */
export function taskFromLegacy(task: LegacyTask): Task {
  const { ttl, pollInterval, ...rest } = task;
  return {
    ...rest,
    ttlMs: ttl === null ? null : Math.round(ttl),
    ...(pollInterval === undefined ? {} : { pollIntervalMs: Math.max(1, Math.round(pollInterval)) }),
  };
}

/**
 * The `_meta` key that ties a message to its task at 2025-11-25: `{ taskId }` on the result of
 * `tasks/result` and on every server -> client request a task makes.
 */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

/** A 2025-11-25 task-augmented request's `params.task`: the TTL asked for, milliseconds. */
export const LegacyTaskParamsSchema = z.looseObject({ ttl: z.number().nonnegative().nullable().optional() });
