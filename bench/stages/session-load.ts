/**
 * Stage 8: a plain `tools/call` on a 2025-11-25 session over Streamable HTTP under load, 1 tool.
 * Each server runs in its own child process: tsmcp's `serve()` (sessions are its default for
 * handshake-era clients), the official SDK 1.x's stateful `StreamableHTTPServerTransport` (answering
 * JSON), and the floor (which ignores the handshake and the headers). Before any load, one session
 * is opened per connection (`initialize`, then `notifications/initialized`); each connection then
 * POSTs `tools/call` with its session's `Mcp-Session-Id` and `MCP-Protocol-Version: 2025-11-25`,
 * accepting JSON and SSE. Warm-up and turns as in stage 1.
 */
import { randomUUID } from "node:crypto";
import { ECHO_TOOL } from "../fixtures/tools.js";
import {
  INITIALIZED_NOTIFICATION,
  initializeRequest,
  SESSION_PROTOCOL_VERSION,
  sessionHeaders,
  sessionPlainCall,
} from "../fixtures/wire.js";
import { type ServerChild, startServer } from "../lib/child.js";
import { type LoadOptions, type LoadResult, mergeLoads, runConcurrentLoads } from "../lib/load.js";
import type { Column } from "../lib/report.js";
import type { Implementation } from "../server-process.js";
import type { ServerLoad } from "./http-load.js";

/** Bounds of the session load runs. */
export interface SessionLoadConfig {
  /** Connections, each on its own session. */
  readonly connections: number;
  readonly warmupS: number;
  readonly durationS: number;
  /** Measured runs per server, taking turns; each lasts `durationS / rounds`. */
  readonly rounds: number;
  readonly cpuProfileDir?: string | undefined;
}

/** One server's measured session load, and the media type it answered `tools/call` with. */
export interface SessionLoad extends ServerLoad {
  readonly answeredAs: string;
}

/** Session load results by column. */
export type SessionLoadResults = Map<Column, SessionLoad>;

/** Who runs in each column of the session row. */
const SERVERS: readonly [Column, Implementation][] = [
  ["tsmcp", "tsmcp"],
  ["official", "official-session"],
  ["floor", "floor"],
];

async function post(url: URL, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * Opens one 2025-11-25 session: `initialize` (must answer 200 with that revision, and a session id
 * unless `column` is the floor, which has none and gets a placeholder of the same length), then
 * `notifications/initialized` (must be accepted).
 */
async function openSession(url: URL, column: Column): Promise<string> {
  const init = await post(url, sessionHeaders(), initializeRequest());
  const text = await init.text();
  const sessionId = init.headers.get("mcp-session-id") ?? (column === "floor" ? randomUUID() : null);
  if (init.status !== 200 || sessionId === null) {
    throw new Error(`${column}: initialize answered ${init.status} without a session: ${text.slice(0, 300)}`);
  }
  if (column !== "floor" && !text.includes(SESSION_PROTOCOL_VERSION)) {
    throw new Error(
      `${column}: initialize did not agree on ${SESSION_PROTOCOL_VERSION}: ${text.slice(0, 300)}`,
    );
  }
  const initialized = await post(url, sessionHeaders(sessionId), INITIALIZED_NOTIFICATION);
  await initialized.arrayBuffer();
  if (initialized.status >= 300)
    throw new Error(`${column}: notifications/initialized answered ${initialized.status}`);
  return sessionId;
}

/** Sends one call on a session, checks it answered 200 with the echoed text, returns its media type. */
async function checkSessionCall(url: URL, column: Column, sessionId: string): Promise<string> {
  const response = await post(url, sessionHeaders(sessionId), sessionPlainCall(ECHO_TOOL));
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"text":"hello"')) {
    throw new Error(`${column}: a call on its session answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return (response.headers.get("content-type") ?? "none").split(";")[0] as string;
}

/**
 * Runs stage 8: the three servers side by side, each checked, given its sessions and warmed up;
 * then `rounds` turns of `durationS / rounds` seconds (rotating who goes first); the runs of one
 * server are merged. Server CPU is the child's CPU during its turns per answered call.
 */
export async function measureSessionLoad(
  config: SessionLoadConfig,
  log: (line: string) => void,
): Promise<SessionLoadResults> {
  const children = new Map<Column, ServerChild>();
  const loads = new Map<Column, LoadOptions[]>();
  const answeredAs = new Map<Column, string>();
  const body = JSON.stringify(sessionPlainCall(ECHO_TOOL));
  try {
    for (const [column, impl] of SERVERS) {
      const child = await startServer(
        { impl, spec: { plainTools: 1, mrtr: false } },
        config.cpuProfileDir === undefined ? {} : { cpuProfileDir: config.cpuProfileDir },
      );
      children.set(column, child);
      const sessions: string[] = [];
      for (let i = 0; i < config.connections; i++) sessions.push(await openSession(child.url, column));
      answeredAs.set(column, await checkSessionCall(child.url, column, sessions[0] as string));
      const perSession = (durationS: number): LoadOptions[] =>
        sessions.map((id) => ({
          url: child.url,
          headers: sessionHeaders(id),
          body,
          connections: 1,
          durationS,
        }));
      loads.set(column, perSession(config.durationS / config.rounds));
      await runConcurrentLoads(perSession(config.warmupS));
    }
    const runs = new Map<Column, LoadResult[]>(SERVERS.map(([column]) => [column, []]));
    const cpuUs = new Map<Column, number>(SERVERS.map(([column]) => [column, 0]));
    for (let round = 0; round < config.rounds; round++) {
      for (let turn = 0; turn < SERVERS.length; turn++) {
        const [column] = SERVERS[(round + turn) % SERVERS.length] as [Column, Implementation];
        const child = children.get(column) as ServerChild;
        const cpuBefore = await child.cpuUs();
        const run = await runConcurrentLoads(loads.get(column) ?? []);
        cpuUs.set(column, (cpuUs.get(column) ?? 0) + (await child.cpuUs()) - cpuBefore);
        if (run.failures > 0)
          throw new Error(`${column}: ${run.failures} failed calls on sessions under load`);
        runs.get(column)?.push(run);
      }
    }
    const results: SessionLoadResults = new Map();
    for (const [column] of SERVERS) {
      const merged = mergeLoads(runs.get(column) ?? []);
      const measured: SessionLoad = {
        ...merged,
        serverCpuUsPerRequest: (cpuUs.get(column) ?? 0) / merged.completed,
        answeredAs: answeredAs.get(column) ?? "none",
      };
      results.set(column, measured);
      log(
        `  ${column.padEnd(8)} on sessions: ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
          `p50 ${measured.latencyMs.median.toFixed(2)} ms, p99 ${measured.latencyMs.p99.toFixed(2)} ms, ` +
          `server CPU ${measured.serverCpuUsPerRequest.toFixed(0)} us/request, answered ${measured.answeredAs}`,
      );
    }
    return results;
  } finally {
    for (const child of children.values()) await child.stop();
  }
}
