/**
 * An audit log of every tool call as `MCPServer` middleware: one structured record per
 * `tools/call` request with who called which tool and how it ended — `ok`, `tool_error` (a result
 * with `isError`), `error` (a JSON-RPC error, with its code) or `input_required` (a multi
 * round-trip round, with the keys it asked and the keys the request answered). The record goes to
 * any writer (a log pipeline, a file); the middleware observes `next`'s result and never changes it.
 *
 * Run it: `npm run example -- audit-log` prints the records of a short session as JSON lines.
 */
import { Client } from "tsmcp/client";
import {
  authenticatedPrincipal,
  elicit,
  MCPServer,
  type Middleware,
  resolver,
  type WireResult,
} from "tsmcp/server";
import { McpError } from "tsmcp/types";
import * as z from "zod";

/** How one tool call ended, as the audit log records it. */
export type AuditOutcome = "ok" | "tool_error" | "error" | "input_required";

/** One audit record: a `tools/call` request and how it ended. */
export interface AuditRecord {
  /** When the request reached the middleware, epoch milliseconds. */
  readonly atMs: number;
  /** The tool's name as the client sent it. */
  readonly tool: string;
  /** Who called (`authenticatedPrincipal`), `null` without auth. */
  readonly principal: string | null;
  readonly outcome: AuditOutcome;
  /** The JSON-RPC error code, for `error`. */
  readonly code?: number;
  /** The keys of the request's `inputResponses` (the answers to a previous round), when it had any. */
  readonly answered?: readonly string[];
  /** The keys of the `inputRequests` the round asks, for `input_required`. */
  readonly asked?: readonly string[];
}

/** Where records go. */
export type AuditWriter = (record: AuditRecord) => void;

function outcomeOf(result: WireResult): Pick<AuditRecord, "outcome" | "asked"> {
  if (result.resultType === "input_required") {
    return { outcome: "input_required", asked: Object.keys((result.inputRequests ?? {}) as object) };
  }
  return { outcome: result.isError === true ? "tool_error" : "ok" };
}

/**
 * A middleware writing one {@link AuditRecord} per `tools/call` to `write`, after the call ended;
 * the result or error passes through untouched. Add it first, so it also records what later
 * middleware refuses. `now` is the clock (default `Date.now`).
 */
export function auditLog(write: AuditWriter, now: () => number = Date.now): Middleware {
  return async (request, next) => {
    if (request.method !== "tools/call") return next(request);
    const params = request.params as { name?: unknown; inputResponses?: unknown };
    const base = {
      atMs: now(),
      tool: String(params.name),
      principal: authenticatedPrincipal(request.context) ?? null,
      ...(typeof params.inputResponses === "object" && params.inputResponses !== null
        ? { answered: Object.keys(params.inputResponses) }
        : {}),
    };
    try {
      const result = await next(request);
      write({ ...base, ...outcomeOf(result) });
      return result;
    } catch (error) {
      write({ ...base, outcome: "error", code: error instanceof McpError ? error.code : -32603 });
      throw error;
    }
  };
}

/** A small server under audit: a plain tool, a failing one, one that asks the user first. */
export function createAuditedServer(write: AuditWriter, now?: () => number): MCPServer {
  const mcp = new MCPServer("audited", { version: "1.0.0" });
  mcp.use(auditLog(write, now));
  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  mcp.tool("flaky", {}, () => {
    throw new Error("the backend is down");
  });
  const confirm = resolver("confirm", () => elicit("Delete everything?", z.object({ ok: z.boolean() })));
  mcp.tool("purge", { resolve: { confirm } }, (_args, ctx) => (ctx.resolved.confirm.ok ? "Purged" : "Kept"));
  return mcp;
}

/** Calls each tool once (and an unknown one), printing each audit record as a JSON line. */
export async function main(): Promise<void> {
  const mcp = createAuditedServer((record) => console.log(JSON.stringify(record)));
  const client = await Client.connect(mcp, {
    elicitationCallback: () => ({ action: "accept", content: { ok: true } }),
  });
  try {
    await client.callTool("echo", { text: "hi" });
    await client.callTool("flaky");
    await client.callTool("purge");
    await client.callTool("missing").catch(() => {});
  } finally {
    await client.close();
    mcp.close();
  }
}
