/**
 * Does a plain `tools/call` cost more when a server has more tools? Measures the in-process
 * per-request cost of `MCPServer.handle` (the whole dispatch: `_meta` check, requestState
 * boundary, params validation, tool lookup, argument validation, the body, result shaping) for one
 * `echo` tool, on a server with 1 registered tool and on one with 50 (the called tool registered
 * last). Schemas are compiled at registration, so the two should cost the same. Blocks of the two
 * servers alternate, so drift in machine load hits both alike. Reports median and p90 microseconds
 * per call, and the 50-to-1 ratio of medians.
 *
 * Run: npx tsx bench/tools-scaling.bench.ts
 */
import { cpus, loadavg } from "node:os";
import * as z from "zod";
import type { JSONRPCRequest } from "../packages/tsmcp/src/protocol/jsonrpc.js";
import { LATEST_PROTOCOL_VERSION, META } from "../packages/tsmcp/src/protocol/versions.js";
import { MCPServer } from "../packages/tsmcp/src/server/mcp/server.js";
import type { RequestEnvironment } from "../packages/tsmcp/src/transport/dispatcher.js";

const WARMUP_CALLS = 5_000;
const BLOCKS = 40;
const CALLS_PER_BLOCK = 1_000;
/** The 50-to-1 ratio under which the cost counts as flat (medians of a noisy shared machine). */
const FLAT_RATIO = 1.1;

type SchemaKind = "zod" | "raw JSON Schema";

function inputSchemaOf(kind: SchemaKind) {
  return kind === "zod"
    ? z.object({ text: z.string(), times: z.number().int().min(1).default(1) })
    : {
        type: "object",
        properties: { text: { type: "string" }, times: { type: "integer", minimum: 1 } },
        required: ["text"],
      };
}

/** A server with `count` tools; the called one, `echo`, is registered last. */
function serverWith(count: number, kind: SchemaKind): MCPServer {
  const mcp = new MCPServer("bench", { version: "1.0.0" });
  for (let i = 1; i < count; i++) {
    mcp.tool(`tool_${i}`, { description: `filler ${i}`, inputSchema: inputSchemaOf(kind) }, () => "filler");
  }
  mcp.tool("echo", { description: "echoes text", inputSchema: inputSchemaOf(kind) }, (args) =>
    String(args.text),
  );
  return mcp;
}

const request: JSONRPCRequest = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: {
    name: "echo",
    arguments: { text: "hello" },
    _meta: {
      [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
      [META.clientCapabilities]: {},
      [META.clientInfo]: { name: "bench", version: "1.0.0" },
    },
  },
};
const env: RequestEnvironment = { signal: new AbortController().signal };

async function call(mcp: MCPServer): Promise<void> {
  const response = await mcp.handle(request, env);
  if (response === undefined || !("result" in response))
    throw new Error(`call failed: ${JSON.stringify(response)}`);
}

/** Times `count` calls one by one, appending microseconds to `into`. */
async function timeBlock(mcp: MCPServer, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call(mcp);
    into.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))] as number;
}

interface Row {
  kind: SchemaKind;
  tools: number;
  medianUs: number;
  p90Us: number;
}

async function measure(kind: SchemaKind): Promise<Row[]> {
  const servers = [
    { tools: 1, mcp: serverWith(1, kind), samples: [] as number[] },
    { tools: 50, mcp: serverWith(50, kind), samples: [] as number[] },
  ];
  for (const server of servers) for (let i = 0; i < WARMUP_CALLS; i++) await call(server.mcp);
  for (let block = 0; block < BLOCKS; block++) {
    const order = block % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) await timeBlock(server.mcp, CALLS_PER_BLOCK, server.samples);
  }
  return servers.map(({ tools, samples }) => {
    samples.sort((a, b) => a - b);
    return { kind, tools, medianUs: percentile(samples, 0.5), p90Us: percentile(samples, 0.9) };
  });
}

const rows = [...(await measure("zod")), ...(await measure("raw JSON Schema"))];
const [load1] = loadavg();
console.log(
  `tools/call vs registered tools — ${cpus()[0]?.model ?? "unknown CPU"} x${cpus().length}, Node ${process.version}`,
);
console.log(
  `load average ${load1?.toFixed(2)}; ${BLOCKS * CALLS_PER_BLOCK} timed calls per row after ${WARMUP_CALLS} warm-up calls\n`,
);
console.log("| input schema | registered tools | median (us) | p90 (us) |");
console.log("| --- | ---: | ---: | ---: |");
for (const row of rows) {
  console.log(`| ${row.kind} | ${row.tools} | ${row.medianUs.toFixed(1)} | ${row.p90Us.toFixed(1)} |`);
}
console.log();
for (const kind of ["zod", "raw JSON Schema"] as const) {
  const one = rows.find((row) => row.kind === kind && row.tools === 1) as Row;
  const fifty = rows.find((row) => row.kind === kind && row.tools === 50) as Row;
  const ratio = fifty.medianUs / one.medianUs;
  console.log(
    `${kind}: 50 tools / 1 tool median ratio ${ratio.toFixed(2)} — ${ratio < FLAT_RATIO ? "flat" : "GROWS"} (flat means under ${FLAT_RATIO})`,
  );
}
