/**
 * Stage 7: what an invalid request costs next to a valid one of the same shape, through tsmcp's web
 * handler in process (a web `Request` built from the raw bytes in, the response text out: body
 * read, JSON parse, framing, dispatch, argument validation, answer). Two pairs:
 *
 * - a ~3.8 MiB `tools/call` whose `items` (zod `z.array(z.number())`) holds 200,000 numbers, against
 *   the same body with 200,000 strings of the same length (each item 19 bytes either way);
 * - a tool whose raw JSON Schema has `pattern: "^(a+)+$"` (catastrophic backtracking for a
 *   backtracking engine) called with 32 `a`s, against 32 `a`s followed by `!`.
 *
 * Each request is timed on its own (wall, microseconds) and the process CPU time (user + system)
 * over the measured requests is divided by their count. The requests of a pair take turns, so drift
 * in machine load hits both alike. Every response is checked once first: the valid request must
 * succeed and the invalid one must be refused.
 */
import * as z from "zod";
import { silentLogger } from "../../packages/tsmcp/src/protocol/logger.js";
import { MCPServer } from "../../packages/tsmcp/src/server/mcp/server.js";
import { createHttpHandler } from "../../packages/tsmcp/src/transport/http/server/server-handler.js";
import { toolCall, toolCallHeaders } from "../fixtures/wire.js";
import { type Summary, summarize } from "../lib/stats.js";

/** The two requests of a pair. */
export type InputKind = "valid" | "invalid";

/** One request's cost: wall time per request and process CPU per request, in microseconds. */
export interface InputCost {
  readonly wallUs: Summary;
  readonly cpuUsPerRequest: number;
}

/** Costs by case label, then kind. */
export type InvalidInputResults = Map<string, Map<InputKind, InputCost>>;

/** Runs per request kind: warm-up, then measured, alternating valid and invalid. */
export interface RunCounts {
  readonly warmup: number;
  readonly samples: number;
}

/** Run counts for the large (3.8 MiB) pair and for the small pair. */
export interface InvalidInputBounds {
  readonly large: RunCounts;
  readonly small: RunCounts;
}

/** Items in the large array body. */
const ARRAY_ITEMS = 200_000;

/** Argument length of the pattern case: the length the issue reproduced an 11 s stall with. */
const PATTERN_LENGTH = 32;

const ENDPOINT = "http://127.0.0.1:3000/mcp";

/** A valid item: a 19-character number. */
const validItem = (i: number) => (1_000_000 + i).toFixed(11);
/** An invalid item: a string of the same 19 bytes with its quotes. */
const invalidItem = (i: number) => `"x${String(i).padStart(16, "0")}"`;

function arrayBody(item: (i: number) => string): string {
  const items = Array.from({ length: ARRAY_ITEMS }, (_, i) => item(i)).join(",");
  const envelope = JSON.stringify(toolCall("sum", { items: "ITEMS" }));
  return envelope.replace('"ITEMS"', `[${items}]`);
}

function createServer(): MCPServer {
  const mcp = new MCPServer("invalid-input-bench", { logger: silentLogger });
  mcp.tool("sum", { inputSchema: z.object({ items: z.array(z.number()) }) }, ({ items }) =>
    String(items.length),
  );
  mcp.tool(
    "match",
    {
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", pattern: "^(a+)+$" } },
        required: ["text"],
      },
    },
    () => "matched",
  );
  return mcp;
}

interface Case {
  readonly label: string;
  readonly size: keyof InvalidInputBounds;
  readonly tool: string;
  readonly bodies: Record<InputKind, string>;
}

function cases(): Case[] {
  return [
    {
      label: `tools/call, ${ARRAY_ITEMS.toLocaleString("en-US")}-item array (zod)`,
      size: "large",
      tool: "sum",
      bodies: { valid: arrayBody(validItem), invalid: arrayBody(invalidItem) },
    },
    {
      label: `tools/call, pattern "^(a+)+$" on ${PATTERN_LENGTH} characters (raw JSON Schema)`,
      size: "small",
      tool: "match",
      bodies: {
        valid: JSON.stringify(toolCall("match", { text: "a".repeat(PATTERN_LENGTH) })),
        invalid: JSON.stringify(toolCall("match", { text: `${"a".repeat(PATTERN_LENGTH)}!` })),
      },
    },
  ];
}

type Handler = (request: Request) => Promise<Response>;

async function send(handler: Handler, tool: string, body: string): Promise<string> {
  const response = await handler(
    new Request(ENDPOINT, {
      method: "POST",
      headers: { ...toolCallHeaders(tool), host: "127.0.0.1:3000" },
      body,
    }),
  );
  return response.text();
}

/** Checks once that the valid body succeeds and the invalid one is refused. */
async function check(handler: Handler, entry: Case): Promise<void> {
  for (const kind of ["valid", "invalid"] as const) {
    const answer = JSON.parse(await send(handler, entry.tool, entry.bodies[kind])) as {
      result?: { isError?: boolean };
    };
    const refused = answer.result === undefined || answer.result.isError === true;
    if (refused !== (kind === "invalid")) {
      throw new Error(`${entry.label}: the ${kind} request was ${refused ? "refused" : "accepted"}`);
    }
  }
}

function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Runs stage 7. */
export async function measureInvalidInput(
  bounds: InvalidInputBounds,
  log: (line: string) => void,
): Promise<InvalidInputResults> {
  const mcp = createServer();
  const handler = createHttpHandler(mcp);
  const results: InvalidInputResults = new Map();
  try {
    for (const entry of cases()) {
      await check(handler, entry);
      const runs = bounds[entry.size];
      const kinds = ["valid", "invalid"] as const;
      for (let i = 0; i < runs.warmup; i++) {
        for (const kind of kinds) await send(handler, entry.tool, entry.bodies[kind]);
      }
      const wall = { valid: new Float64Array(runs.samples), invalid: new Float64Array(runs.samples) };
      const cpu = { valid: 0, invalid: 0 };
      for (let i = 0; i < runs.samples; i++) {
        for (const kind of kinds) {
          const cpuBefore = cpuUs();
          const start = process.hrtime.bigint();
          await send(handler, entry.tool, entry.bodies[kind]);
          wall[kind][i] = Number(process.hrtime.bigint() - start) / 1_000;
          cpu[kind] += cpuUs() - cpuBefore;
        }
      }
      const byKind = new Map<InputKind, InputCost>();
      for (const kind of kinds) {
        byKind.set(kind, { wallUs: summarize(wall[kind]), cpuUsPerRequest: cpu[kind] / runs.samples });
      }
      results.set(entry.label, byKind);
      const ms = (us: number | undefined) => ((us ?? Number.NaN) / 1_000).toFixed(2);
      const costs = (kind: InputKind) => {
        const cost = byKind.get(kind);
        return (
          `${kind}: CPU ${ms(cost?.cpuUsPerRequest)} ms, wall median ${ms(cost?.wallUs.median)} ms, ` +
          `p99 ${ms(cost?.wallUs.p99)} ms`
        );
      };
      log(`  ${entry.label}: per request ${costs("valid")}; ${costs("invalid")}`);
    }
  } finally {
    handler.close();
    mcp.close();
  }
  return results;
}
