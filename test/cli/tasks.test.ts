/**
 * `tsmcp call --task` and `tsmcp task get|result|cancel|list`, run as a person runs them (a child
 * process, no terminal) against a peer serving the tasks extension over Streamable HTTP on
 * 127.0.0.1 (test/helpers/task-peer.ts): status lines on stderr while polling, the result on
 * stdout, questions answered from --answer, the exit codes of `call`, and the tasks remembered per
 * target in $TSMCP_STATE_DIR.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { DEFAULT_TOOLS, startTaskPeer, type TaskPeer } from "../helpers/task-peer.js";
import { started, tsmcp } from "./run-cli.js";

let peer: TaskPeer;
let url: string;
let env: Record<string, string>;

beforeEach(async () => {
  peer = await startTaskPeer({
    multi_input: { ...DEFAULT_TOOLS.multi_input, pollIntervalMs: 100 },
    failing_job: { ...DEFAULT_TOOLS.failing_job, pollIntervalMs: 100 },
  });
  url = peer.url.href;
  env = { TSMCP_STATE_DIR: mkdtempSync(join(tmpdir(), "tsmcp-tasks-")) };
});

afterEach(async () => {
  await peer.close();
});

/** What the state file holds: tasks by target, then by identity digest. */
type Memory = Record<string, Record<string, { taskId: string; tool: string; createdAt: string }[]>>;

/** The task ids the state file remembers for the peer, under every identity. */
function remembered(): string[] {
  const memory = JSON.parse(
    readFileSync(join(env.TSMCP_STATE_DIR as string, "tasks.json"), "utf8"),
  ) as Memory;
  return Object.values(memory[url] ?? {}).flatMap((tasks) => tasks.map((entry) => entry.taskId));
}

describe("tsmcp call --task", () => {
  it("shows the task's status lines on stderr while polling, then prints the result and exits 0", async () => {
    const run = await tsmcp(["call", url, "slow_compute", "steps=2", "label=pi", "--task"], env);
    expect(run).toMatchObject({ code: 0, stdout: "computed pi\n" });
    const [taskId] = [...peer.tasks.keys()];
    expect(run.stderr).toContain(`task ${taskId}: working · The operation is now in progress.\n`);
    expect(run.stderr).toContain(`task ${taskId}: working · step 1 of 2\n`);
    expect(run.stderr).toContain(`task ${taskId}: completed · done\n`);
    expect(remembered()).toEqual([taskId]);
    for (const request of peer.of("tasks/get")) expect(request.mcpName).toBe(taskId);
  });

  it("answers the task's questions from --answer, each key once, and prints the result", async () => {
    const run = await tsmcp(
      [
        "call",
        url,
        "multi_input",
        "--task",
        "-v",
        "--answer",
        'first={"name":"Ada"}',
        "--answer",
        'second={"city":"Paris"}',
      ],
      env,
    );
    expect(run).toMatchObject({ code: 0, stdout: "Ada lives in Paris\n" });
    expect(run.stderr).toContain("round 1 · first: What is your name?");
    expect(run.stderr).toContain("round 2 · second: What is your city?");
    expect([...peer.tasks.values()][0]?.answerCounts).toEqual({ first: 1, second: 1 });
  });

  it("exits 2 naming the unanswered key, and says how to resume the task", async () => {
    const run = await tsmcp(["call", url, "multi_input", "--task"], env);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain('no answer for input request "first"');
    const [taskId] = [...peer.tasks.keys()];
    expect(run.stderr).toContain(`task ${taskId} is still input_required: follow it with tsmcp task result`);
  });

  it("on Ctrl-C (SIGINT) says how to resume the task and exits 130, leaving the task running", async () => {
    const running = started(["call", url, "forever", "--task"], env);
    const [, taskId] = await running.stderrMatch(/task (\S+): working/);
    running.kill("SIGINT");
    const run = await running.exited;
    expect(run.code).toBe(130);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `task ${taskId} is still working: follow it with tsmcp task result ${JSON.stringify(url)} ${taskId}`,
    );
    expect(peer.tasks.get(taskId as string)?.status).toBe("working");
    expect(peer.of("tasks/cancel")).toEqual([]);
  });

  it("on Ctrl-C with --json also puts the task id and status in the JSON error", async () => {
    const running = started(["--json", "call", url, "forever", "--task"], env);
    const [, taskId] = await running.stderrMatch(/task (\S+): working/);
    running.kill("SIGINT");
    const run = await running.exited;
    expect(run.code).toBe(130);
    expect(JSON.parse(run.stdout)).toMatchObject({
      error: { code: "Interrupted", data: { taskId, status: "working" } },
    });
  });

  it("exits 1 with the task's error when it fails", async () => {
    const run = await tsmcp(["call", url, "failing_job", "--task"], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error -32603: API rate limit exceeded");
  });

  it("puts only the JSON result on stdout with --json", async () => {
    const run = await tsmcp(["--json", "call", url, "slow_compute", "steps=1", "label=j", "--task"], env);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ content: [{ type: "text", text: "computed j" }] });
  });

  it("prints a result the server gives at once, as a plain call does", async () => {
    const run = await tsmcp(["call", url, "greet", "name=Ada", "--task"], env);
    expect(run).toMatchObject({ code: 0, stdout: "Hello, Ada!\n" });
    expect(run.stderr).not.toContain("task ");
  });
});

describe("tsmcp call without --task", () => {
  it("follows the task a server insists on (-32021 naming the extension) and prints its result", async () => {
    const run = await tsmcp(["call", url, "slow_compute", "steps=1", "label=x"], env);
    expect(run).toMatchObject({ code: 0, stdout: "computed x\n" });
    expect(peer.of("tools/call").map((request) => request.declaresTasks)).toEqual([false, true]);
  });
});

describe("tsmcp task", () => {
  /** A task created by a client in this process (not remembered by the command). */
  async function created(tool: string, args: Record<string, unknown> = {}): Promise<string> {
    const client = await Client.connect(peer.url);
    try {
      return (await client.callTool(tool, args, { task: true })).taskId as string;
    } finally {
      await client.close();
    }
  }

  it("get prints the task's status and, once it ended, its result", async () => {
    const taskId = await created("failing_job");
    const run = await tsmcp(["task", "get", url, taskId], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`task ${taskId}: failed · Tool execution failed: rate limited\n`);
    expect(run.stdout).toContain("error -32603: API rate limit exceeded");
    const json = await tsmcp(["--json", "task", "get", url, taskId], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ taskId, status: "failed", error: { code: -32603 } });
  });

  it("result waits for the end and prints the result", async () => {
    const taskId = await created("slow_compute", { steps: 1, label: "later" });
    const run = await tsmcp(["task", "result", url, taskId], env);
    expect(run).toMatchObject({ code: 0, stdout: "computed later\n" });
    expect(run.stderr).toContain(`task ${taskId}: completed · done`);
  });

  it("cancel asks the server to cancel and prints the status the task then has; result then exits 1 saying the task was cancelled", async () => {
    const taskId = await created("forever");
    const cancelled = await tsmcp(["task", "cancel", url, taskId], env);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout).toBe(`task ${taskId}: cancelled · The task was cancelled by request.\n`);
    expect(peer.tasks.get(taskId)?.status).toBe("cancelled");
    const run = await tsmcp(["task", "result", url, taskId], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`TaskCancelledError: Task "${taskId}" was cancelled`);
  });

  it("cancel of a task that already ended prints how it ended, not that cancellation was requested", async () => {
    const taskId = await created("failing_job");
    const client = await Client.connect(peer.url);
    await client.session.getTask(taskId); // the poll that ends it
    await client.close();
    const run = await tsmcp(["task", "cancel", url, taskId], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `task ${taskId}: failed · Tool execution failed: rate limited (it had already ended: not cancelled)\n`,
    );
    const json = await tsmcp(["--json", "task", "cancel", url, taskId], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ taskId, cancelled: false, task: { status: "failed" } });
  });

  it("exits 1 for an id the server does not know", async () => {
    const run = await tsmcp(["task", "get", url, "no-such-task"], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('UnknownTaskError: The server knows no task "no-such-task"');
  });

  it("list shows the tasks created from here for the target, and forgets the ones the server no longer knows", async () => {
    const first = await tsmcp(["call", url, "slow_compute", "steps=1", "label=a", "--task"], env);
    expect(first.code).toBe(0);
    const [taskId] = remembered();
    const file = join(env.TSMCP_STATE_DIR as string, "tasks.json");
    const memory = JSON.parse(readFileSync(file, "utf8")) as Memory;
    const [mine] = Object.values(memory[url] ?? {});
    mine?.push({ taskId: "purged-task", tool: "slow_compute", createdAt: "2026-07-28T00:00:00Z" });
    writeFileSync(file, JSON.stringify(memory));
    const run = await tsmcp(["task", "list", url], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      `task ${taskId}: completed · done · slow_compute\n` +
        "task purged-task: gone · the server no longer knows it (forgotten) · slow_compute\n",
    );
    expect(remembered()).toEqual([taskId]);
    const other = await tsmcp(["task", "list", url], {
      TSMCP_STATE_DIR: mkdtempSync(join(tmpdir(), "tsmcp-")),
    });
    expect(other.stdout).toBe("(no tasks created from here for this target)\n");
  });

  it("is in the help", async () => {
    const run = await tsmcp(["task", "--help"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("get <target> <id>");
    expect(run.stdout).toContain("TSMCP_STATE_DIR");
    const call = await tsmcp(["call", "--help"], env);
    expect(call.stdout).toContain("--task");
  });
});
