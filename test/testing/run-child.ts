/**
 * Runs a test runner in a child process for the harness's framework checks, and resolves its exit
 * code with everything it printed (stdout and stderr together).
 */
import { spawn } from "node:child_process";

/** `node <args>` in `cwd` (with `env` over this environment): its exit code and output. */
export async function runNode(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  return { code, out };
}
