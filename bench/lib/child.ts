/**
 * Starting a benchmarked server in a child process (`server-process.ts`, run through tsx with
 * `--expose-gc`), waiting until it listens, asking it for its heap, and stopping it. Every wait is
 * bounded; a child that does not answer in time is killed.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ChildMessage, ServerLaunch } from "../server-process.js";

const SERVER_PROCESS = fileURLToPath(new URL("../server-process.ts", import.meta.url));

/** How long a child may take to start listening, answer a heap query, or exit. */
const CHILD_TIMEOUT_MS = 30_000;

/** A server running in a child process. */
export interface ServerChild {
  /** The MCP endpoint on 127.0.0.1. */
  readonly url: URL;
  /** The process id (for profiles and diagnostics). */
  readonly pid: number;
  /** Heap used in the child after full garbage collection, in bytes. */
  heapUsedBytes(): Promise<number>;
  /** CPU time the child has used so far (user + system), in microseconds. */
  cpuUs(): Promise<number>;
  /** Stops the server and waits for the process to exit (kills it after the timeout). */
  stop(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /** Write a V8 CPU profile of the child to this directory when it exits. */
  cpuProfileDir?: string;
  /** Variables added to the child's environment (`REDIS_URL`, say). */
  env?: Record<string, string>;
}

function nextMessage<T extends ChildMessage["type"]>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`server child ${child.pid} sent no "${type}" within ${CHILD_TIMEOUT_MS} ms`));
    }, CHILD_TIMEOUT_MS);
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      cleanup();
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`server child ${child.pid} exited with ${code} before sending "${type}"`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** Starts `launch` in a child process and resolves once it listens. */
export async function startServer(launch: ServerLaunch, options: StartOptions = {}): Promise<ServerChild> {
  const execArgv = ["--import", "tsx", "--expose-gc"];
  if (options.cpuProfileDir !== undefined)
    execArgv.push("--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`);
  const child = fork(SERVER_PROCESS, [JSON.stringify(launch)], {
    execArgv,
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    ...(options.env === undefined ? {} : { env: { ...process.env, ...options.env } }),
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let ready: Extract<ChildMessage, { type: "ready" }>;
  try {
    ready = await nextMessage(child, "ready");
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url: new URL(ready.url),
    pid: child.pid ?? -1,
    async heapUsedBytes() {
      const answer = nextMessage(child, "heap");
      child.send({ type: "heap" });
      return (await answer).heapUsedBytes;
    },
    async cpuUs() {
      const answer = nextMessage(child, "cpu");
      child.send({ type: "cpu" });
      return (await answer).cpuUs;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: "stop" });
      const timer = setTimeout(() => child.kill("SIGKILL"), CHILD_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
