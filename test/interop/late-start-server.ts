/**
 * The interop server, started only once the client has sent `initialize`: it models a server whose
 * start-up outlasts a dual-era client's `server/discover` probe timeout, so the probe and the
 * `initialize` that follows it reach the stdio loop together, on one process. Nothing is lost: the
 * lines read while it waits are handed to the loop first.
 *
 * Run over stdio (the AI SDK suite spawns it): `node --import tsx test/interop/late-start-server.ts`.
 */
import { PassThrough } from "node:stream";
import { serveStdio } from "tsmcp/stdio";
import { createInteropServer } from "./fixture-server.js";

const held = new PassThrough();
process.stdin.pipe(held);

let pending = "";
function watch(chunk: Buffer): void {
  pending += chunk.toString("utf8");
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  if (!lines.some(isInitialize)) return;
  process.stdin.off("data", watch);
  void serveStdio(createInteropServer(), { stdin: held }).closed;
}

function isInitialize(line: string): boolean {
  try {
    return (JSON.parse(line) as { method?: unknown }).method === "initialize";
  } catch {
    return false;
  }
}

process.stdin.on("data", watch);
