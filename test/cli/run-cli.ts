/**
 * Runs the `tsmcp` bin as a person would, in a child process: `bin/tsmcp.js` with arguments, no
 * terminal (stdin, stdout and stderr are pipes), and resolves what it printed and its exit code.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { serve } from "tsmcp/node";
import type { Dispatcher } from "tsmcp/transport";
import { onTestFinished } from "vitest";

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** The bin, as `npx tsmcp` runs it. */
export const BIN = fileURLToPath(new URL("../../bin/tsmcp.js", import.meta.url));

/** What a run printed and how it ended. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `tsmcp <args>` in the repository root and waits for it to exit. */
export function tsmcp(args: readonly string[]): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  onTestFinished(() => {
    child.kill("SIGKILL");
  });
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A stdio target running `examples/<name>.ts --stdio` (what `npm run -s example -- <name> --stdio` runs). */
export function stdioExample(name: string): string {
  return `${JSON.stringify(process.execPath)} --import tsx examples/run.ts ${name} --stdio`;
}

/** Serves `server` over Streamable HTTP on 127.0.0.1 for the test, and resolves its URL. */
export async function httpExample(server: Dispatcher & { close(): void }): Promise<string> {
  const handle = await serve(server, { host: "127.0.0.1", port: 0 });
  onTestFinished(async () => {
    await handle.close();
    server.close();
  });
  return handle.url.href;
}
