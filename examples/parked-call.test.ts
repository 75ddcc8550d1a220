/**
 * The parked-call example: a call parked in one process with nobody to answer is resumed by a
 * second, spawned process from the same directory, and a third resume of the ticket is refused.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "tsmcp/node";
import { describe, expect, it, onTestFinished } from "vitest";
import { createProvisioningServer } from "./mcpserver-provisioning.js";
import { parkProvision } from "./parked-call.js";

const runner = fileURLToPath(new URL("./run.ts", import.meta.url));

/** `npm run example -- parked-call resume ...` as its own process: its exit code and output. */
function resumeProcess(url: URL, directory: string, ticket: string, region: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", runner, "parked-call", "resume", url.href, directory, ticket, region],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the parked-call example", () => {
  it("parks a call, resumes it in a second process, and refuses a second resume", async () => {
    const mcp = createProvisioningServer();
    const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
    const base = await mkdtemp(join(tmpdir(), "tsmcp-parked-example-test-"));
    onTestFinished(async () => {
      await handle.close();
      await mcp.close();
      await rm(base, { recursive: true, force: true });
    });
    const directory = join(base, "parked");

    const ticket = await parkProvision(handle.url, directory, "orders");
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await readdir(directory)).toEqual([`${ticket}.json`]);
    expect((await stat(join(directory, `${ticket}.json`))).mode & 0o777).toBe(0o600);

    const resumed = await resumeProcess(handle.url, directory, ticket, "eu-west-1");
    expect(resumed).toMatchObject({ code: 0, stdout: "Provisioned orders in eu-west-1\n" });

    const again = await resumeProcess(handle.url, directory, ticket, "eu-west-1");
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toMatch(/^ParkedCallRefusedError \(resumed\): /);
  });
});
