/**
 * One task's run on the replica that creates it: the request environment its work runs in (an
 * `AbortSignal` aborted on cancel, on losing the lease or on close; a back-channel whose requests
 * become the task's `inputRequests`), its durable creation, the lease it holds and renews while the
 * work runs, and the terminal write of the work's outcome (a result -> `completed`, an `McpError`
 * -> `failed`, a result past the size cap -> `failed`). Spec:
 * https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import { deferred, linkSignal } from "../../protocol/async.js";
import type { Clock } from "../../protocol/clock.js";
import { ERRORS, McpError } from "../../protocol/errors.js";
import { isInputRequired } from "../../protocol/methods.js";
import type { TaskLease, TaskRecord, TaskStore } from "../../state/task-store.js";
import type { RequestEnvironment } from "../../transport/dispatcher.js";
import { createRequestContext, environmentOf, type RequestContext } from "../context.js";
import type { Logger } from "../logger.js";
import type { TaskFanout } from "./fanout.js";
import { failureOf, TaskInputs } from "./inputs.js";

/**
 * What a task's work can do about its task: its id, and its status message. The type of
 * `ctx.task` in an `MCPServer` tool and of the second argument of a `TaskManager.run` work function.
 */
export interface TaskControl {
  /** The task's id, as the client polls it. */
  readonly taskId: string;
  /**
   * Sets the task's `statusMessage` (what `tasks/get` and `notifications/tasks` show, e.g. how far
   * the work is). Writes are coalesced: the latest message wins. Resolves once written (or
   * dropped, once the task is terminal). Before the task is created, the message becomes its first.
   */
  setStatusMessage(message: string): Promise<void>;
}

/**
 * A task begun for one request (`TaskManager.begin`) whose creation is still to come: its work may
 * start at once in {@link PendingTask.context}, the task being created (durably) only when
 * {@link PendingTask.create} is called, so a handler can still answer its request in another way
 * (an `InputRequiredResult` round) without a task ever existing.
 */
export interface PendingTask {
  /** The id the task has (or will have once created). */
  readonly taskId: string;
  /**
   * The request context the work runs in: the request's own, except `signal` (aborted when the
   * request is before creation, and afterwards on cancel, on losing the lease and on close) and
   * the server -> client requests (`elicit`, `createMessage`, `listRoots`), which become the task's
   * `inputRequests` (and create the task first, see {@link PendingTask.demanded}).
   */
  readonly context: RequestContext;
  /** The task's status message and id, for the work. */
  readonly control: TaskControl;
  /** Resolves when the work asks the client something, which needs the task to exist. */
  readonly demanded: Promise<void>;
  /**
   * Creates the task durably (a `tasks/get` finds it once this resolves) and starts holding its
   * lease; from now on the request's own abort no longer reaches the work. Idempotent.
   *
   * @throws McpError -32600 when the caller already has `maxActivePerPrincipal` tasks running;
   *   -32603 when the store is full or cannot be reached (the cause is logged). The work is then
   *   aborted with that error.
   */
  create(): Promise<TaskRecord>;
  /**
   * Hands the work's outcome over, once the task is created: a result object -> `completed`
   * (`failed` -32603 when its JSON is larger than `maxResultBytes`, or for an
   * `InputRequiredResult`), a rejection -> `failed` (an `McpError` as it is, anything else as
   * -32603, its cause logged). A task cancelled meanwhile stays cancelled.
   *
   * @throws TypeError when the task was not created.
   */
  settle(outcome: Promise<unknown>): void;
  /** Gives the task up before it was created (nothing is stored); aborts the work with `reason`. */
  discard(reason?: unknown): void;
  /**
   * Asks the client through the task (the task's `inputRequests`, each key made unique over the
   * task's lifetime), creating the task first, and resolves with the answers by `requests`' keys.
   *
   * @throws as `TaskInputs.ask`, and the creation's error.
   */
  ask(
    requests: Readonly<Record<string, unknown>>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Record<string, unknown>>;
}

/** What a run needs of its manager. */
export interface RunDeps {
  readonly store: TaskStore;
  readonly fanout: TaskFanout;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly holder: string;
  readonly leaseMs: number;
  readonly pollIntervalMs: number;
  readonly maxActivePerOwner: number;
  readonly maxResultBytes: number;
  /** Called once the task exists and runs here, and when it stops running here. */
  started(run: TaskRun): void;
  ended(run: TaskRun): void;
}

/** The shape of one run's start: its owner, TTL, and what it runs (kept opaque in the record). */
export interface RunStart {
  readonly taskId: string;
  readonly owner: string;
  readonly ttlMs: number;
  readonly request: Readonly<Record<string, unknown>>;
}

/** The error a task's work is aborted with. */
function aborted(message: string): Error {
  return new DOMException(message, "AbortError");
}

/** The error a task's input request fails with once the task stopped running here. */
const TASK_GONE_MESSAGE = "The task is no longer running";

/** UTF-8 bytes of `text`. */
function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** One task's run; see {@link PendingTask}. */
export class TaskRun implements PendingTask {
  readonly taskId: string;
  readonly owner: string;
  readonly context: RequestContext;
  readonly control: TaskControl;
  readonly #deps: RunDeps;
  readonly #start: RunStart;
  readonly #controller = new AbortController();
  readonly #demanded = deferred<void>();
  readonly #created = deferred<TaskRecord>({ handled: true });
  readonly #inputs: TaskInputs;
  #state: "pending" | "creating" | "running" | "ended" = "pending";
  #creation: Promise<TaskRecord> | undefined;
  #detachRequest: () => void;
  #writes: Promise<unknown> = Promise.resolve();
  #leaseTimer: ReturnType<typeof setTimeout> | undefined;
  #unsubscribe: () => void = () => {};
  #message: string | undefined;
  #messageFlush: Promise<void> | undefined;

  constructor(deps: RunDeps, request: RequestContext, start: RunStart) {
    this.#deps = deps;
    this.#start = start;
    this.taskId = start.taskId;
    this.owner = start.owner;
    const env = environmentOf(request);
    this.#detachRequest = linkSignal(request.signal, this.#controller);
    const taskEnv: RequestEnvironment = {
      signal: this.#controller.signal,
      // Progress and log messages reach the request's stream only while the request is open.
      notify: (notification) => {
        if (this.#state === "pending") env.notify?.(notification);
      },
      request: async (method, params, options) => {
        const entry = params === undefined ? { method } : { method, params };
        const answers = await this.ask({ [INPUT_KEY_OF[method] ?? "input"]: entry }, options);
        const answer = Object.values(answers)[0];
        const failure = failureOf(answer);
        if (failure !== undefined) throw failure;
        return answer as Record<string, unknown>;
      },
      ...(env.auth === undefined ? {} : { auth: env.auth }),
      ...(env.headers === undefined ? {} : { headers: env.headers }),
      ...(env.session === undefined ? {} : { session: env.session }),
    };
    this.context = createRequestContext(request.method, request.requestId, request.meta, taskEnv);
    this.control = {
      taskId: this.taskId,
      setStatusMessage: (message) => this.#setStatusMessage(message),
    };
    this.#inputs = new TaskInputs({
      taskId: this.taskId,
      holder: deps.holder,
      write: (op) => this.#write(op),
      changed: (record) => deps.fanout.publishChange(record),
      gone: () => this.#controller.signal.reason ?? McpError.of("INTERNAL_ERROR", TASK_GONE_MESSAGE),
      now: () => deps.clock.now(),
      warn: (message, error) => deps.logger.warn(message, { error }),
    });
  }

  get demanded(): Promise<void> {
    return this.#demanded.promise;
  }

  /** The work's signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  create(): Promise<TaskRecord> {
    this.#creation ??= this.#create();
    return this.#creation;
  }

  async #create(): Promise<TaskRecord> {
    if (this.#state !== "pending")
      throw this.#controller.signal.reason ?? new TypeError("the task was discarded");
    this.#state = "creating";
    this.#detachRequest();
    const deps = this.#deps;
    const now = deps.clock.now();
    const lease: TaskLease = { holder: deps.holder, expiresAtMs: now + deps.leaseMs };
    const record: TaskRecord = {
      taskId: this.taskId,
      owner: this.owner,
      status: "working",
      ...(this.#message === undefined ? {} : { statusMessage: this.#message }),
      createdAtMs: now,
      lastUpdatedAtMs: now,
      ttlMs: this.#start.ttlMs,
      pollIntervalMs: deps.pollIntervalMs,
      lease,
      request: this.#start.request,
    };
    const initialMessage = this.#message;
    try {
      const outcome = await deps.store.create(record, { maxActivePerOwner: deps.maxActivePerOwner });
      if (outcome === "owner_limit") {
        throw McpError.of(
          "INVALID_REQUEST",
          `Too many tasks: this caller already has ${deps.maxActivePerOwner} tasks running; wait for one to finish or cancel one`,
          { reason: "too_many_tasks", maxActiveTasks: deps.maxActivePerOwner },
        );
      }
      if (outcome === "store_full") {
        throw new McpError(ERRORS.INTERNAL_ERROR.code, "The server cannot hold another task now", undefined, {
          cause: new Error("the TaskStore answered store_full"),
        });
      }
    } catch (error) {
      const refusal =
        error instanceof McpError
          ? error
          : new McpError(ERRORS.INTERNAL_ERROR.code, "Internal error", undefined, { cause: error });
      this.#state = "ended";
      this.#created.reject(refusal);
      this.#controller.abort(refusal);
      throw refusal;
    }
    this.#state = "running";
    if (this.#message === initialMessage) this.#message = undefined;
    else void this.#setStatusMessage(this.#message as string);
    deps.started(this);
    this.#unsubscribe = await deps.fanout.subscribeRunner(this.taskId, (message) => {
      if (message.type === "cancel") this.cancelled();
      else this.answersArrived();
    });
    this.#scheduleRenewal();
    deps.fanout.publishChange(record);
    this.#created.resolve(record);
    return record;
  }

  settle(outcome: Promise<unknown>): void {
    if (this.#state !== "running" && this.#state !== "ended") {
      throw new TypeError("PendingTask.settle: create() the task first");
    }
    outcome
      .then(
        (result) => this.#complete(result),
        (error: unknown) => this.#fail(error),
      )
      .catch((error: unknown) => this.#deps.logger.error("writing a task's outcome failed", { error }))
      .finally(() => this.#end());
  }

  discard(reason: unknown = aborted("The task was not created")): void {
    if (this.#state !== "pending") return;
    this.#state = "ended";
    this.#detachRequest();
    this.#created.reject(reason);
    this.#controller.abort(reason);
  }

  async ask(
    requests: Readonly<Record<string, unknown>>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    this.#demanded.resolve();
    await this.#created.promise;
    const signal =
      options.signal === undefined
        ? this.#controller.signal
        : AbortSignal.any([this.#controller.signal, options.signal]);
    return await this.#inputs.ask(requests, { signal, timeoutMs: options.timeoutMs });
  }

  /** The task was cancelled (here or on another replica): the work is aborted. */
  cancelled(): void {
    if (this.#state !== "running") return;
    this.#controller.abort(aborted("The task was cancelled"));
  }

  /** Answers were recorded for the task: they are taken from the store and handed to the work. */
  answersArrived(): void {
    if (this.#state !== "running") return;
    void this.#takeAnswers();
  }

  /**
   * Stops the run because its server closes: the task is marked `failed` (-32603, the server running
   * it stopped) and the work aborted.
   */
  async stop(): Promise<void> {
    if (this.#state !== "running") return;
    const message = "The server running this task stopped before it finished";
    await this.#terminal({
      status: "failed",
      error: { code: ERRORS.INTERNAL_ERROR.code, message },
      statusMessage: message,
    }).catch((error: unknown) => this.#deps.logger.warn("marking a task failed at close failed", { error }));
    this.#controller.abort(aborted(message));
    this.#end();
  }

  /** Runs `op` after this run's earlier writes (a failed one does not stop the next). */
  #write<T>(op: (store: TaskStore) => Promise<T>): Promise<T> {
    const next = this.#writes.then(() => op(this.#deps.store));
    this.#writes = next.catch(() => {});
    return next;
  }

  async #takeAnswers(): Promise<void> {
    try {
      const answers = await this.#write((store) => store.takeInputResponses(this.taskId, this.#deps.holder));
      this.#inputs.deliver(answers);
    } catch (error) {
      this.#deps.logger.warn("taking a task's answers failed; retrying at the next lease renewal", { error });
    }
  }

  #scheduleRenewal(): void {
    const every = Math.max(1, Math.floor(this.#deps.leaseMs / 3));
    this.#leaseTimer = setTimeout(() => void this.#renew(), every);
    (this.#leaseTimer as { unref?: () => void }).unref?.();
  }

  /**
   * Renews the lease; the answer also brings answers waiting in the store. No answer means the task
   * is terminal (cancelled elsewhere, expired) or another replica failed it: the work is aborted.
   */
  async #renew(): Promise<void> {
    if (this.#state !== "running") return;
    const deps = this.#deps;
    let renewed: TaskRecord | undefined;
    try {
      renewed = await this.#write((store) =>
        store.update(
          this.taskId,
          { lease: { holder: deps.holder, expiresAtMs: deps.clock.now() + deps.leaseMs } },
          { leaseHolder: deps.holder },
        ),
      );
    } catch (error) {
      deps.logger.warn("renewing a task's lease failed; retrying", { error });
      if (this.#state === "running") this.#scheduleRenewal();
      return;
    }
    if (this.#state !== "running") return;
    if (renewed === undefined) {
      const current = await deps.store.get(this.taskId).catch(() => undefined);
      this.#controller.abort(
        aborted(
          current?.status === "cancelled"
            ? "The task was cancelled"
            : "The task is no longer held by this server",
        ),
      );
      this.#end();
      return;
    }
    if (renewed.inputResponses !== undefined) void this.#takeAnswers();
    this.#scheduleRenewal();
  }

  async #setStatusMessage(message: string): Promise<void> {
    if (typeof message !== "string") throw new TypeError("setStatusMessage: message must be a string");
    if (this.#state === "pending" || this.#state === "creating") {
      this.#message = message;
      return;
    }
    if (this.#state !== "running") return;
    this.#message = message;
    this.#messageFlush ??= this.#flushMessage().finally(() => {
      this.#messageFlush = undefined;
    });
    await this.#messageFlush;
  }

  async #flushMessage(): Promise<void> {
    while (this.#message !== undefined && this.#state === "running") {
      const statusMessage = this.#message;
      this.#message = undefined;
      const updated = await this.#write((store) =>
        store.update(
          this.taskId,
          { statusMessage, lastUpdatedAtMs: this.#deps.clock.now() },
          { leaseHolder: this.#deps.holder },
        ),
      ).catch((error: unknown) => {
        this.#deps.logger.warn("writing a task's status message failed", { error });
        return undefined;
      });
      if (updated !== undefined) this.#deps.fanout.publishChange(updated);
    }
  }

  async #complete(result: unknown): Promise<void> {
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      return this.#fail(
        new TypeError(
          `a task's work resolved with ${result === null ? "null" : typeof result}, not a result object`,
        ),
      );
    }
    if (isInputRequired(result)) {
      return this.#fail(
        new TypeError(
          "a task's work may not resolve with an InputRequiredResult; ask through ctx.elicit instead",
        ),
      );
    }
    let bytes: number;
    try {
      bytes = utf8Bytes(JSON.stringify(result));
    } catch (error) {
      return this.#fail(error);
    }
    const limit = this.#deps.maxResultBytes;
    if (bytes > limit) {
      const message = `The task's result is ${bytes} bytes of JSON, more than the ${limit} this server keeps`;
      await this.#terminal({
        status: "failed",
        error: { code: ERRORS.INTERNAL_ERROR.code, message },
        statusMessage: message,
      });
      return;
    }
    await this.#terminal({ status: "completed", result: result as Record<string, unknown> });
  }

  async #fail(error: unknown): Promise<void> {
    let wire: McpError;
    if (error instanceof McpError) wire = error;
    else {
      if (!this.#controller.signal.aborted) this.#deps.logger.error("a task's work failed", { error });
      wire = McpError.of("INTERNAL_ERROR", "Internal error");
    }
    await this.#terminal({ status: "failed", error: wire.toObject(), statusMessage: wire.message });
  }

  /** Writes the terminal change, as the lease holder (a task cancelled meanwhile stays cancelled). */
  async #terminal(change: {
    status: "completed" | "failed";
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
    statusMessage?: string;
  }): Promise<void> {
    const written = await this.#write((store) =>
      store.update(
        this.taskId,
        { ...change, lastUpdatedAtMs: this.#deps.clock.now() },
        { leaseHolder: this.#deps.holder },
      ),
    );
    if (written !== undefined) this.#deps.fanout.publishChange(written);
  }

  #end(): void {
    if (this.#state === "ended") return;
    this.#state = "ended";
    if (this.#leaseTimer !== undefined) clearTimeout(this.#leaseTimer);
    this.#unsubscribe();
    this.#inputs.failAll(this.#controller.signal.reason ?? McpError.of("INTERNAL_ERROR", TASK_GONE_MESSAGE));
    if (!this.#controller.signal.aborted) this.#controller.abort(aborted("The task ended"));
    this.#deps.ended(this);
  }
}

/** The key a server -> client request of each method gets in the task's `inputRequests` (then made unique). */
const INPUT_KEY_OF: Readonly<Record<string, string>> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
  "roots/list": "roots",
};
