/**
 * Tasks on the fleet without affinity (three instances sharing one Redis: the task store and the
 * bus between instances), run by `no-affinity.ts` once its flows are done.
 *
 * 1. A replica dies under its tasks: {@link TASKS} `build` tasks are started through nginx, the
 *    instances' `task-started` lines tell which instance runs each, and the instance running the
 *    first one is killed (SIGKILL). `tasks/get`, sent directly to the other instances (not through
 *    nginx, so another replica surely answers), reads each of the dead instance's tasks as
 *    `failed`, saying its server stopped (its lease lapsed), while the tasks on the surviving
 *    instances keep working and complete. The killed instance is started again.
 * 2. A cancel crosses replicas: a task that works until cancelled is started through nginx,
 *    `tasks/cancel` is sent directly to an instance that does not run it, the instance running it
 *    logs `task-aborted` for it (its handler's signal fired), and a third instance reads it
 *    `cancelled`.
 *
 * Reports `fleet tasks: N tasks, K failed after their replica died, S completed on the other
 * replicas, cancel reached the handler across replicas: yes`.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Client, type ToolTask, UnknownTaskError } from "tsmcp/client";
import type { Instance, TaskLine, TaskLog } from "./instances.js";

/** Tasks started before the kill. */
const TASKS = 6;
/** How long each of them works, in leases: long enough to outlive the dead instance's lease. */
const WORK_LEASES = 8;
/** The most `tasks/get` rounds while waiting for the dead instance's tasks to read failed. */
const MAX_POLLS = 100;
/** The most probes of an instance's task store before the phase starts (Redis was restarted before). */
const MAX_PROBES = 100;
/** How long the running instance may take to log that a cancel stopped its handler. */
const ABORT_GRACE_MS = 30_000;

/** What the tasks phase needs of the run. */
export interface TaskFaultsOptions {
  /** nginx's endpoint. */
  readonly url: string;
  readonly fleet: readonly Instance[];
  /** The instances' task lines. */
  readonly log: TaskLog;
  /** The instances' `MCP_TASK_LEASE_MS`. */
  readonly leaseMs: number;
  /** Starts a stopped instance again, as the run started it. */
  restart(instance: Instance): Promise<void>;
}

/** What the tasks phase found. */
export interface TasksReport {
  readonly line: string;
  readonly problems: string[];
}

/** A task started through nginx, and the instance whose log says it runs it. */
interface Started {
  readonly target: string;
  readonly handle: ToolTask;
  readonly taskId: string;
  readonly runner: string;
}

const endpointOf = (instance: Instance) => `http://127.0.0.1:${instance.port}/mcp`;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resolves with `promise`, or with undefined once `ms` passed. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      promise,
      sleep(ms, undefined, { signal: timeout.signal }).then(() => undefined),
    ]);
  } finally {
    timeout.abort();
  }
}

/**
 * Resolves once `client`'s instance reaches its task store: `tasks/get` of a task that does not
 * exist answers "unknown task" (-32602) rather than an internal error, as it does while the
 * instance's Redis connection is still coming back after a Redis restart.
 *
 * @throws Error after `MAX_PROBES` probes that all failed, with the last failure.
 */
async function storeReachable(client: Client, pollMs: number): Promise<void> {
  let last: unknown;
  for (let probe = 0; probe < MAX_PROBES; probe++) {
    try {
      await client.session.getTask("probe-no-such-task");
    } catch (error) {
      if (error instanceof UnknownTaskError) return;
      last = error;
    }
    await sleep(pollMs);
  }
  throw new Error(`the task store stayed unreachable: ${messageOf(last)}`);
}

/** Runs the tasks phase on the running fleet; resolves with the report line and what went wrong. */
export async function runTaskFaults(options: TaskFaultsOptions): Promise<TasksReport> {
  const { fleet, log, leaseMs } = options;
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  const pollMs = Math.max(50, Math.floor(leaseMs / 5));
  // A client per instance process, straight to its port.
  const direct = new Map<string, Promise<Client>>();
  const clientOf = (instance: Instance): Promise<Client> => {
    const key = `${instance.id}:${instance.pid}`;
    let client = direct.get(key);
    if (client === undefined) {
      client = Client.connect(endpointOf(instance), { protocolVersion: "2026-07-28" });
      direct.set(key, client);
    }
    return client;
  };
  const startedOn = (taskId: string) =>
    log.next((line: TaskLine) => line.event === "started" && line.taskId === taskId);
  const client = await Client.connect(options.url, { protocolVersion: "2026-07-28" });
  let total = 0;
  let failedAfterDeath = 0;
  let completed = 0;
  let cancelReached = false;
  try {
    for (const instance of fleet) await storeReachable(await clientOf(instance), pollMs);

    // 1. A replica dies under its tasks.
    const started: Started[] = [];
    for (let n = 0; n < TASKS; n++) {
      const target = `target-${n}`;
      const handle = await client.callTool(
        "build",
        { target, workMs: WORK_LEASES * leaseMs },
        { task: true },
      );
      total++;
      if (handle.taskId === undefined) {
        problems.push(`build ${target} answered at once instead of creating a task`);
        continue;
      }
      started.push({ target, handle, taskId: handle.taskId, runner: "" });
    }
    for (const [index, task] of started.entries()) {
      started[index] = { ...task, runner: (await startedOn(task.taskId)).instance };
    }
    const victimId = started[0]?.runner;
    const victim = fleet.find((instance) => instance.id === victimId);
    if (victim === undefined) throw new Error(`no instance runs the first task (${victimId})`);
    const doomed = started.filter((task) => task.runner === victim.id);
    const survivors = started.filter((task) => task.runner !== victim.id);
    const others = fleet.filter((instance) => instance !== victim);
    check(survivors.length > 0, `every task ran on instance ${victim.id}; none on the others`);

    await victim.stop("SIGKILL");
    const waiting = new Map(doomed.map((task) => [task.taskId, task]));
    const ended = new Map<
      string,
      { status: string; statusMessage?: string; code?: number; reader: string }
    >();
    const survivorTrouble: string[] = [];
    for (let poll = 0; waiting.size > 0 && poll < MAX_POLLS; poll++) {
      const reader = others[poll % others.length] as Instance;
      const direct = await clientOf(reader);
      for (const task of [...waiting.values()]) {
        const read = await direct.session.getTask(task.taskId);
        if (read.status === "working") continue;
        waiting.delete(task.taskId);
        ended.set(task.taskId, {
          status: read.status,
          ...(read.statusMessage === undefined ? {} : { statusMessage: read.statusMessage }),
          ...(read.error === undefined ? {} : { code: read.error.code }),
          reader: reader.id,
        });
      }
      // The surviving instances' tasks are read by the same replicas meanwhile: none lapses.
      for (const task of survivors) {
        const read = await direct.session.getTask(task.taskId);
        if (read.status !== "working" && read.status !== "completed") {
          survivorTrouble.push(`${task.target} on ${task.runner} read ${read.status} on ${reader.id}`);
        }
      }
      if (waiting.size > 0) await sleep(pollMs);
    }
    check(
      waiting.size === 0,
      `${waiting.size} of the dead instance's tasks still read working after ${MAX_POLLS} polls`,
    );
    for (const task of doomed) {
      const end = ended.get(task.taskId);
      if (end === undefined) continue;
      const ok =
        end.status === "failed" &&
        end.code === -32603 &&
        /stopped before it finished/.test(end.statusMessage ?? "") &&
        end.reader !== victim.id;
      if (ok) failedAfterDeath++;
      else problems.push(`${task.target} (instance ${victim.id} killed) read ${JSON.stringify(end)}`);
    }
    check(survivorTrouble.length === 0, `surviving tasks were disturbed: ${survivorTrouble.join("; ")}`);
    for (const task of survivors) {
      try {
        const result = await task.handle.result();
        const text = (result.content[0] as { text?: string } | undefined)?.text;
        if (text === `built ${task.target}`) completed++;
        else problems.push(`${task.target} on ${task.runner} ended with ${JSON.stringify(result)}`);
      } catch (error) {
        problems.push(`${task.target} on ${task.runner} failed: ${messageOf(error)}`);
      }
    }
    const abortedSurvivors = log.lines.filter(
      (line) => line.event === "aborted" && survivors.some((task) => task.taskId === line.taskId),
    );
    check(abortedSurvivors.length === 0, `surviving tasks were aborted: ${JSON.stringify(abortedSurvivors)}`);
    console.log(
      `tasks: instance ${victim.id} killed under ${doomed.length} of ${started.length} tasks; ` +
        `${failedAfterDeath} read failed on ${[...new Set([...ended.values()].map((end) => end.reader))].join(", ")}; ` +
        `${completed} of ${survivors.length} on ${[...new Set(survivors.map((task) => task.runner))].join(", ")} completed`,
    );
    await options.restart(victim);

    // 2. A cancel crosses replicas.
    const long = await client.callTool("build", { target: "until-cancelled" }, { task: true });
    total++;
    const taskId = long.taskId;
    if (taskId === undefined)
      throw new Error("build until-cancelled answered at once instead of creating a task");
    const runner = (await startedOn(taskId)).instance;
    const [canceller, reader] = fleet.filter((instance) => instance.id !== runner) as [Instance, Instance];
    const aborted = log.next((line) => line.event === "aborted" && line.taskId === taskId);
    await (await clientOf(canceller)).session.cancelTask(taskId);
    const abortLine = await within(aborted, ABORT_GRACE_MS);
    const read = await (await clientOf(reader)).session.getTask(taskId);
    const outcome = await long.result().then(
      () => "completed",
      (error: unknown) => (error as Error).name,
    );
    cancelReached =
      abortLine?.instance === runner && /cancel/i.test(abortLine.reason ?? "") && read.status === "cancelled";
    console.log(
      `tasks: cancel sent to ${canceller.id} for a task on ${runner}: ${
        abortLine === undefined
          ? "no task-aborted line"
          : `${abortLine.instance} logged "${abortLine.reason}"`
      }; ${reader.id} reads ${read.status}; result() ${outcome}`,
    );
    check(cancelReached, `a cancel sent to ${canceller.id} did not stop the handler on ${runner}`);
    check(outcome === "TaskCancelledError", `result() of the cancelled task ended with ${outcome}`);
  } catch (error) {
    problems.push(`tasks: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await client.close();
    await Promise.allSettled([...direct.values()].map(async (pending) => (await pending).close()));
  }
  return {
    line:
      `fleet tasks: ${total} tasks, ${failedAfterDeath} failed after their replica died, ` +
      `${completed} completed on the other replicas, cancel reached the handler across replicas: ` +
      `${cancelReached ? "yes" : "no"}`,
    problems,
  };
}
