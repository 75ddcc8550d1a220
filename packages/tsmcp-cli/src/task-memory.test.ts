/**
 * The memory of the tasks the command created: kept per target and identity, and changed by
 * several `tsmcp` processes at once (real child processes writing the same state directory)
 * without losing any of their tasks.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  forgetTasks,
  identityOf,
  LOCK_STALE_MS,
  rememberedTasks,
  rememberTask,
  type TaskScope,
} from "./task-memory.js";

const MODULE = fileURLToPath(new URL("./task-memory.ts", import.meta.url));

const task = (taskId: string) => ({ taskId, tool: "job", createdAt: "2026-07-28T10:00:00Z" });

/** Runs a process that remembers `count` tasks named `<prefix>-<n>` in `dir`, one change at a time. */
function writer(dir: string, scope: TaskScope, prefix: string, count: number): Promise<number | null> {
  const script = `
    import { rememberTask } from ${JSON.stringify(MODULE)};
    for (let n = 0; n < ${count}; n++) {
      rememberTask(${JSON.stringify(scope)}, { taskId: "${prefix}-" + n, tool: "job", createdAt: new Date().toISOString() }, ${JSON.stringify(dir)});
    }
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
}

describe("the task memory", () => {
  const alice: TaskScope = { target: "http://127.0.0.1:1/mcp", identity: identityOf({ authorization: "a" }) };
  const bob: TaskScope = { target: alice.target, identity: identityOf({ authorization: "b" }) };

  it("keeps each identity's tasks apart, and forgets only in the scope asked", () => {
    const dir = mkdtempSync(join(tmpdir(), "tsmcp-memory-"));
    rememberTask(alice, task("a1"), dir);
    rememberTask(bob, task("b1"), dir);
    forgetTasks(bob, new Set(["a1", "b1"]), dir);
    expect(rememberedTasks(alice, dir).map((entry) => entry.taskId)).toEqual(["a1"]);
    expect(rememberedTasks(bob, dir)).toEqual([]);
  });

  it("digests the headers in any order alike, and a sign-in apart from no sign-in", () => {
    expect(identityOf({ a: "1", b: "2" })).toBe(identityOf({ b: "2", a: "1" }));
    expect(identityOf({})).not.toBe(identityOf({}, { tokenFile: "/tokens/x.json" }));
    expect(identityOf({}, { tokenFile: "/t.json", clientId: "one" })).not.toBe(
      identityOf({}, { tokenFile: "/t.json", clientId: "two" }),
    );
    expect(identityOf({ authorization: "Bearer secret" })).toMatch(/^[0-9a-f]{64}$/);
  });

  it("loses no task when several processes remember tasks at the same time", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tsmcp-memory-"));
    const codes = await Promise.all(["p", "q", "r"].map((prefix) => writer(dir, alice, prefix, 30)));
    expect(codes).toEqual([0, 0, 0]);
    const ids = rememberedTasks(alice, dir).map((entry) => entry.taskId);
    expect(ids).toHaveLength(90);
    expect(readdirSync(dir).sort()).toEqual(["tasks.json"]);
  });

  it("takes over a lock file left by a process that died holding it", () => {
    const dir = mkdtempSync(join(tmpdir(), "tsmcp-memory-"));
    const lock = join(dir, "tasks.json.lock");
    writeFileSync(lock, "");
    const past = (Date.now() - LOCK_STALE_MS - 1000) / 1000;
    utimesSync(lock, past, past);
    rememberTask(alice, task("a1"), dir);
    expect(rememberedTasks(alice, dir).map((entry) => entry.taskId)).toEqual(["a1"]);
    expect(readdirSync(dir).sort()).toEqual(["tasks.json"]);
  });
});
