/**
 * `tsmcp call --task` and `tsmcp task list|cancel` against a tsmcp `MCPServer` whose tasks belong
 * to the caller (a bearer token naming the subject, checked by `bearerAuth`), served over
 * Streamable HTTP on 127.0.0.1 and run by the real `tsmcp` process: the tasks one identity created
 * are remembered for that identity alone, so listing them under another one neither shows nor
 * forgets them.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "tsmcp/node";
import { bearerAuth, MCPServer } from "tsmcp/server";
import { silentLogger } from "tsmcp/types";
import { beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { tsmcp } from "./run-cli.js";

/** A server whose tasks belong to the token's subject (the token is the subject's name). */
async function ownedTasksServer(): Promise<string> {
  const mcp = new MCPServer("jobs", { logger: silentLogger });
  mcp.tool("job", { task: "required" }, async (_args, ctx) => `done for ${ctx.auth?.subject}`);
  const verifier = { verify: async (token: string) => ({ token, subject: token, scopes: [] }) };
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0, authenticate: bearerAuth({ verifier }) });
  onTestFinished(() => handle.close());
  return handle.url.href;
}

let env: Record<string, string>;

beforeEach(() => {
  env = { TSMCP_STATE_DIR: mkdtempSync(join(tmpdir(), "tsmcp-owners-")) };
});

const as = (who: string) => ["--header", `authorization: Bearer ${who}`];

describe("the tasks remembered per identity", () => {
  it("lists under another token none of the tasks created under the first, and forgets none of them", async () => {
    const url = await ownedTasksServer();
    const created = await tsmcp([...as("alice"), "call", url, "job", "--task"], env);
    expect(created).toMatchObject({ code: 0, stdout: "done for alice\n" });
    const taskId = /task (\S+): /.exec(created.stderr)?.[1];
    expect(taskId).toBeDefined();

    const bob = await tsmcp([...as("bob"), "task", "list", url], env);
    expect(bob).toMatchObject({ code: 0, stdout: "(no tasks created from here for this target)\n" });

    const alice = await tsmcp([...as("alice"), "task", "list", url], env);
    expect(alice.code).toBe(0);
    expect(alice.stdout).toContain(`task ${taskId}: completed`);
    expect(alice.stdout).toContain("· job\n");
  });

  it("keeps no credential in the state file", async () => {
    const url = await ownedTasksServer();
    const secret = "s3cr3t-token-value";
    expect((await tsmcp([...as(secret), "call", url, "job", "--task"], env)).code).toBe(0);
    const text = readFileSync(join(env.TSMCP_STATE_DIR as string, "tasks.json"), "utf8");
    expect(text).not.toContain(secret);
    expect(text).toContain(url);
  });
});
