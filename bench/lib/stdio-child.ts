/**
 * Stage 11's side of a stdio server child (`../stdio-server-process.ts`): the command line that
 * starts it (so that any client transport can spawn it), and the control socket the stage reads its
 * CPU time over, since its stdin and stdout carry only the protocol. Every wait is bounded.
 */
import { rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerSpec } from "../fixtures/tools.js";
import type { StdioImplementation } from "../servers/stdio-servers.js";

const SCRIPT = fileURLToPath(new URL("../stdio-server-process.ts", import.meta.url));

/** What `stdio-server-process.ts` is told to run. */
export interface StdioServerLaunch {
  readonly impl: StdioImplementation;
  readonly spec: ServerSpec;
}

/** The environment variable naming the control socket. */
export const CONTROL_ENV = "TSMCP_BENCH_CONTROL";

/** The repository root: the children's working directory (where `tsx` resolves). */
export const BENCH_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** How long a child may take to connect to its control socket or answer a query. */
const CONTROL_TIMEOUT_MS = 30_000;

/** How to start a stdio server child: what a client transport spawns. */
export interface StdioCommand {
  readonly command: string;
  readonly args: string[];
  readonly cwd: string;
  /** Added to the child's environment: the control socket's path. */
  readonly env: Record<string, string>;
}

/** The control channel of one stdio server child. */
export interface StdioControl {
  /** The command that starts the child, with this channel's socket in its environment. */
  readonly command: StdioCommand;
  /** Resolves once the child has connected (rejects after the timeout). */
  ready(): Promise<void>;
  /** CPU time the child has used so far (user + system), in microseconds. */
  cpuUs(): Promise<number>;
  /** Closes the socket (the child exits when it closes, if stdin has not ended it already). */
  close(): Promise<void>;
}

let sequence = 0;

/** Opens a control socket for one child that will run `launch` (with a CPU profile when `cpuProfileDir` is set). */
export async function openStdioControl(
  launch: StdioServerLaunch,
  cpuProfileDir?: string,
): Promise<StdioControl> {
  const path = join(tmpdir(), `tsmcp-bench-${process.pid}-${sequence++}.sock`);
  rmSync(path, { force: true });
  let socket: Socket | undefined;
  let connected: () => void = () => {};
  const whenConnected = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const waiting: ((cpuUs: number) => void)[] = [];
  const server: Server = createServer((incoming) => {
    socket = incoming;
    incoming.setEncoding("utf8");
    let pending = "";
    incoming.on("data", (chunk: string) => {
      pending += chunk;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        const message = JSON.parse(pending.slice(0, newline)) as { type?: string; cpuUs?: number };
        pending = pending.slice(newline + 1);
        if (message.type === "ready") connected();
        else if (message.type === "cpu") waiting.shift()?.(message.cpuUs ?? Number.NaN);
        newline = pending.indexOf("\n");
      }
    });
    incoming.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => resolve());
  });
  const bounded = <T>(promise: Promise<T>, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`stdio server child (${launch.impl}) sent no ${what} in ${CONTROL_TIMEOUT_MS} ms`),
          ),
        CONTROL_TIMEOUT_MS,
      );
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  const profile = cpuProfileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`];
  return {
    command: {
      command: process.execPath,
      args: [...profile, "--import", "tsx", SCRIPT, JSON.stringify(launch)],
      cwd: BENCH_ROOT,
      env: { [CONTROL_ENV]: path },
    },
    ready: () => bounded(whenConnected, '"ready"'),
    cpuUs() {
      const answer = new Promise<number>((resolve) => waiting.push(resolve));
      socket?.write(`${JSON.stringify({ type: "cpu" })}\n`);
      return bounded(answer, '"cpu" answer');
    },
    close: () =>
      new Promise<void>((resolve) => {
        socket?.destroy();
        server.close(() => resolve());
      }),
  };
}
