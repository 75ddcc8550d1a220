/**
 * Cold start: from spawning a server process to its first answered `tools/call`, over stdio, for
 * tsmcp (from its build, `dist/`, as a user runs it), the official SDK 2.4.0, the official SDK
 * 1.32.2 and a bare Node floor. Each server is a minimal one (one zod tool `echo`) in
 * `servers/`. Two openings:
 * - `2026`: one `tools/call` carrying the 2026-07-28 `_meta` envelope, sent at spawn (tsmcp and
 *   2.4.0; 1.x does not speak 2026-07-28);
 * - `handshake`: `initialize` at 2025-11-25 sent at spawn, then `notifications/initialized` and
 *   the `tools/call` once the `initialize` answer arrives (every server).
 * The clock starts just before `spawn` and stops when the `tools/call` answer's line arrives; the
 * servers run in turn (A B C A B C ...) so a drift of the machine's speed touches them alike. It
 * prints the median, min and max per server and opening, and each median's ratio to 2.4.0's (1.x's
 * for the handshake when 2.4.0 is absent).
 *
 * Usage: npx tsx bench/cold-start/run.ts [--runs=N] [--only=tsmcp,official] [--json]
 *   (needs `npm run build` first: tsmcp runs from `dist/`)
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One server under test: its script in `servers/` and the openings it speaks. */
interface ServerUnderTest {
  readonly name: string;
  readonly script: string;
  readonly openings: readonly Opening[];
}

/** How the client opens the conversation. */
export type Opening = "2026" | "handshake";

const SERVERS: readonly ServerUnderTest[] = [
  { name: "tsmcp", script: "tsmcp.mjs", openings: ["2026", "handshake"] },
  { name: "tsmcp (raw JSON Schema tool)", script: "tsmcp-raw-schema.mjs", openings: ["2026", "handshake"] },
  { name: "official 2.4.0", script: "official.mjs", openings: ["2026", "handshake"] },
  { name: "official 1.32.2", script: "sdk-v1.mjs", openings: ["handshake"] },
  { name: "floor", script: "floor.mjs", openings: ["handshake"] },
];

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "cold-start", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

function line(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

const CALL_ID = 2;
const callParams = { name: "echo", arguments: { text: "hello" } };

/**
 * Spawns `script`, opens as `opening` says, and resolves with the milliseconds from just before
 * the spawn to the `tools/call` answer. Rejects when the server exits first or answers an error.
 */
export function coldStart(script: string, opening: Opening): Promise<number> {
  const path = fileURLToPath(new URL(`./servers/${script}`, import.meta.url));
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [path], { stdio: ["pipe", "pipe", "inherit"] });
    let buffered = "";
    let done = false;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      child.stdin.end();
      child.kill();
      child.once("exit", outcome);
    };
    child.once("exit", (code) => {
      if (!done) reject(new Error(`${script} exited (${code}) before answering`));
    });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        if (text.trim() === "") continue;
        const message = JSON.parse(text) as { id?: number; result?: { content?: unknown }; error?: unknown };
        if (message.id === 1 && opening === "handshake") {
          child.stdin.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
          child.stdin.write(line({ jsonrpc: "2.0", id: CALL_ID, method: "tools/call", params: callParams }));
        } else if (message.id === CALL_ID) {
          const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
          const text = JSON.stringify(message.result?.content ?? message.error);
          if (message.error !== undefined || !text.includes("hello")) {
            finish(() => reject(new Error(`${script} answered ${text}`)));
          } else {
            finish(() => resolve(elapsedMs));
          }
        }
      }
    });
    if (opening === "2026") {
      child.stdin.write(
        line({ jsonrpc: "2.0", id: CALL_ID, method: "tools/call", params: { ...callParams, _meta: META } }),
      );
    } else {
      child.stdin.write(
        line({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "cold-start", version: "1.0.0" },
          },
        }),
      );
    }
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

async function main(): Promise<void> {
  const runs = Number(option("runs") ?? 15);
  const only = option("only")?.split(",");
  const servers = SERVERS.filter(
    (server) => only === undefined || only.includes(server.script.replace(/\.mjs$/, "")),
  );
  const samples = new Map<string, number[]>();
  const cases = servers.flatMap((server) => server.openings.map((opening) => ({ server, opening })));
  // One warm-up round (file-system caches), not counted.
  for (const { server, opening } of cases) await coldStart(server.script, opening);
  for (let run = 0; run < runs; run++) {
    for (const { server, opening } of cases) {
      const key = `${server.name}|${opening}`;
      const ms = await coldStart(server.script, opening);
      samples.set(key, [...(samples.get(key) ?? []), ms]);
    }
    process.stderr.write(`\rrun ${run + 1}/${runs}`);
  }
  process.stderr.write("\n");
  const rows = cases.map(({ server, opening }) => {
    const values = samples.get(`${server.name}|${opening}`) ?? [];
    return {
      server: server.name,
      opening,
      medianMs: median(values),
      minMs: Math.min(...values),
      maxMs: Math.max(...values),
    };
  });
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ runs, rows }, null, 2));
    return;
  }
  console.log(`${runs} runs each, node ${process.version}`);
  console.log("| server | opening | median | min | max | x official 2.4.0 | x official 1.32.2 |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const row of rows) {
    const base = (name: string) =>
      rows.find((other) => other.server === name && other.opening === row.opening);
    const ratio = (name: string) => {
      const other = base(name);
      return other === undefined ? "" : (row.medianMs / other.medianMs).toFixed(2);
    };
    console.log(
      `| ${row.server} | ${row.opening} | ${row.medianMs.toFixed(1)} ms | ${row.minMs.toFixed(1)} ms | ` +
        `${row.maxMs.toFixed(1)} ms | ${ratio("official 2.4.0")} | ${ratio("official 1.32.2")} |`,
    );
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
