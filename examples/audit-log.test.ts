/**
 * The audit-log example over Streamable HTTP on 127.0.0.1 with a real client behind bearer tokens:
 * one record per tool call with its outcome, both legs of a multi round-trip call; and
 * `npm run example -- audit-log` as written.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "tsmcp/client";
import { serve } from "tsmcp/node";
import { bearerAuth } from "tsmcp/server";
import { describe, expect, it, onTestFinished } from "vitest";
import { warningOfProcessLocalKey } from "../test/helpers/logs.js";
import { type AuditRecord, createAuditedServer } from "./audit-log.js";
import { staticBearer, staticTokens } from "./docs/auth.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const ALICE = '["api-token","local","alice"]';

describe("the audit-log example", () => {
  it("records every tool call over HTTP with who called and how it ended, each round of a multi round-trip call too", async () => {
    const records: AuditRecord[] = [];
    const mcp = createAuditedServer(
      (record) => records.push(record),
      () => 42,
    );
    const handle = await warningOfProcessLocalKey(() =>
      serve(mcp, {
        port: 0,
        authenticate: bearerAuth({
          verifier: staticTokens({ "alice-token": { subject: "alice", scopes: [] } }),
        }),
      }),
    );
    onTestFinished(async () => {
      await handle.close();
      mcp.close();
    });
    const client = await Client.connect(handle.url, {
      auth: staticBearer("alice-token"),
      elicitationCallback: () => ({ action: "accept", content: { ok: true } }),
    });
    onTestFinished(() => client.close());

    expect((await client.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
    expect((await client.callTool("flaky")).isError).toBe(true);
    expect((await client.callTool("purge")).content).toEqual([{ type: "text", text: "Purged" }]);
    await expect(client.callTool("missing")).rejects.toMatchObject({ code: -32602 });

    expect(records).toEqual([
      { atMs: 42, tool: "echo", principal: ALICE, outcome: "ok" },
      { atMs: 42, tool: "flaky", principal: ALICE, outcome: "tool_error" },
      { atMs: 42, tool: "purge", principal: ALICE, outcome: "input_required", asked: ["confirm"] },
      { atMs: 42, tool: "purge", principal: ALICE, answered: ["confirm"], outcome: "ok" },
      { atMs: 42, tool: "missing", principal: ALICE, outcome: "error", code: -32602 },
    ]);
  });

  it("runs as written, printing one JSON record per tool call", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/run.ts", "audit-log"],
      { cwd: root },
    );
    const records = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditRecord);
    expect(records.map(({ tool, outcome }) => `${tool} ${outcome}`)).toEqual([
      "echo ok",
      "flaky tool_error",
      "purge input_required",
      "purge ok",
      "missing error",
    ]);
  });
});
