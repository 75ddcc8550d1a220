/**
 * A benchmarked stdio server in its own process (stage 11): serves MCP on this process's stdin and
 * stdout, which belong to whoever spawned it (the stage's raw driver, or an SDK client's own stdio
 * transport). argv[2] is a JSON `StdioServerLaunch` (`lib/stdio-child.ts`).
 *
 * Control channel: stdin and stdout carry only the protocol, so the stage talks to the process over
 * a Unix socket whose path the environment variable `TSMCP_BENCH_CONTROL` names; one JSON object
 * per line each way:
 * - child -> parent `{ type: "ready", pid }` once connected;
 * - parent -> child `{ type: "cpu" }`, answered `{ type: "cpu", cpuUs }`: the process's CPU time so
 *   far (user + system, all threads), in microseconds.
 * The process exits when stdin ends or the control socket closes.
 */
import { connect } from "node:net";
import { CONTROL_ENV, type StdioServerLaunch } from "./lib/stdio-child.js";
import { serveOverStdio } from "./servers/stdio-servers.js";

const launch = JSON.parse(process.argv[2] ?? "{}") as StdioServerLaunch;
const path = process.env[CONTROL_ENV];
if (path === undefined) throw new Error(`stdio-server-process: ${CONTROL_ENV} is not set`);

const control = connect(path);
control.setEncoding("utf8");
let pending = "";
control.on("data", (chunk: string) => {
  pending += chunk;
  let newline = pending.indexOf("\n");
  while (newline !== -1) {
    const message = JSON.parse(pending.slice(0, newline)) as { type?: string };
    pending = pending.slice(newline + 1);
    if (message.type === "cpu") {
      const { user, system } = process.cpuUsage();
      control.write(`${JSON.stringify({ type: "cpu", cpuUs: user + system })}\n`);
    }
    newline = pending.indexOf("\n");
  }
});
control.on("close", () => process.exit(0));
control.on("error", () => process.exit(1));
control.write(`${JSON.stringify({ type: "ready", pid: process.pid })}\n`);

await serveOverStdio(launch.impl, launch.spec);
process.exit(0);
