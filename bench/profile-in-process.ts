/**
 * A steady loop of one tsmcp operation in process, to profile with `--cpu-prof` and read with
 * `profile-top.ts`: a plain call, an MRTR first leg or retry leg through `MCPServer.handle`, the
 * same through the web handler, or requestState seal + open (1 KiB). Runs for a fixed time.
 *
 * Run: node --cpu-prof --cpu-prof-dir=.bench-results/profiles --import tsx bench/profile-in-process.ts <case> [seconds=5]
 *   case: plain | first-leg | retry-leg | web-plain | seal-open
 */
import type { JSONRPCResponse } from "../packages/tsmcp/src/protocol/jsonrpc.js";
import { openRequestState, sealRequestState } from "../packages/tsmcp/src/server/state/sealing.js";
import type { RequestEnvironment } from "../packages/tsmcp/src/transport/dispatcher.js";
import { createHttpHandler } from "../packages/tsmcp/src/transport/http/server/server-handler.js";
import { ECHO_TOOL } from "./fixtures/tools.js";
import { plainCall, provisionFirstLeg, provisionRetryLeg, toolCallHeaders } from "./fixtures/wire.js";
import { benchPolicy, plaintextState, UNBOUND_SCOPE } from "./lib/request-state-cases.js";
import { createTsmcpServer } from "./servers/tsmcp.js";

const CASES = ["plain", "first-leg", "retry-leg", "web-plain", "seal-open"] as const;
type Case = (typeof CASES)[number];

const env: RequestEnvironment = { signal: new AbortController().signal };

async function operation(which: Case): Promise<() => Promise<unknown> | unknown> {
  const server = createTsmcpServer({ plainTools: 1, mrtr: true });
  switch (which) {
    case "plain": {
      const message = plainCall(ECHO_TOOL);
      return () => server.handle(message, env);
    }
    case "first-leg": {
      const message = provisionFirstLeg();
      return () => server.handle(message, env);
    }
    case "retry-leg": {
      const first = (await server.handle(provisionFirstLeg(), env)) as JSONRPCResponse & {
        result?: { requestState?: string };
      };
      const message = provisionRetryLeg(first.result?.requestState);
      return () => server.handle(message, env);
    }
    case "web-plain": {
      const handler = createHttpHandler(server);
      const body = JSON.stringify(plainCall(ECHO_TOOL));
      const headers = { ...toolCallHeaders(ECHO_TOOL), host: "127.0.0.1:3000" };
      return async () =>
        (await handler(new Request("http://127.0.0.1:3000/mcp", { method: "POST", headers, body }))).text();
    }
    case "seal-open": {
      const policy = benchPolicy();
      const state = plaintextState(1024);
      return () => openRequestState(policy, sealRequestState(policy, state, UNBOUND_SCOPE), UNBOUND_SCOPE);
    }
  }
}

const which = process.argv[2] as Case;
if (!CASES.includes(which)) throw new Error(`case must be one of ${CASES.join(", ")}`);
const seconds = Math.min(60, Number(process.argv[3] ?? 5));
const run = await operation(which);
const deadline = Date.now() + seconds * 1000;
let count = 0;
while (Date.now() < deadline) {
  for (let i = 0; i < 100; i++) await run();
  count += 100;
}
const cpu = process.cpuUsage();
console.log(
  `${which}: ${count} operations in ${seconds} s; ${((cpu.user + cpu.system) / count).toFixed(1)} us CPU each`,
);
