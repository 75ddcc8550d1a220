/**
 * Runtime processes for the edge tests: started with piped output, awaited on the line (or control
 * message) that says they listen, and stopped by their own pid when the test ends.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { onTestFinished } from "vitest";

/** A started process and everything it has written to stderr so far (for failure messages). */
export interface Started {
  readonly child: ChildProcess;
  stderr(): string;
}

/** Starts `binary args` with `env` added to this process's environment; it is killed when the test ends. */
export function start(
  binary: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd?: string,
): Started {
  const child = spawn(binary, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  });
  return { child, stderr: () => stderr };
}

/**
 * Resolves with the first line of `stream` that `pick` maps to a value; rejects when the process
 * exits first (quoting its stderr).
 */
export function firstLine<T>(
  started: Started,
  stream: Readable,
  pick: (line: string) => T | undefined,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: stream });
    const onExit = (code: number | null) =>
      reject(new Error(`the process exited (${code}) before it was ready:\n${started.stderr()}`));
    started.child.once("exit", onExit);
    lines.on("line", (line) => {
      const value = pick(line);
      if (value === undefined) return;
      started.child.off("exit", onExit);
      lines.close();
      resolve(value);
    });
  });
}

/** Runs `binary args` to its end; resolves with its stdout, rejects with its stderr on failure. */
export async function runToEnd(
  binary: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<string> {
  const started = start(binary, args, env);
  let stdout = "";
  started.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve) => started.child.once("close", resolve));
  if (code !== 0) throw new Error(`${binary} exited with ${code}:\n${started.stderr()}\n${stdout}`);
  return stdout;
}
