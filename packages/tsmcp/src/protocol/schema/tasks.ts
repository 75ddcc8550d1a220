/**
 * Wire schemas of the tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) at 2026-07-28:
 * the `Task` shape, `CreateTaskResult` (`resultType: "task"`), the `DetailedTask` of `tasks/get`
 * and `notifications/tasks`, and the params of `tasks/get`, `tasks/update` and `tasks/cancel`.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import * as z from "zod";
import { JSONObjectSchema, ResultBaseSchema } from "./base.js";
import { InputRequestsSchema, InputResponsesSchema } from "./input.js";
import { RequestParamsSchema } from "./methods.js";

/** The extension's identifier, the key under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** A task's status: `working`, `input_required`, or terminal `completed`, `failed`, `cancelled`. */
export const TaskStatusSchema = z.enum(["working", "input_required", "completed", "failed", "cancelled"]);

/** The fields every task carries (Task). */
export const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: TaskStatusSchema,
  statusMessage: z.string().optional(),
  /** ISO 8601. */
  createdAt: z.string(),
  /** ISO 8601. */
  lastUpdatedAt: z.string(),
  /** Milliseconds from creation the task is kept; null for unlimited. */
  ttlMs: z.number().int().nonnegative().nullable(),
  /** Suggested polling interval, milliseconds. */
  pollIntervalMs: z.number().int().positive().optional(),
});
/** The {@link TaskSchema} shape. */
export type Task = z.infer<typeof TaskSchema>;

/** A JSON-RPC error as a failed task carries it: `code`, `message`, and `data` when there is some. */
export const TaskErrorSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/**
 * A task with its status's payload inlined (DetailedTask): `inputRequests` while
 * `input_required`, `result` once `completed`, `error` once `failed`.
 */
export const DetailedTaskSchema = TaskSchema.extend({
  inputRequests: InputRequestsSchema.optional(),
  result: JSONObjectSchema.optional(),
  error: TaskErrorSchema.optional(),
});
/** The {@link DetailedTaskSchema} shape. */
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;

/** `CreateTaskResult`: a `tools/call` answered with a task (`resultType: "task"`), flat. */
export const CreateTaskResultSchema = ResultBaseSchema.extend(TaskSchema.shape).extend({
  resultType: z.literal("task"),
});
/** The {@link CreateTaskResultSchema} shape. */
export type CreateTaskResult = z.infer<typeof CreateTaskResultSchema>;

/** `tasks/get` result: the DetailedTask, `resultType: "complete"`. */
export const GetTaskResultSchema = ResultBaseSchema.extend(DetailedTaskSchema.shape);
/** The {@link GetTaskResultSchema} shape. */
export type GetTaskResult = z.infer<typeof GetTaskResultSchema>;

/** `tasks/get` and `tasks/cancel` params. */
export const TaskIdParamsSchema = RequestParamsSchema.extend({ taskId: z.string() });
/** The {@link TaskIdParamsSchema} shape. */
export type TaskIdParams = z.infer<typeof TaskIdParamsSchema>;

/** `tasks/update` params: answers to outstanding `inputRequests`, by key. */
export const UpdateTaskParamsSchema = TaskIdParamsSchema.extend({ inputResponses: InputResponsesSchema });
/** The {@link UpdateTaskParamsSchema} shape. */
export type UpdateTaskParams = z.infer<typeof UpdateTaskParamsSchema>;

/** `notifications/tasks` params: the full DetailedTask. */
export const TaskNotificationParamsSchema = DetailedTaskSchema;
