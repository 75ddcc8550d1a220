/**
 * Scope item 2: the two-leg MRTR flow end to end over Streamable HTTP (first call ->
 * `input_required` -> the client answers the elicitation -> retry with the echoed `requestState`
 * -> complete), one flow at a time, timed per completed flow. Each SDK's client drives its own
 * server and the other SDK's server; a raw `fetch` client (two POSTs, no validation) drives every
 * server too, and alone drives the floor. Servers run in child processes; clients run here.
 */
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as TsmcpClient } from "../../src/client/index.js";
import { PROVISION_ARGUMENTS, PROVISION_TOOL, PROVISIONED_TEXT } from "../fixtures/tools.js";
import {
  BENCH_PROTOCOL_VERSION,
  provisionFirstLeg,
  provisionRetryLeg,
  toolCallHeaders,
} from "../fixtures/wire.js";
import { type ServerChild, startServer } from "../lib/child.js";
import type { Column } from "../lib/report.js";
import { type SampleBounds, type Summary, sample } from "../lib/stats.js";
import type { Implementation } from "../server-process.js";

/** Which client drove a flow. */
export type FlowClient = "tsmcp" | "official" | "raw";

/** Flow latency (milliseconds) by client, then by server. */
export type FlowResults = Map<FlowClient, Map<Column, Summary>>;

/** A connected client: runs one flow, resolving with the final text. */
interface FlowDriver {
  flow(): Promise<string>;
  close(): Promise<void>;
}

const answer = () => ({ action: "accept" as const, content: { region: "eu-west-1" } });

function firstText(result: { content?: unknown }): string {
  const content = result.content;
  if (!Array.isArray(content)) return "";
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === "text" && typeof block.text === "string" ? block.text : "";
}

async function tsmcpDriver(url: URL): Promise<FlowDriver> {
  const client = await TsmcpClient.connect(url.href, { elicitationCallback: answer });
  return {
    flow: async () => firstText(await client.callTool(PROVISION_TOOL, { ...PROVISION_ARGUMENTS })),
    close: () => client.close(),
  };
}

async function officialDriver(url: URL): Promise<FlowDriver> {
  const client = new OfficialClient(
    { name: "bench-client", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: BENCH_PROTOCOL_VERSION } },
    },
  );
  client.setRequestHandler("elicitation/create", async () => answer());
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    flow: async () =>
      firstText(await client.callTool({ name: PROVISION_TOOL, arguments: { ...PROVISION_ARGUMENTS } })),
    close: () => client.close(),
  };
}

/** The floor's client: two `fetch` POSTs, reading only what the retry needs. */
function rawDriver(url: URL): FlowDriver {
  const headers = toolCallHeaders(PROVISION_TOOL);
  const post = async (body: unknown): Promise<{ result?: { requestState?: string; content?: unknown } }> => {
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    return (await response.json()) as { result?: { requestState?: string; content?: unknown } };
  };
  return {
    async flow() {
      const first = await post(provisionFirstLeg());
      const final = await post(provisionRetryLeg(first.result?.requestState));
      return firstText(final.result ?? {});
    },
    close: async () => {},
  };
}

function connect(client: FlowClient, url: URL): Promise<FlowDriver> {
  switch (client) {
    case "tsmcp":
      return tsmcpDriver(url);
    case "official":
      return officialDriver(url);
    case "raw":
      return Promise.resolve(rawDriver(url));
  }
}

/** Which client drives which server. */
const PAIRS: readonly [FlowClient, Implementation][] = [
  ["tsmcp", "tsmcp"],
  ["official", "official"],
  ["tsmcp", "official"],
  ["official", "tsmcp"],
  ["raw", "tsmcp"],
  ["raw", "official"],
  ["raw", "floor"],
];

/** Runs scope item 2: per pair, a checked flow, then `bounds` flows timed one by one (ms). */
export async function measureMrtrFlows(
  bounds: SampleBounds,
  log: (line: string) => void,
  cpuProfileDir?: string,
): Promise<FlowResults> {
  const servers = new Map<Implementation, ServerChild>();
  const results: FlowResults = new Map();
  try {
    for (const impl of ["tsmcp", "official", "floor"] as const) {
      servers.set(
        impl,
        await startServer(
          { impl, spec: { plainTools: 1, mrtr: true } },
          cpuProfileDir === undefined ? {} : { cpuProfileDir },
        ),
      );
    }
    for (const [clientKind, impl] of PAIRS) {
      const server = servers.get(impl) as ServerChild;
      const driver = await connect(clientKind, server.url);
      try {
        const text = await driver.flow();
        if (text !== PROVISIONED_TEXT)
          throw new Error(`${clientKind} -> ${impl}: flow ended with ${JSON.stringify(text)}`);
        let wrong = 0;
        const summaryUs = await sample(async () => {
          if ((await driver.flow()) !== PROVISIONED_TEXT) wrong++;
        }, bounds);
        if (wrong > 0) throw new Error(`${clientKind} -> ${impl}: ${wrong} flows did not complete`);
        const summaryMs = toMs(summaryUs);
        const byServer = results.get(clientKind) ?? new Map<Column, Summary>();
        byServer.set(impl, summaryMs);
        results.set(clientKind, byServer);
        log(
          `  ${clientKind.padEnd(8)} client -> ${impl.padEnd(8)} server: median ${summaryMs.median.toFixed(2)} ms, ` +
            `p99 ${summaryMs.p99.toFixed(2)} ms (${summaryMs.count} flows)`,
        );
      } finally {
        await driver.close();
      }
    }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  return results;
}

function toMs(summary: Summary): Summary {
  return {
    count: summary.count,
    median: summary.median / 1000,
    p90: summary.p90 / 1000,
    p99: summary.p99 / 1000,
    mean: summary.mean / 1000,
  };
}
