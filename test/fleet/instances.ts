/**
 * The fleet's server processes: each runs `examples/fleet/instance.ts` (through tsx) on a fixed
 * 127.0.0.1 port, so it can be stopped and started again behind the same nginx configuration.
 * Every process's request log lines are kept, with the process they came from, and so are its
 * task lines (`task-started`, `task-aborted`), which can be waited for.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const INSTANCE = join(ROOT, "examples/fleet/instance.ts");

/** One `mcp-request` line of an instance's log. */
export interface RequestLine {
  readonly instance: string;
  /** The pid of the process that wrote it (a restarted instance has a new one). */
  readonly pid: number;
  readonly method: string;
  readonly tool?: string;
  readonly flow?: string;
  readonly leg?: number;
}

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One `task-started` or `task-aborted` line of an instance's log. */
export interface TaskLine {
  readonly event: "started" | "aborted";
  readonly instance: string;
  /** The pid of the process that wrote it. */
  readonly pid: number;
  readonly taskId: string;
  /** Why the task's signal aborted (`task-aborted` only): the rest of the line. */
  readonly reason?: string;
}

/** The task lines of every instance, in the order they arrived, and waits for the next ones. */
export class TaskLog {
  readonly lines: TaskLine[] = [];
  #waiters: { match: (line: TaskLine) => boolean; resolve: (line: TaskLine) => void }[] = [];

  /** Records `line` and wakes whoever waits for it. */
  add(line: TaskLine): void {
    this.lines.push(line);
    for (const waiter of this.#waiters.filter((w) => w.match(line))) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  }

  /** Resolves with the first line (already logged or still to come) that `match` accepts. */
  next(match: (line: TaskLine) => boolean): Promise<TaskLine> {
    const found = this.lines.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ match, resolve }));
  }
}

function parseTaskLine(line: string, pid: number): TaskLine | undefined {
  const match = /^task-(started|aborted) instance=(\S+) task=(\S+)(?: reason=(.*))?$/.exec(line);
  if (match === null) return undefined;
  const [, event, instance, taskId, reason] = match as unknown as [
    string,
    TaskLine["event"],
    string,
    string,
    string?,
  ];
  return reason === undefined ? { event, instance, pid, taskId } : { event, instance, pid, taskId, reason };
}

function parseLine(line: string, pid: number): RequestLine | undefined {
  if (!line.startsWith("mcp-request ")) return undefined;
  const fields = Object.fromEntries(
    line
      .slice("mcp-request ".length)
      .split(" ")
      .map((field) => field.split("=", 2) as [string, string]),
  );
  return {
    instance: String(fields.instance),
    pid,
    method: String(fields.method),
    tool: fields.tool,
    flow: fields.flow,
    leg: fields.leg === undefined ? undefined : Number(fields.leg),
  };
}

/** One instance of the fleet: its id, port and current process. */
export class Instance {
  readonly id: string;
  readonly port: number;
  #child: ChildProcessWithoutNullStreams | undefined;
  #exited: Promise<void> = Promise.resolve();
  #serving: Promise<void> = Promise.resolve();

  constructor(
    id: string,
    port: number,
    private readonly logDir: string,
    private readonly requests: RequestLine[],
    private readonly refusals: string[],
    private readonly tasks?: TaskLog,
  ) {
    this.id = id;
    this.port = port;
  }

  /** The pid of the running process. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Starts the process with `keys` (sealing key first) and `env` added to its environment
   * (`REDIS_URL`, say), and resolves once it listens.
   */
  start(keys: readonly string[], ttlMs: number, env: Record<string, string> = {}): Promise<void> {
    const child = spawn(process.execPath, ["--import", "tsx", INSTANCE], {
      cwd: ROOT,
      env: {
        ...process.env,
        MCP_STATE_KEYS: keys.join(","),
        MCP_STATE_TTL_MS: String(ttlMs),
        MCP_AUDIENCE: "fleet",
        INSTANCE_ID: this.id,
        PORT: String(this.port),
        ...env,
      },
    });
    this.#child = child;
    const pid = child.pid!;
    const logFile = join(this.logDir, `instance-${this.id}.log`);
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));
    let served: () => void = () => {};
    this.#serving = new Promise((resolve) => {
      served = resolve;
    });
    createInterface({ input: child.stderr }).on("line", (line) => {
      appendFileSync(logFile, `[${pid} stderr] ${line}\n`);
      if (line.includes("requestState rejected")) this.refusals.push(`${this.id}: ${line}`);
    });
    return new Promise((resolve, reject) => {
      createInterface({ input: child.stdout }).on("line", (line) => {
        appendFileSync(logFile, `[${pid}] ${line}\n`);
        const request = parseLine(line, pid);
        const task = request === undefined ? parseTaskLine(line, pid) : undefined;
        if (request !== undefined) {
          this.requests.push(request);
          served();
        } else if (task !== undefined) this.tasks?.add(task);
        else if (line.startsWith("{")) resolve();
      });
      void this.#exited.then(() =>
        reject(new Error(`instance ${this.id} exited before listening; see ${logFile}`)),
      );
    });
  }

  /**
   * Resolves once the current process has served a request: the load balancer sends it traffic
   * again (nginx retries an instance it marked failed only after `fail_timeout`).
   */
  serving(): Promise<void> {
    return this.#serving;
  }

  /** Stops the process with `signal` (SIGTERM drains in-flight requests) and resolves once it exited. */
  async stop(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
    const child = this.#child;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await this.#exited;
  }
}
