/**
 * `ToolTask`: the handle of a tool call the server runs as a task. It follows the task with
 * `tasks/get` (at the server's `pollIntervalMs`, backing off while nothing changes), answers its
 * `inputRequests` with the client's callbacks (each key once, whatever the number of polls that
 * show it) through `tasks/update`, and settles with the tool's result, the task's error as an
 * `McpError`, or `TaskCancelledError`. On a 2025-11-25 session it polls `tasks/get` and collects
 * with `tasks/result`, the server's questions arriving on the back-channel meanwhile.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md);
 * (2025-11-25) https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 */
import type { Clock } from "../protocol/clock.js";
import { ERRORS, McpError } from "../protocol/errors.js";
import type { InputRequest } from "../protocol/schema/input.js";
import { type CallToolResult, CallToolResultSchema } from "../protocol/schema/methods.js";
import type { DetailedTask, Task } from "../protocol/schema/tasks.js";
import { isTerminalTaskStatus, type TaskStatus } from "../state/task-store.js";
import { InputRequestsPerRoundExceededError, TaskCancelledError } from "./errors.js";
import { type Fulfil, fulfilAll } from "./input-required.js";
import type { ClientSession } from "./session.js";
import type { RequestOptions } from "./session-options.js";
import { nextPollDelayMs } from "./task-poll.js";
import { parseAnswer } from "./task-wire.js";

/** Receives each change of a task's status or status message seen while polling. */
export type TaskStatusListener = (task: Task) => void;

/**
 * A tool call run as a task (`client.callTool(name, args, { task: true })`, or rebuilt from its id
 * with `client.task(taskId)`). Nothing is polled until {@link ToolTask.result} is called.
 */
export interface ToolTask {
  /**
   * The server's task id; keep it to follow the task from another process (`client.task(taskId)`).
   * Undefined when the server answered the call at once with its result: the handle then holds that
   * result, `status` is `"completed"`, and `result()` resolves it without a request.
   */
  readonly taskId: string | undefined;
  /** The latest status seen: `working`, `input_required`, or terminal `completed`, `failed`, `cancelled`. */
  readonly status: TaskStatus;
  /** The latest status message the server gave, if any (it may be shown to the user). */
  readonly statusMessage: string | undefined;
  /** The latest task the server described (undefined when it answered at once). */
  readonly task: Task | undefined;
  /**
   * Calls `listener` with the task each time a poll sees its status or status message change
   * (not for the state the handle starts from: read `status` for that). What it throws is
   * ignored. Returns a function that removes it.
   */
  onStatus(listener: TaskStatusListener): () => void;
  /**
   * Polls the task to its end and resolves the tool's result. While it waits, each new
   * `inputRequests` entry is answered with the client's callbacks (elicitation, sampling, roots:
   * the same as for an `input_required` round) and sent with `tasks/update`; a key is asked once,
   * however many polls show it. Polls follow the server's `pollIntervalMs` (default
   * `DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS`; never faster than it, nor than `TASK_POLL_INTERVAL_MIN_MS`;
   * a suggestion is honoured up to `TASK_POLL_INTERVAL_HINT_MAX_MS`), growing by
   * `TASK_POLL_BACKOFF_FACTOR` while nothing changes up to `TASK_POLL_INTERVAL_MAX_MS` (the client's
   * own back-off ceiling; a larger server interval stays as it is). Aborting `signal` stops
   * waiting (the task goes on: {@link ToolTask.cancel} stops it); calling again polls again.
   *
   * @throws McpError carrying the task's error when it ends `failed`; TaskCancelledError when it
   *   ends `cancelled`; UnknownTaskError when the server no longer knows it (-32602);
   *   InputRequestsPerRoundExceededError when one poll shows more new `inputRequests` than
   *   `inputRequestsMaxPerRound`; UnsupportedInputRequestError or a callback's error (the task
   *   stays `input_required`); McpError, TransportError, RequestTimeoutError of a poll; the
   *   signal's reason.
   */
  result(options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  /**
   * Asks the server to cancel the task (`tasks/cancel`). Cooperative: the server may still finish
   * it, and a pending `result()` settles with what the task ends as. Nothing is sent for a call the
   * server answered at once.
   *
   * @throws UnknownTaskError (-32602: unknown, or on a 2025-11-25 server already ended); McpError.
   */
  cancel(options?: RequestOptions): Promise<void>;
}

/** What a handle needs from its client. */
export interface ToolTaskContext {
  readonly session: ClientSession;
  /** Answers one input request with the client's callbacks (for the tool `target`). */
  readonly fulfil: Fulfil;
  readonly clock: Clock;
  readonly maxRequestsPerRound: number;
  readonly concurrency: number;
  /** Runs `body` as the one call in flight, so a 2025-era server's requests name the tool. */
  track<T>(body: () => Promise<T>): Promise<T>;
}

/** Where a handle starts: a result given at once, the created task, or a polled one. */
export type ToolTaskStart =
  | { readonly result: CallToolResult }
  | { readonly created: Task }
  | { readonly polled: DetailedTask };

/** A handle on a task, or on a result the server gave at once. */
export function toolTask(context: ToolTaskContext, start: ToolTaskStart): ToolTask {
  return new ToolTaskHandle(context, start);
}

/** The task's error as the `McpError` it reports (-32603 when the server left it out). */
function taskError(task: DetailedTask): McpError {
  const error = task.error;
  if (error === undefined) {
    return new McpError(ERRORS.INTERNAL_ERROR.code, task.statusMessage ?? `Task ${task.taskId} failed`);
  }
  return new McpError(error.code, error.message, error.data);
}

class ToolTaskHandle implements ToolTask {
  readonly taskId: string | undefined;
  readonly #context: ToolTaskContext;
  #task: Task | undefined;
  #status: TaskStatus;
  #statusMessage: string | undefined;
  /** A `tasks/get` answer not yet acted on (a rebuilt handle's first look). */
  #pending: DetailedTask | undefined;
  #result: CallToolResult | undefined;
  readonly #listeners = new Set<TaskStatusListener>();
  /** Keys answered with `tasks/update`, never asked again. */
  readonly #answered = new Set<string>();
  /** Keys being asked now, with the work that answers them. */
  readonly #asking = new Map<string, Promise<void>>();
  #round = 0;

  constructor(context: ToolTaskContext, start: ToolTaskStart) {
    this.#context = context;
    if ("result" in start) {
      this.taskId = undefined;
      this.#result = start.result;
      this.#status = "completed";
      return;
    }
    const task = "created" in start ? start.created : start.polled;
    this.taskId = task.taskId;
    this.#task = task;
    this.#status = task.status;
    this.#statusMessage = task.statusMessage;
    if ("polled" in start) this.#pending = start.polled;
  }

  get status(): TaskStatus {
    return this.#status;
  }

  get statusMessage(): string | undefined {
    return this.#statusMessage;
  }

  get task(): Task | undefined {
    return this.#task;
  }

  onStatus(listener: TaskStatusListener): () => void {
    if (typeof listener !== "function") throw new TypeError("onStatus: listener must be a function");
    const entry: TaskStatusListener = (task) => listener(task);
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  async result(options: { signal?: AbortSignal } = {}): Promise<CallToolResult> {
    if (this.#result !== undefined) return this.#result;
    const taskId = this.taskId as string;
    const result =
      this.#context.session.era === "legacy"
        ? await this.#pollLegacy(taskId, options.signal)
        : await this.#poll(taskId, options.signal);
    this.#result = result;
    return result;
  }

  async cancel(options: RequestOptions = {}): Promise<void> {
    if (this.taskId === undefined) return;
    const cancelled = await this.#context.session.cancelTask(this.taskId, options);
    if (cancelled !== undefined) this.#see(cancelled);
  }

  /** Records what a poll saw; true (and listeners told) when the status or its message changed. */
  #see(task: Task): boolean {
    const { inputRequests: _i, result: _r, error: _e, ...plain } = task as DetailedTask;
    this.#task = plain;
    if (task.status === this.#status && task.statusMessage === this.#statusMessage) return false;
    this.#status = task.status;
    this.#statusMessage = task.statusMessage;
    for (const listener of this.#listeners) {
      try {
        listener(plain);
      } catch {
        // A listener's failure is its own.
      }
    }
    return true;
  }

  /**
   * The next look at the task: a `tasks/get` answer not acted on yet (`fresh`: not a poll that saw
   * nothing new), else one `tasks/get` after the wait the back-off asks for.
   */
  async #next(
    taskId: string,
    unchanged: number,
    signal: AbortSignal | undefined,
  ): Promise<{ task: DetailedTask; fresh: boolean }> {
    const pending = this.#pending;
    if (pending !== undefined) {
      this.#pending = undefined;
      return { task: pending, fresh: true };
    }
    await this.#context.clock.sleep(nextPollDelayMs(this.#task?.pollIntervalMs, unchanged), signal);
    const task = await this.#context.session.getTask(taskId, signal === undefined ? {} : { signal });
    return { task, fresh: false };
  }

  async #poll(taskId: string, signal: AbortSignal | undefined): Promise<CallToolResult> {
    let unchanged = 0;
    for (;;) {
      const { task, fresh } = await this.#next(taskId, unchanged, signal);
      let changed = this.#see(task) || fresh;
      if (task.status === "completed") return parseAnswer(CallToolResultSchema, "tasks/get", task.result);
      if (task.status === "failed") throw taskError(task);
      if (task.status === "cancelled") throw new TaskCancelledError(taskId, task.statusMessage);
      if (task.status === "input_required" && (await this.#answer(taskId, task, signal))) changed = true;
      unchanged = changed ? 0 : unchanged + 1;
    }
  }

  /**
   * Answers the keys of `task.inputRequests` not answered (nor being answered) yet, in one
   * `tasks/update`; waits for the keys another `result()` call is answering. True when it sent answers.
   */
  async #answer(taskId: string, task: DetailedTask, signal: AbortSignal | undefined): Promise<boolean> {
    const entries = Object.entries(task.inputRequests ?? {});
    const others = entries.flatMap(([key]) => this.#asking.get(key) ?? []);
    const fresh = entries.filter(([key]) => !this.#answered.has(key) && !this.#asking.has(key));
    if (fresh.length > this.#context.maxRequestsPerRound) {
      throw new InputRequestsPerRoundExceededError(
        this.#context.maxRequestsPerRound,
        fresh.length,
        "tasks/get",
      );
    }
    if (fresh.length > 0) {
      const round = ++this.#round;
      const work = (async () => {
        const answers = await fulfilAll(
          fresh as [string, InputRequest][],
          this.#context.fulfil,
          round,
          this.#context.concurrency,
          signal,
        );
        await this.#context.session.updateTask(taskId, answers, signal === undefined ? {} : { signal });
        for (const [key] of fresh) this.#answered.add(key);
      })();
      for (const [key] of fresh) this.#asking.set(key, work);
      try {
        await work;
      } finally {
        for (const [key] of fresh) this.#asking.delete(key);
      }
    }
    await Promise.all(others);
    return fresh.length > 0;
  }

  /**
   * 2025-11-25: polls `tasks/get` until the task needs input or ends, then collects with
   * `tasks/result` (which waits for the end; the server's questions come on the back-channel).
   */
  async #pollLegacy(taskId: string, signal: AbortSignal | undefined): Promise<CallToolResult> {
    let unchanged = 0;
    for (;;) {
      const { task, fresh } = await this.#next(taskId, unchanged, signal);
      unchanged = this.#see(task) || fresh ? 0 : unchanged + 1;
      if (task.status === "cancelled") throw new TaskCancelledError(taskId, task.statusMessage);
      if (task.status === "working") continue;
      const options = { timeoutMs: Number.POSITIVE_INFINITY, ...(signal === undefined ? {} : { signal }) };
      try {
        const result = await this.#context.track(() => this.#context.session.taskResult(taskId, options));
        this.#settled("completed");
        return result;
      } catch (error) {
        if (!(error instanceof McpError)) throw error;
        // A task cancelled while tasks/result waited has no result: the server answers an error.
        const cancelled = await this.#cancelledNow(taskId, signal);
        if (cancelled !== undefined) throw new TaskCancelledError(taskId, cancelled.statusMessage);
        this.#settled("failed", error.message);
        throw error;
      }
    }
  }

  /**
   * The task when one more `tasks/get` shows it `cancelled` (recorded), else undefined (2025-11-25:
   * how an error of `tasks/result` is told apart from the task's own).
   */
  async #cancelledNow(taskId: string, signal: AbortSignal | undefined): Promise<Task | undefined> {
    const task = await this.#context.session
      .getTask(taskId, signal === undefined ? {} : { signal })
      .catch(() => undefined);
    if (task?.status !== "cancelled") return undefined;
    this.#see(task);
    return task;
  }

  /** Records a terminal status learnt from `tasks/result` (2025-11-25). */
  #settled(status: "completed" | "failed", statusMessage?: string): void {
    if (this.#task === undefined || isTerminalTaskStatus(this.#status)) return;
    const { statusMessage: _old, ...rest } = this.#task;
    this.#see({ ...rest, status, ...(statusMessage === undefined ? {} : { statusMessage }) });
  }
}
