/**
 * Runs the `tsmcp` bin as a person would, in a child process: the built command
 * (`packages/tsmcp-cli/bin/tsmcp.js`, built once per run by `test/build-packages.ts`) with arguments, no
 * terminal (stdin, stdout and stderr are pipes), and resolves what it printed and its exit code.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serve } from "tsmcp/node";
import type { Dispatcher } from "tsmcp/transport";
import { expect, onTestFinished } from "vitest";
import { PROCESS_LOCAL_KEY_WARNING, stderrOf } from "../helpers/logs.js";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The bin, as `npx tsmcp` runs it. */
export const BIN = fileURLToPath(new URL("../../packages/tsmcp-cli/bin/tsmcp.js", import.meta.url));

/** What a run printed and how it ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `tsmcp <args>` in the repository root (with `env` over this environment) and waits for it to exit. */
export function tsmcp(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return started(args, env).exited;
}

/** A `tsmcp` process still running: what it printed so far, and how it ends. */
export interface RunningCli {
  /** Resolves with the first match of `pattern` on stderr (waiting for it to be printed). */
  stderrMatch(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Sends `signal` to the process (`"SIGINT"`: what Ctrl-C sends). */
  kill(signal: NodeJS.Signals): void;
  readonly exited: Promise<CliRun>;
}

/** Starts `tsmcp <args>` in the repository root, with `env` over this environment. */
export function started(args: readonly string[], env: Record<string, string> = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const waiters = new Set<() => void>();
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const check of waiters) check();
  });
  const exited = new Promise<CliRun>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
  return {
    exited,
    kill: (signal) => {
      child.kill(signal);
    },
    stderrMatch: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = stderr.match(pattern);
          if (match === null) return;
          waiters.delete(check);
          resolve(match);
        };
        waiters.add(check);
        void exited.then((run) => {
          if (waiters.delete(check)) reject(new Error(`exited before printing ${pattern}:\n${run.stderr}`));
        });
        check();
      }),
  };
}

/** A stdio target running `examples/<name>.ts --stdio` (what `npm run -s example -- <name> --stdio` runs). */
export function stdioExample(name: string): string {
  return `${JSON.stringify(process.execPath)} --import tsx examples/run.ts ${name} --stdio`;
}

/** Serves `server` over Streamable HTTP on 127.0.0.1 for the test, and resolves its URL. */
export async function httpExample(server: Dispatcher & { close(): void }): Promise<string> {
  const { result: handle, lines } = await stderrOf(() => serve(server, { host: "127.0.0.1", port: 0 }));
  // Serving writes nothing, but the one warning of an MCPServer on the default process-local key.
  expect(lines.filter((line) => !PROCESS_LOCAL_KEY_WARNING.test(line))).toEqual([]);
  expect(lines.length).toBeLessThanOrEqual(1);
  onTestFinished(async () => {
    await handle.close();
    server.close();
  });
  return handle.url.href;
}
