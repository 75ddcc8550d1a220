/**
 * `tasks/result` of a 2025-11-25 session: waits until the task is terminal and answers exactly what
 * the `tools/call` would have (its result with `_meta["io.modelcontextprotocol/related-task"]`, or
 * its JSON-RPC error). While it waits, each request the task has outstanding (`input_required`) is
 * sent to the client as a real server -> client request over this request's back-channel, tagged
 * with the related-task `_meta`, and the client's answer is recorded with `TaskManager.answer`, so
 * the task may run on another replica than the one serving `tasks/result`. A request given up
 * because `tasks/result` ended (the client went away) stays outstanding for the next `tasks/result`;
 * the client's error (or no answer in time) fails it inside the task, as outside one.
 * Spec (2025-11-25): https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/tasks
 * §Retrieving Task Results, §Input Required Status, §Result Retrieval.
 */
import { ERRORS, McpError } from "../../protocol/errors.js";
import { isTerminalTaskStatus, type TaskRecord } from "../../state/task-store.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import { noBackChannel } from "../back-channel.js";
import type { WireResult } from "../middleware.js";
import { backChannelOf } from "../telemetry/back-channel-span.js";
import { inputFailure } from "./inputs.js";
import { toLegacyTask, withRelatedTask } from "./legacy-wire.js";
import { pollWait, type TaskManager } from "./manager.js";
import { unknownTask } from "./methods.js";

/**
 * The error `tasks/result` answers for a cancelled task, which has no result: -32600, with
 * `data: { taskId, status: "cancelled" }`. Not -32602 (the task is known, and a client would take
 * it for gone) nor -32603 (nothing failed on the server): the requestor asked for the result of a
 * request that was cancelled.
 */
export function cancelledTaskError(taskId: string): McpError {
  return McpError.of("INVALID_REQUEST", `Task ${taskId} was cancelled; it has no result`, {
    taskId,
    status: "cancelled",
  });
}

/** What a terminal task answers to `tasks/result`: its result, or its error. */
function answerOf(record: TaskRecord): WireResult {
  if (record.status === "completed") {
    const { resultType: _r, ttlMs: _t, cacheScope: _c, ...result } = record.result ?? {};
    return withRelatedTask(result, record.taskId);
  }
  if (record.status === "cancelled") throw cancelledTaskError(record.taskId);
  const error = record.error;
  if (error === undefined) {
    throw new McpError(ERRORS.INTERNAL_ERROR.code, toLegacyTask(record).statusMessage ?? "The task failed");
  }
  throw new McpError(error.code, error.message, error.data);
}

/** One `tasks/result` call's forwarding of a task's outstanding requests. */
class Forwarder {
  /** Keys forwarded by this call (each at most once). */
  readonly #sent = new Set<string>();
  readonly #tasks: TaskManager;
  readonly #owner: string;
  readonly #taskId: string;
  readonly #env: RequestEnvironment;
  /** Aborted when this `tasks/result` ends: a request still waiting for its answer is withdrawn. */
  readonly #ended = new AbortController();
  #settled: () => void = () => {};

  constructor(tasks: TaskManager, owner: string, taskId: string, env: RequestEnvironment) {
    this.#tasks = tasks;
    this.#owner = owner;
    this.#taskId = taskId;
    this.#env = env;
  }

  /** Withdraws the requests still waiting (the client is sent `notifications/cancelled`). */
  close(): void {
    this.#ended.abort(new DOMException("tasks/result ended", "AbortError"));
  }

  /** Resolves when a forwarded request settles (a reason to read the task again). */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#settled = resolve;
    });
  }

  /**
   * Sends the task's outstanding requests not sent yet by this call.
   *
   * @throws McpError -32600 when there is no back-channel to send them on.
   */
  forward(record: TaskRecord): void {
    const entries = Object.entries(record.inputRequests ?? {}).filter(([key]) => !this.#sent.has(key));
    if (entries.length === 0) return;
    const send = backChannelOf(this.#env);
    if (send === undefined) {
      const first = entries[0]?.[1] as { method?: unknown } | undefined;
      throw noBackChannel(String(first?.method), this.#env);
    }
    for (const [key, entry] of entries) {
      this.#sent.add(key);
      void this.#one(send, key, entry as { method?: unknown; params?: unknown }).finally(() =>
        this.#settled(),
      );
    }
  }

  async #one(
    send: NonNullable<RequestEnvironment["request"]>,
    key: string,
    entry: { method?: unknown; params?: unknown },
  ): Promise<void> {
    const signal = AbortSignal.any([this.#env.signal, this.#ended.signal]);
    const params = typeof entry.params === "object" && entry.params !== null ? entry.params : {};
    let answer: unknown;
    try {
      answer = await send(
        String(entry.method),
        withRelatedTask(params as Record<string, unknown>, this.#taskId),
        {
          signal,
        },
      );
    } catch (error) {
      // tasks/result ended: the question stays outstanding for the next one.
      if (signal.aborted) return;
      answer = inputFailure(
        error instanceof McpError ? error : McpError.of("INTERNAL_ERROR", "The client's answer was lost"),
      );
    }
    await this.#tasks.answer(this.#owner, this.#taskId, { [key]: answer }).catch(() => undefined);
  }
}

/**
 * Serves `tasks/result` for `owner`'s task `taskId` on the request environment `env` (its
 * back-channel carries the task's requests; its signal ends the wait).
 *
 * @throws McpError -32602 for a task unknown, expired or another owner's; the task's own error
 *   when it failed; {@link cancelledTaskError} when it was cancelled; -32600 when the task needs
 *   input and this request has no back-channel; the signal's reason when it aborts first.
 */
export async function serveLegacyTaskResult(
  tasks: TaskManager,
  owner: string,
  taskId: string,
  env: RequestEnvironment,
): Promise<WireResult> {
  const forwarder = new Forwarder(tasks, owner, taskId, env);
  try {
    return await waitForEnd(tasks, owner, taskId, env.signal, forwarder);
  } finally {
    forwarder.close();
  }
}

/** Reads the task at each change (and every `pollIntervalMs`) until it is terminal, forwarding its questions. */
async function waitForEnd(
  tasks: TaskManager,
  owner: string,
  taskId: string,
  signal: AbortSignal,
  forwarder: Forwarder,
): Promise<WireResult> {
  for (;;) {
    signal.throwIfAborted();
    let wake: () => void = () => {};
    const changed = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const stop = tasks.onChange((task) => {
      if (task.taskId === taskId) wake();
    });
    const tick = new AbortController();
    try {
      const record = await tasks.get(owner, taskId);
      if (record === undefined) throw unknownTask();
      if (isTerminalTaskStatus(record.status)) return answerOf(record);
      if (record.status === "input_required") forwarder.forward(record);
      await Promise.race([
        changed,
        forwarder.next(),
        pollWait(tasks, tasks.pollIntervalMs, AbortSignal.any([signal, tick.signal])),
      ]);
    } finally {
      stop();
      tick.abort();
    }
  }
}
