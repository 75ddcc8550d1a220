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
  /**
   * CPU time of the server's helper process (its Redis, say) during its turns per answered call,
   * in microseconds; present when the server has one.
   */
  readonly helperCpuUsPerRequest?: number;
}

/** Session load results by column. */
export type SessionLoadResults = Map<Column, SessionLoad>;

/** One server of a session load run, under the name `key`. */
export interface SessionServer<Key extends string> {
  readonly key: Key;
  readonly impl: Implementation;
  /** Variables added to the server child's environment. */
  readonly env?: Record<string, string>;
  /** Reads the CPU time a helper process of the server has used so far, in microseconds. */
  readonly helperCpuUs?: () => Promise<number>;
}

/** Who runs in each column of the session row. */
const SERVERS: readonly SessionServer<Column>[] = [
  { key: "tsmcp", impl: "tsmcp" },
  { key: "official", impl: "official-session" },
  { key: "floor", impl: "floor" },
];

async function post(url: URL, headers: Record<string, string>, body: unknown): Promise<Response> {
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * Opens one 2025-11-25 session: `initialize` (must answer 200 with that revision, and a session id
 * unless `floor`, which has none and gets a placeholder of the same length), then
 * `notifications/initialized` (must be accepted). `name` names the server in errors.
 */
export async function openSession(url: URL, name: string, floor = false): Promise<string> {
  const init = await post(url, sessionHeaders(), initializeRequest());
  const text = await init.text();
  const sessionId = init.headers.get("mcp-session-id") ?? (floor ? randomUUID() : null);
  if (init.status !== 200 || sessionId === null) {
    throw new Error(`${name}: initialize answered ${init.status} without a session: ${text.slice(0, 300)}`);
  }
  if (!floor && !text.includes(SESSION_PROTOCOL_VERSION)) {
    throw new Error(
      `${name}: initialize did not agree on ${SESSION_PROTOCOL_VERSION}: ${text.slice(0, 300)}`,
    );
  }
  const initialized = await post(url, sessionHeaders(sessionId), INITIALIZED_NOTIFICATION);
  await initialized.arrayBuffer();
  if (initialized.status >= 300)
    throw new Error(`${name}: notifications/initialized answered ${initialized.status}`);
  return sessionId;
}

/** Sends one call on a session, checks it answered 200 with the echoed text, returns its media type. */
export async function checkSessionCall(url: URL, name: string, sessionId: string): Promise<string> {
  const response = await post(url, sessionHeaders(sessionId), sessionPlainCall(ECHO_TOOL));
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"text":"hello"')) {
    throw new Error(`${name}: a call on its session answered ${response.status}: ${text.slice(0, 300)}`);
  }
  return (response.headers.get("content-type") ?? "none").split(";")[0] as string;
}

/**
 * Runs stage 8: the three servers side by side (see {@link measureSessionServers}).
 */
export function measureSessionLoad(
  config: SessionLoadConfig,
  log: (line: string) => void,
): Promise<SessionLoadResults> {
  return measureSessionServers(SERVERS, config, log);
}

/**
 * Runs `servers` side by side, each in its child process, checked, given its sessions (one per
 * connection) and warmed up; then `rounds` turns of `durationS / rounds` seconds (rotating who
 * goes first); the runs of one server are merged. Server CPU is the child's CPU during its turns
 * per answered call (and the helper's, when the server has one, likewise).
 */
export async function measureSessionServers<Key extends string>(
  servers: readonly SessionServer<Key>[],
  config: SessionLoadConfig,
  log: (line: string) => void,
): Promise<Map<Key, SessionLoad>> {
  const children = new Map<Key, ServerChild>();
  const loads = new Map<Key, LoadOptions[]>();
  const answeredAs = new Map<Key, string>();
  const body = JSON.stringify(sessionPlainCall(ECHO_TOOL));
  try {
    for (const { key, impl, env } of servers) {
      const child = await startServer(
        { impl, spec: { plainTools: 1, mrtr: false } },
        {
          ...(config.cpuProfileDir === undefined ? {} : { cpuProfileDir: config.cpuProfileDir }),
          ...(env === undefined ? {} : { env }),
        },
      );
      children.set(key, child);
      const sessions: string[] = [];
      for (let i = 0; i < config.connections; i++)
        sessions.push(await openSession(child.url, key, impl === "floor"));
      answeredAs.set(key, await checkSessionCall(child.url, key, sessions[0] as string));
      const perSession = (durationS: number): LoadOptions[] =>
        sessions.map((id) => ({
          url: child.url,
          headers: sessionHeaders(id),
          body,
          connections: 1,
          durationS,
        }));
      loads.set(key, perSession(config.durationS / config.rounds));
      await runConcurrentLoads(perSession(config.warmupS));
    }
    const runs = new Map<Key, LoadResult[]>(servers.map(({ key }) => [key, []]));
    const cpuUs = new Map<Key, number>(servers.map(({ key }) => [key, 0]));
    const helperUs = new Map<Key, number>(servers.map(({ key }) => [key, 0]));
    for (let round = 0; round < config.rounds; round++) {
      for (let turn = 0; turn < servers.length; turn++) {
        const { key, helperCpuUs } = servers[(round + turn) % servers.length] as SessionServer<Key>;
        const child = children.get(key) as ServerChild;
        const cpuBefore = await child.cpuUs();
        const helperBefore = (await helperCpuUs?.()) ?? 0;
        const run = await runConcurrentLoads(loads.get(key) ?? []);
        cpuUs.set(key, (cpuUs.get(key) ?? 0) + (await child.cpuUs()) - cpuBefore);
        helperUs.set(key, (helperUs.get(key) ?? 0) + ((await helperCpuUs?.()) ?? 0) - helperBefore);
        if (run.failures > 0) throw new Error(`${key}: ${run.failures} failed calls on sessions under load`);
        runs.get(key)?.push(run);
      }
    }
    const results = new Map<Key, SessionLoad>();
    for (const { key, helperCpuUs } of servers) {
      const merged = mergeLoads(runs.get(key) ?? []);
      const measured: SessionLoad = {
        ...merged,
        serverCpuUsPerRequest: (cpuUs.get(key) ?? 0) / merged.completed,
        answeredAs: answeredAs.get(key) ?? "none",
        ...(helperCpuUs === undefined
          ? {}
          : { helperCpuUsPerRequest: (helperUs.get(key) ?? 0) / merged.completed }),
      };
      results.set(key, measured);
      const helper =
        measured.helperCpuUsPerRequest === undefined
          ? ""
          : `, helper CPU ${measured.helperCpuUsPerRequest.toFixed(0)} us/request`;
      log(
        `  ${key.padEnd(8)} on sessions: ${measured.requestsPerSecond.toFixed(0)} req/s, ` +
          `p50 ${measured.latencyMs.median.toFixed(2)} ms, p99 ${measured.latencyMs.p99.toFixed(2)} ms, ` +
          `server CPU ${measured.serverCpuUsPerRequest.toFixed(0)} us/request${helper}, answered ${measured.answeredAs}`,
      );
    }
    return results;
  } finally {
    for (const child of children.values()) await child.stop();
  }
}
