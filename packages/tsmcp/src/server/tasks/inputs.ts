/**
 * Input inside a running task: each server -> client request the task's work makes (an elicitation,
 * a sampling request, a roots request, or a hand-built round's `inputRequests`) becomes an entry of
 * the task's `inputRequests` under a key unique over the task's lifetime, the task turns
 * `input_required`, and the request's promise resolves when an answer for that key reaches the
 * runner (`tasks/update` on any replica -> the store -> {@link TaskInputs.deliver}). A request given
 * up (its signal aborted, or timed out) is withdrawn from the task. Spec:
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Update Requests).
 */
import { type Deferred, deferred, onAbort } from "../../protocol/async.js";
import { McpError } from "../../protocol/errors.js";
import type { TaskRecord, TaskStore } from "../../state/task-store.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";

/**
 * The one key of an answer that stands for an error instead of a result: the client answered the
 * request with a JSON-RPC error, or did not answer in time, where the request was forwarded over a
 * 2025-11-25 session's back-channel (`tasks/result`). Its request then fails with that error in
 * the task, as it would have outside one. The 2026-07-28 `tasks/update` cannot carry it (its
 * answers are validated as results).
 */
export const INPUT_FAILURE_KEY = "tsmcp/inputFailed";

/** The answer that makes an input request of a task fail with `error` (see {@link INPUT_FAILURE_KEY}). */
export function inputFailure(error: McpError): Record<string, unknown> {
  return { [INPUT_FAILURE_KEY]: error.toObject() };
}

/** The error an answer stands for (see {@link INPUT_FAILURE_KEY}), or undefined for a result. */
export function failureOf(answer: unknown): McpError | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  const keys = Object.keys(answer);
  if (keys.length !== 1 || keys[0] !== INPUT_FAILURE_KEY) return undefined;
  const error = (answer as Record<string, unknown>)[INPUT_FAILURE_KEY] as
    | { code?: unknown; message?: unknown; data?: unknown }
    | undefined;
  if (typeof error?.code !== "number" || typeof error.message !== "string") return undefined;
  return new McpError(error.code, error.message, error.data);
}

/** What {@link TaskInputs} needs of the run it serves. */
export interface InputChannel {
  /** Runs one store write of the run, after the run's earlier writes; resolves with its outcome. */
  write<T>(op: (store: TaskStore) => Promise<T>): Promise<T>;
  /** The task's id. */
  readonly taskId: string;
  /** The holder of the run's lease (the store refuses writes of anyone else). */
  readonly holder: string;
  /** Reports a change the run wrote (published as a status change). */
  changed(record: TaskRecord): void;
  /** The error a request fails with when the task no longer runs here. */
  gone(): unknown;
  /** The current time, epoch milliseconds. */
  now(): number;
  /** Reports a failed write that the caller does not see. */
  warn(message: string, error: unknown): void;
}

/** Options of one {@link TaskInputs.ask}. */
export interface AskOptions {
  /** Gives the requests up: they are withdrawn and the promise rejects with the reason. */
  readonly signal: AbortSignal;
  /** Milliseconds to wait for every answer before giving up with -32001. Default: no limit. */
  readonly timeoutMs?: number | undefined;
}

/** The input requests of one running task and the answers awaited for them. */
export class TaskInputs {
  readonly #channel: InputChannel;
  /** Every key this task has used, so that none is ever used twice. */
  readonly #used = new Set<string>();
  readonly #waiting = new Map<string, Deferred<unknown>>();

  constructor(channel: InputChannel) {
    this.#channel = channel;
  }

  /**
   * Adds `requests` (by the caller's keys) to the task's `inputRequests`, each under a key unique
   * over the task's lifetime (the caller's key the first time it is used, then `key-2`, `key-3`,
   * ...), and resolves with the answers, by the caller's keys, once every one is answered.
   *
   * @throws the run's `gone()` error when the task is no longer running here; the signal's reason
   *   when it aborts first; McpError -32001 "Request timed out" after `timeoutMs`.
   */
  async ask(
    requests: Readonly<Record<string, unknown>>,
    options: AskOptions,
  ): Promise<Record<string, unknown>> {
    options.signal.throwIfAborted();
    const keys = Object.keys(requests).map((key) => [key, this.#mint(key)] as const);
    const answers = new Map(keys.map(([, taskKey]) => [taskKey, deferred<unknown>({ handled: true })]));
    for (const [taskKey, answer] of answers) this.#waiting.set(taskKey, answer);
    const added = Object.fromEntries(keys.map(([key, taskKey]) => [taskKey, requests[key]]));
    const taskKeys = [...answers.keys()];
    const updated = await this.#channel.write((store) =>
      store.update(
        this.#channel.taskId,
        { status: "input_required", addInputRequests: added, lastUpdatedAtMs: this.#channel.now() },
        { leaseHolder: this.#channel.holder },
      ),
    );
    if (updated === undefined) {
      this.#forget(taskKeys);
      throw this.#channel.gone();
    }
    this.#channel.changed(updated);
    const givenUp = deferred<never>({ handled: true });
    const stopListening = onAbort(options.signal, (reason) => givenUp.reject(reason));
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () => givenUp.reject(McpError.of("REQUEST_TIMEOUT", "Request timed out")),
            options.timeoutMs,
          );
    try {
      const values = await Promise.race([
        Promise.all(taskKeys.map((key) => answers.get(key)?.promise)),
        givenUp.promise,
      ]);
      return Object.fromEntries(keys.map(([key], index) => [key, values[index]]));
    } catch (error) {
      const pending = taskKeys.filter((key) => this.#waiting.has(key));
      this.#forget(taskKeys);
      if (pending.length > 0) {
        await this.#withdraw(pending).catch((failure: unknown) => {
          this.#channel.warn("withdrawing a task's unanswered input requests failed", failure);
        });
      }
      throw error;
    } finally {
      stopListening();
      if (timer !== undefined) clearTimeout(timer);
    }
  }

  /** Hands answers taken from the store to the requests awaiting them; others are dropped. */
  deliver(answers: Readonly<Record<string, unknown>>): void {
    for (const [key, answer] of Object.entries(answers)) {
      const waiting = this.#waiting.get(key);
      if (waiting === undefined) continue;
      this.#waiting.delete(key);
      waiting.resolve(answer);
    }
  }

  /** Fails every request still awaiting an answer with `reason` (the task ended). */
  failAll(reason: unknown): void {
    for (const waiting of this.#waiting.values()) waiting.reject(reason);
    this.#waiting.clear();
  }

  /** A key for `preferred` that this task has never used. */
  #mint(preferred: string): string {
    let key = preferred;
    for (let n = 2; this.#used.has(key); n++) key = `${preferred}-${n}`;
    this.#used.add(key);
    return key;
  }

  #forget(keys: readonly string[]): void {
    for (const key of keys) this.#waiting.delete(key);
  }

  /**
   * Withdraws `keys` from the task's outstanding requests; when none is left the task is `working`
   * again. The run's writes are serialised, so no request of its own is added in between.
   */
  async #withdraw(keys: readonly string[]): Promise<void> {
    const { taskId, holder } = this.#channel;
    const withdrawn = await this.#channel.write(async (store) => {
      const now = this.#channel.now();
      const left = await store.update(
        taskId,
        { removeInputRequests: keys, lastUpdatedAtMs: now },
        { leaseHolder: holder },
      );
      if (left === undefined || left.status !== "input_required" || left.inputRequests !== undefined)
        return left;
      return await store.update(taskId, { status: "working", lastUpdatedAtMs: now }, { leaseHolder: holder });
    });
    if (withdrawn !== undefined) this.#channel.changed(withdrawn);
  }
}

/** The key a server -> client request of each method gets in the task's `inputRequests` (then made unique). */
const INPUT_KEY_OF: Readonly<Record<string, string>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};

/**
 * The request environment a task's work runs in, from its request's `env`: the task's `signal`;
 * progress and log messages to the request's stream only while `requestOpen()`; each server ->
 * client request asked through the task (`ask`, one entry under its method's key), failing with
 * the client's error where the answer stands for one (see {@link INPUT_FAILURE_KEY}); the request's
 * auth, headers and session.
 */
export function taskEnvironment(
  env: RequestEnvironment,
  signal: AbortSignal,
  task: {
    requestOpen(): boolean;
    ask(
      requests: Readonly<Record<string, unknown>>,
      options?: { signal?: AbortSignal; timeoutMs?: number },
    ): Promise<Record<string, unknown>>;
  },
): RequestEnvironment {
  return {
    signal,
    notify: (notification) => {
      if (task.requestOpen()) env.notify?.(notification);
    },
    request: async (method, params, options) => {
      const entry = params === undefined ? { method } : { method, params };
      const answers = await task.ask({ [INPUT_KEY_OF[method] ?? "input"]: entry }, options);
      const answer = Object.values(answers)[0];
      const failure = failureOf(answer);
      if (failure !== undefined) throw failure;
      return answer as Record<string, unknown>;
    },
    ...(env.auth === undefined ? {} : { auth: env.auth }),
    ...(env.headers === undefined ? {} : { headers: env.headers }),
    ...(env.session === undefined ? {} : { session: env.session }),
  };
}
