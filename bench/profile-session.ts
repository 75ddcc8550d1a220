/**
 * A steady loop of one plain `tools/call` through tsmcp's exchange handler (what `serve()` runs,
 * without sockets), to compare the 2025-11-25 session call with the 2026-07-28 call and to profile
 * it with `--cpu-prof` (read with `profile-top.ts`): `session` calls on one of ten sessions opened
 * first (`initialize`, `notifications/initialized`), `modern` sends the stateless 2026-07-28 call.
 * Prints the CPU time per call: the least and the median of rounds of 10,000 calls.
 *
 * Run: node [--cpu-prof --cpu-prof-dir=.bench-results/profiles] --import tsx bench/profile-session.ts <session|modern> [seconds=5]
 */
import type { HeaderReader } from "../packages/tsmcp/src/transport/dispatcher.js";
import type { HttpExchange } from "../packages/tsmcp/src/transport/http/exchange.js";
import { createExchangeHandler } from "../packages/tsmcp/src/transport/http/server/server-handler.js";
import { ECHO_TOOL } from "./fixtures/tools.js";
import {
  INITIALIZED_NOTIFICATION,
  initializeRequest,
  plainCall,
  sessionHeaders,
  sessionPlainCall,
  toolCallHeaders,
} from "./fixtures/wire.js";
import { createTsmcpServer } from "./servers/tsmcp.js";

const CASES = ["session", "modern"] as const;
const SESSIONS = 10;

const which = process.argv[2] as (typeof CASES)[number];
if (!CASES.includes(which)) throw new Error(`case must be one of ${CASES.join(", ")}`);
const seconds = Math.min(60, Number(process.argv[3] ?? 5));
const handler = createExchangeHandler(createTsmcpServer({ plainTools: 1, mrtr: false }));
const signal = new AbortController().signal;

/** Request headers as `node:http` leaves them: lowercase names in a plain object. */
function headerReader(headers: Record<string, string>): HeaderReader {
  const lower: Record<string, string> = { host: "127.0.0.1:3000" };
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return {
    get: (name) => lower[name.toLowerCase()] ?? null,
    forEach: (callback) => {
      for (const [name, value] of Object.entries(lower)) callback(value, name);
    },
  };
}

function exchange(headers: HeaderReader, text: string): HttpExchange {
  return {
    method: "POST",
    url: "http://127.0.0.1:3000/mcp",
    headers,
    signal,
    readBody: () => Promise.resolve({ kind: "text", text }),
  };
}

const sessions: HeaderReader[] = [];
for (let i = 0; i < SESSIONS; i++) {
  const init = await handler(exchange(headerReader(sessionHeaders()), JSON.stringify(initializeRequest())));
  const id = init.kind === "json" ? init.headers?.["Mcp-Session-Id"] : undefined;
  if (id === undefined) throw new Error(`initialize answered without a session: ${JSON.stringify(init)}`);
  await handler(exchange(headerReader(sessionHeaders(id)), JSON.stringify(INITIALIZED_NOTIFICATION)));
  sessions.push(headerReader(sessionHeaders(id)));
}
const modernHeaders = headerReader(toolCallHeaders(ECHO_TOOL));
const modernBody = JSON.stringify(plainCall(ECHO_TOOL));
const sessionBody = JSON.stringify(sessionPlainCall(ECHO_TOOL));
const run =
  which === "modern"
    ? () => handler(exchange(modernHeaders, modernBody))
    : (i: number) => handler(exchange(sessions[i % SESSIONS] as HeaderReader, sessionBody));

const check = await run(0);
if (check.kind !== "json" || !check.text.includes('"text":"hello"')) {
  throw new Error(`the call answered ${JSON.stringify(check)}`);
}
for (let i = 0; i < 20_000; i++) await run(i); // warm-up
// Rounds of a fixed count: on a busy machine the least CPU time of a round is the steadiest figure.
const ROUND_CALLS = 10_000;
const perCallUs: number[] = [];
const deadline = Date.now() + seconds * 1000;
while (Date.now() < deadline || perCallUs.length < 3) {
  const before = process.cpuUsage();
  for (let i = 0; i < ROUND_CALLS; i++) await run(i);
  const cpu = process.cpuUsage(before);
  perCallUs.push((cpu.user + cpu.system) / ROUND_CALLS);
}
perCallUs.sort((a, b) => a - b);
const median = perCallUs[Math.floor(perCallUs.length / 2)] as number;
console.log(
  `${which}: ${perCallUs.length} rounds of ${ROUND_CALLS} calls; CPU per call: least ${(perCallUs[0] as number).toFixed(1)} us, median ${median.toFixed(1)} us`,
);
handler.close();
