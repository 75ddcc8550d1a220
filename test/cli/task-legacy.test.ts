/**
 * `tsmcp task list|cancel` on a 2025-11-25 session of a tsmcp `MCPServer` that runs a tool as a
 * task, served over Streamable HTTP on 127.0.0.1 and run by the real `tsmcp` process: a server
 * whose capabilities leave out `tasks.list` is not asked for it, and cancelling a task that already
 * ended says how it ended.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "tsmcp/node";
import { bearerAuth, MCPServer } from "tsmcp/server";
import type { LegacyMode } from "tsmcp/transport";
import { silentLogger } from "tsmcp/types";
import { beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { tsmcp } from "./run-cli.js";

/** Serves a server whose `job` tool runs as a task; with `auth`, tasks belong to the token's subject. */
async function jobServer(legacy: LegacyMode, auth: boolean): Promise<string> {
  const mcp = new MCPServer("jobs", { logger: silentLogger });
  mcp.tool("job", { task: "optional" }, async () => "job done");
  const verifier = { verify: async (token: string) => ({ token, subject: token, scopes: [] }) };
  const handle = await serve(mcp, {
    host: "127.0.0.1",
    port: 0,
    legacy,
    ...(auth ? { authenticate: bearerAuth({ verifier }) } : {}),
  });
  onTestFinished(() => handle.close());
  return handle.url.href;
}

let env: Record<string, string>;

beforeEach(() => {
  env = { TSMCP_STATE_DIR: mkdtempSync(join(tmpdir(), "tsmcp-legacy-tasks-")) };
});

const legacy = ["--protocol", "legacy"];

describe("tsmcp task on a 2025-11-25 session", () => {
  it("list on a server that offers no tasks/list does not ask for it, says so, and shows the tasks created from here", async () => {
    const url = await jobServer("stateless", false);
    const created = await tsmcp([...legacy, "call", url, "job", "--task"], env);
    expect(created).toMatchObject({ code: 0, stdout: "job done\n" });
    const taskId = /task (\S+): /.exec(created.stderr)?.[1];
    const run = await tsmcp([...legacy, "-vv", "task", "list", url], env);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("this server offers no tasks/list");
    expect(run.stderr).not.toContain('"method":"tasks/list"');
    expect(run.stdout).toContain(`task ${taskId}: completed`);
    const json = await tsmcp([...legacy, "--json", "task", "list", url], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ tasks: [{ taskId, task: { status: "completed" } }] });
  });

  it("cancel of a task that already ended prints how it ended (the server's -32602) and exits 0", async () => {
    const url = await jobServer("session", true);
    const alice = ["--header", "authorization: Bearer alice"];
    const created = await tsmcp([...legacy, ...alice, "call", url, "job", "--task"], env);
    expect(created).toMatchObject({ code: 0, stdout: "job done\n" });
    const taskId = /task (\S+): /.exec(created.stderr)?.[1] as string;
    expect(taskId).toBeDefined();
    const run = await tsmcp([...legacy, ...alice, "task", "cancel", url, taskId], env);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toMatch(
      new RegExp(`^task ${taskId}: completed.*\\(it had already ended: not cancelled\\)\\n$`),
    );
  });

  it("cancel of a task another identity created exits 1 as for an unknown task", async () => {
    const url = await jobServer("session", true);
    const created = await tsmcp(
      [...legacy, "--header", "authorization: Bearer alice", "call", url, "job", "--task"],
      env,
    );
    expect(created).toMatchObject({ code: 0, stdout: "job done\n" });
    const taskId = /task (\S+): /.exec(created.stderr)?.[1] as string;
    expect(taskId).toBeDefined();
    const run = await tsmcp(
      [...legacy, "--header", "authorization: Bearer bob", "task", "cancel", url, taskId],
      env,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`UnknownTaskError: The server knows no task "${taskId}"`);
  });
});
