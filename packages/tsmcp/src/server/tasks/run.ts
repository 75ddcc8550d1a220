/**
 * One task's run on the replica that creates it: the request environment its work runs in (an
 * `AbortSignal` aborted on cancel, on losing the lease, at the task's TTL or on close; a
 * back-channel whose requests become the task's `inputRequests`), its durable creation (refused
 * before the work starts past the owner's cap), the lease it holds and renews while the work runs,
 * and the terminal write of the work's outcome (a result -> `completed`, an `McpError` -> `failed`,
 * a result past the size cap -> `failed`), retried through a store outage while the lease is held.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md).
 */
import { deferred, linkSignal } from "../../protocol/async.js";
import type { Clock } from "../../protocol/clock.js";
import { ERRORS, McpError } from "../../protocol/errors.js";
import type { TaskLease, TaskRecord, TaskStore } from "../../state/task-store.js";
import { createRequestContext, environmentOf, type RequestContext } from "../context.js";
import { withValuesOf } from "../context-values.js";
import type { Logger } from "../logger.js";
import type { TaskFanout } from "./fanout.js";
import { TaskInputs, taskEnvironment } from "./inputs.js";
import {
  completionOf,
  failureOf,
  internalFailure,
  pastTtlMessage,
  STOPPED_MESSAGE,
  type TerminalChange,
  tooManyTasks,
} from "./outcome.js";
import type { PendingTask, TaskControl } from "./pending.js";
import { persistently } from "./retry.js";
import { TaskStatusWriter } from "./status.js";

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
  /**
   * Takes one of `run.owner`'s running-handler slots of this replica before its task is created:
   * false when all `maxActivePerOwner` are taken.
   */
  admit(run: TaskRun): boolean;
  /** Gives back the slot `admit` took: the work settled, or the task was never created. */
  release(run: TaskRun): void;
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

/** What a failed write of the work's outcome is logged as. */
const OUTCOME = "writing a task's outcome";

/** The longest a timer is set for, milliseconds (a longer delay is waited in steps). */
const MAX_TIMER_MS = 2_147_483_647;

/** One task's run; see {@link PendingTask}. */
export class TaskRun implements PendingTask {
  readonly taskId: string;
  readonly owner: string;
  readonly context: RequestContext;
  readonly control: TaskControl;
  readonly #deps: RunDeps;
  readonly #start: RunStart;
  readonly #controller = new AbortController();
  /** Aborted when the run ends or its manager closes: wakes a write waiting to be tried again. */
  readonly #retries = new AbortController();
  readonly #demanded = deferred<void>();
  readonly #created = deferred<TaskRecord>({ handled: true });
  readonly #inputs: TaskInputs;
  readonly #status: TaskStatusWriter;
  #state: "pending" | "creating" | "running" | "ended" = "pending";
  #creation: Promise<TaskRecord> | undefined;
  #detachRequest: () => void;
  #writes: Promise<unknown> = Promise.resolve();
  #leaseTimer: ReturnType<typeof setTimeout> | undefined;
  #ttlTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the lease this run last wrote lapses, epoch milliseconds. */
  #leaseExpiresAtMs = 0;
  /** When the task expires, epoch milliseconds. */
  #expiresAtMs = 0;
  #holdsSlot = false;
  #closing = false;
  /** Set once a renewal found the task no longer held by this run (terminal, or another's). */
  #leaseLost = false;
  #unsubscribe: () => void = () => {};

  constructor(deps: RunDeps, request: RequestContext, start: RunStart) {
    this.#deps = deps;
    this.#start = start;
    this.taskId = start.taskId;
    this.owner = start.owner;
    const env = environmentOf(request);
    this.#detachRequest = linkSignal(request.signal, this.#controller);
    const taskEnv = taskEnvironment(env, this.#controller.signal, {
      requestOpen: () => this.#state === "pending",
      ask: (requests, options) => this.ask(requests, options),
    });
    this.context = withValuesOf(
      request,
      createRequestContext(request.method, request.requestId, request.meta, taskEnv),
    );
    this.control = {
      taskId: this.taskId,
      setStatusMessage: (message) => this.#status.setMessage(message),
    };
    this.#status = new TaskStatusWriter({
      taskId: this.taskId,
      holder: deps.holder,
      phase: () =>
        this.#state === "pending" || this.#state === "creating"
          ? "before"
          : this.#state === "running"
            ? "running"
            : "ended",
      write: (op) => this.#write(op),
      publish: (record) => deps.fanout.publishChange(record),
      now: () => deps.clock.now(),
      warn: (message, error) => deps.logger.warn(message, { error }),
    });
    this.#inputs = new TaskInputs({
      taskId: this.taskId,
      holder: deps.holder,
      write: (op) => this.#write(op),
      changed: (record) => this.#status.changed(record),
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
      ...(this.#status.initialMessage === undefined ? {} : { statusMessage: this.#status.initialMessage }),
      createdAtMs: now,
      lastUpdatedAtMs: now,
      ttlMs: this.#start.ttlMs,
      pollIntervalMs: deps.pollIntervalMs,
      lease,
      request: this.#start.request,
    };
    const initialMessage = this.#status.initialMessage;
    try {
      if (!deps.admit(this)) throw tooManyTasks(this.owner, deps.maxActivePerOwner);
      this.#holdsSlot = true;
      const outcome = await deps.store.create(record, { maxActivePerOwner: deps.maxActivePerOwner });
      if (outcome === "owner_limit") throw tooManyTasks(this.owner, deps.maxActivePerOwner);
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
      this.#release();
      this.#created.reject(refusal);
      this.#controller.abort(refusal);
      throw refusal;
    }
    this.#state = "running";
    this.#leaseExpiresAtMs = lease.expiresAtMs;
    this.#expiresAtMs = now + this.#start.ttlMs;
    this.#status.created(record, initialMessage);
    deps.started(this);
    this.#unsubscribe = await deps.fanout.subscribeRunner(this.taskId, (message) => {
      if (message.type === "cancel") this.cancelled();
      else this.answersArrived();
    });
    this.#scheduleRenewal();
    this.#scheduleTtl();
    this.#created.resolve(record);
    return record;
  }

  settle(outcome: Promise<unknown>): void {
    if (this.#state !== "running" && this.#state !== "ended") {
      throw new TypeError("PendingTask.settle: create() the task first");
    }
    this.#status.announce();
    outcome
      .finally(() => this.#release())
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

  async withdraw(): Promise<void> {
    if (this.#state === "pending") return this.discard();
    if (this.#state === "creating") await this.#creation?.catch(() => {});
    if (this.#state !== "running") return;
    this.#release();
    const deps = this.#deps;
    await this.#persist("withdrawing a task its request did not need", () =>
      this.#write((store) =>
        store.update(
          this.taskId,
          {
            status: "cancelled",
            statusMessage: "Withdrawn: the request was answered without it",
            ttlMs: 0,
            lastUpdatedAtMs: deps.clock.now(),
          },
          { leaseHolder: deps.holder },
        ),
      ),
    );
    this.#status.forget();
    this.#controller.abort(aborted("The task was withdrawn"));
    this.#end();
  }

  async ask(
    requests: Readonly<Record<string, unknown>>,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    this.#demanded.resolve();
    await this.#created.promise;
    this.#status.announce();
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
   * it stopped) and the work aborted. The marking is tried again through a store outage until the
   * lease would lapse (any read marks the task so from then on).
   */
  async stop(): Promise<void> {
    if (this.#state !== "running") return;
    this.#closing = true;
    this.#retries.abort();
    this.#status.announce();
    await this.#terminal(internalFailure(STOPPED_MESSAGE), "marking a task failed at close", () => {
      if (this.#leaseLost) return "the task is no longer held here";
      return this.#deps.clock.now() < this.#leaseExpiresAtMs ? undefined : "its lease lapsed";
    });
    this.#controller.abort(aborted(STOPPED_MESSAGE));
    this.#end();
  }

  /** Runs `op` after this run's earlier writes (a failed one does not stop the next). */
  #write<T>(op: (store: TaskStore) => Promise<T>): Promise<T> {
    const next = this.#writes.then(() => op(this.#deps.store));
    this.#writes = next.catch(() => {});
    return next;
  }

  /**
   * Runs the write `attempt` until the store answers (see `persistently`): tried again while
   * `stopReason` names none (by default, while this run holds its lease and its manager is open);
   * the first failure is logged as a warning, giving up as an error. Resolves with whether the
   * store answered and what.
   */
  async #persist<T>(
    what: string,
    attempt: () => Promise<T>,
    stopReason: () => string | undefined = this.#holdStopReason,
  ): Promise<{ value: T } | undefined> {
    const deps = this.#deps;
    const outcome = await persistently(attempt, {
      clock: deps.clock,
      maxDelayMs: this.#renewalIntervalMs(),
      stopReason,
      signal: stopReason === this.#holdStopReason ? this.#retries.signal : undefined,
      failed: (error, attempts) => {
        if (attempts === 1) deps.logger.warn(`${what} failed; trying again`, { error, taskId: this.taskId });
      },
    });
    if (outcome.ok) return { value: outcome.value };
    deps.logger.error(`${what} failed; giving it up: ${outcome.reason}`, {
      error: outcome.error,
      taskId: this.taskId,
    });
    return undefined;
  }

  /** Why a write of this run may not be tried again, or undefined while it holds the task. */
  readonly #holdStopReason = (): string | undefined => {
    if (this.#leaseLost || this.#state !== "running") return "the task is no longer held here";
    if (this.#closing) return "the server is closing";
    if (this.#deps.clock.now() >= this.#expiresAtMs) return "the task expired";
    return undefined;
  };

  async #takeAnswers(): Promise<void> {
    try {
      const answers = await this.#write((store) => store.takeInputResponses(this.taskId, this.#deps.holder));
      this.#inputs.deliver(answers);
    } catch (error) {
      this.#deps.logger.warn("taking a task's answers failed; retrying at the next lease renewal", { error });
    }
  }

  /** How often the lease is renewed, milliseconds: a third of it. */
  #renewalIntervalMs(): number {
    return Math.max(1, Math.floor(this.#deps.leaseMs / 3));
  }

  #scheduleRenewal(): void {
    this.#leaseTimer = setTimeout(() => void this.#renew(), this.#renewalIntervalMs());
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
    const expiresAtMs = deps.clock.now() + deps.leaseMs;
    try {
      renewed = await this.#write((store) =>
        store.update(
          this.taskId,
          { lease: { holder: deps.holder, expiresAtMs } },
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
      this.#leaseLost = true;
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
    this.#leaseExpiresAtMs = expiresAtMs;
    if (renewed.inputResponses !== undefined) void this.#takeAnswers();
    this.#scheduleRenewal();
  }

  /**
   * Ends the task at its TTL, a lease renewal before the store drops it (at most half its TTL
   * before), so that a running task never just disappears.
   */
  #scheduleTtl(): void {
    const marginMs = Math.min(this.#renewalIntervalMs(), Math.floor(this.#start.ttlMs / 2));
    const delayMs = this.#expiresAtMs - marginMs - this.#deps.clock.now();
    if (delayMs > MAX_TIMER_MS) {
      this.#ttlTimer = setTimeout(() => this.#scheduleTtl(), MAX_TIMER_MS);
    } else {
      this.#ttlTimer = setTimeout(() => void this.#pastTtl(), Math.max(0, delayMs));
    }
    (this.#ttlTimer as { unref?: () => void }).unref?.();
  }

  /** The task reached its TTL while running: it is failed (-32603) and its work aborted. */
  async #pastTtl(): Promise<void> {
    if (this.#state !== "running") return;
    const message = pastTtlMessage(this.#start.ttlMs);
    this.#status.announce();
    await this.#terminal(internalFailure(message), "failing a task past its time to live");
    this.#controller.abort(aborted(message));
  }

  async #complete(result: unknown): Promise<void> {
    let change: TerminalChange;
    try {
      change = completionOf(result, this.#deps.maxResultBytes);
    } catch (error) {
      return this.#fail(error);
    }
    await this.#terminal(change, OUTCOME);
  }

  async #fail(error: unknown): Promise<void> {
    let wire: McpError;
    if (error instanceof McpError) {
      wire = error;
      // An -32603 built with a cause says what the client may know; the cause is for the log.
      if (error.code === ERRORS.INTERNAL_ERROR.code && error.cause !== undefined) {
        this.#deps.logger.error("a task's work failed", { error: error.cause, taskId: this.taskId });
      }
    } else {
      if (!this.#controller.signal.aborted) {
        this.#deps.logger.error("a task's work failed", { error, taskId: this.taskId });
      }
      wire = McpError.of("INTERNAL_ERROR", "Internal error");
    }
    await this.#terminal(failureOf(wire), OUTCOME);
  }

  /**
   * Writes the terminal change, as the lease holder (a task cancelled meanwhile stays cancelled),
   * trying again through a store outage (see `#persist`).
   */
  async #terminal(
    change: TerminalChange,
    what: string,
    stopReason?: () => string | undefined,
  ): Promise<void> {
    const written = await this.#persist(
      what,
      () =>
        this.#write((store) =>
          store.update(
            this.taskId,
            { ...change, lastUpdatedAtMs: this.#deps.clock.now() },
            { leaseHolder: this.#deps.holder },
          ),
        ),
      stopReason,
    );
    if (written?.value !== undefined) this.#status.changed(written.value);
  }

  /** Gives back the owner's running-handler slot, once. */
  #release(): void {
    if (!this.#holdsSlot) return;
    this.#holdsSlot = false;
    this.#deps.release(this);
  }

  #end(): void {
    if (this.#state === "ended") return;
    this.#state = "ended";
    if (this.#leaseTimer !== undefined) clearTimeout(this.#leaseTimer);
    if (this.#ttlTimer !== undefined) clearTimeout(this.#ttlTimer);
    this.#retries.abort();
    this.#unsubscribe();
    this.#inputs.failAll(this.#controller.signal.reason ?? McpError.of("INTERNAL_ERROR", TASK_GONE_MESSAGE));
    if (!this.#controller.signal.aborted) this.#controller.abort(aborted("The task ended"));
    this.#deps.ended(this);
  }
}
