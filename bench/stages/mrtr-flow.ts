/**
 * Scope item 2: the two-leg MRTR flow end to end over Streamable HTTP (first call ->
 * `input_required` -> the client answers the elicitation -> retry with the echoed `requestState`
 * -> complete), one flow at a time, timed per completed flow, the pairs taking turns in short
 * blocks. Each SDK's client drives its own
 * server and the other SDK's server; a raw `fetch` client (two POSTs, no validation) drives every
 * server too, and alone drives the floor. Servers run in child processes; clients run here.
 */
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type * as ClientEntry from "../../packages/tsmcp/src/client/index.js";
import { PROVISION_ARGUMENTS, PROVISION_TOOL, PROVISIONED_TEXT } from "../fixtures/tools.js";
import {
  BENCH_PROTOCOL_VERSION,
  provisionFirstLeg,
  provisionRetryLeg,
  toolCallHeaders,
} from "../fixtures/wire.js";
import { tsmcpEntry } from "../lib/build.js";
import { type ServerChild, startServer } from "../lib/child.js";
import type { Column } from "../lib/report.js";
import { elapsedUs, type SampleBounds, type Summary, summarize } from "../lib/stats.js";
import type { Implementation } from "../server-process.js";

/** Which client drove a flow. */
export type FlowClient = "tsmcp" | "official" | "raw";

/** One pair's flows: latency per flow (milliseconds) and CPU per flow on each side. */
export interface FlowResult {
  readonly latencyMs: Summary;
  /** Server process CPU (user + system) per completed flow, in microseconds. */
  readonly serverCpuUs: number;
  /** This (client) process's CPU (user + system) per completed flow, in microseconds. */
  readonly clientCpuUs: number;
}

/** Flow results by client, then by server. */
export type FlowResults = Map<FlowClient, Map<Column, FlowResult>>;

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
  // The client as a user runs it: the build when current (see ../lib/build.ts), else the sources.
  const { Client: TsmcpClient } = (await import(tsmcpEntry("client"))) as typeof ClientEntry;
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

/** The servers of the flows: those that speak 2026-07-28. */
type FlowServer = Implementation & Column;

/** Which client drives which server. */
const PAIRS: readonly [FlowClient, FlowServer][] = [
  ["tsmcp", "tsmcp"],
  ["official", "official"],
  ["tsmcp", "official"],
  ["official", "tsmcp"],
  ["raw", "tsmcp"],
  ["raw", "official"],
  ["raw", "floor"],
];

/** Flows per pair per round: pairs take turns in blocks this long, so load drift hits all alike. */
const BLOCK_FLOWS = 10;

/**
 * Runs scope item 2. Every pair is connected and checked first (one flow must complete with the
 * expected text), then warmed up with `bounds.warmup` flows; then rounds run, each timing
 * {@link BLOCK_FLOWS} flows of every pair in turn, until every pair has `bounds.maxSamples` flows
 * or `bounds.maxMs` per pair has passed. Latencies are per completed flow, in milliseconds.
 */
export async function measureMrtrFlows(
  bounds: SampleBounds,
  log: (line: string) => void,
  cpuProfileDir?: string,
): Promise<FlowResults> {
  const servers = new Map<FlowServer, ServerChild>();
  const drivers: {
    client: FlowClient;
    impl: FlowServer;
    driver: FlowDriver;
    server: ServerChild;
    samplesUs: number[];
    serverCpuUs: number;
    clientCpuUs: number;
  }[] = [];
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
    for (const [client, impl] of PAIRS) {
      const server = servers.get(impl) as ServerChild;
      const driver = await connect(client, server.url);
      drivers.push({ client, impl, driver, server, samplesUs: [], serverCpuUs: 0, clientCpuUs: 0 });
      const text = await driver.flow();
      if (text !== PROVISIONED_TEXT)
        throw new Error(`${client} -> ${impl}: flow ended with ${JSON.stringify(text)}`);
      for (let i = 0; i < bounds.warmup; i++) await driver.flow();
    }
    const deadline = process.hrtime.bigint() + BigInt(bounds.maxMs * drivers.length) * 1_000_000n;
    let wrong = 0;
    while (
      drivers.some((entry) => entry.samplesUs.length < bounds.maxSamples) &&
      process.hrtime.bigint() < deadline
    ) {
      for (const entry of drivers) {
        if (entry.samplesUs.length >= bounds.maxSamples) continue;
        const serverBefore = await entry.server.cpuUs();
        const clientBefore = process.cpuUsage();
        for (let i = 0; i < BLOCK_FLOWS && entry.samplesUs.length < bounds.maxSamples; i++) {
          const start = process.hrtime.bigint();
          if ((await entry.driver.flow()) !== PROVISIONED_TEXT) wrong++;
          entry.samplesUs.push(elapsedUs(start));
        }
        const client = process.cpuUsage(clientBefore);
        entry.clientCpuUs += client.user + client.system;
        entry.serverCpuUs += (await entry.server.cpuUs()) - serverBefore;
      }
    }
    if (wrong > 0) throw new Error(`${wrong} flows did not complete`);
    for (const { client, impl, samplesUs, serverCpuUs, clientCpuUs } of drivers) {
      if (samplesUs.length < (bounds.minSamples ?? 100)) {
        throw new Error(`${client} -> ${impl}: only ${samplesUs.length} flows fit in the time bound`);
      }
      const summaryMs = toMs(summarize(Float64Array.from(samplesUs)));
      const result: FlowResult = {
        latencyMs: summaryMs,
        serverCpuUs: serverCpuUs / samplesUs.length,
        clientCpuUs: clientCpuUs / samplesUs.length,
      };
      const byServer = results.get(client) ?? new Map<Column, FlowResult>();
      byServer.set(impl, result);
      results.set(client, byServer);
      log(
        `  ${client.padEnd(8)} client -> ${impl.padEnd(8)} server: median ${summaryMs.median.toFixed(2)} ms, ` +
          `p99 ${summaryMs.p99.toFixed(2)} ms (${summaryMs.count} flows); CPU per flow: server ` +
          `${result.serverCpuUs.toFixed(0)} us, client ${result.clientCpuUs.toFixed(0)} us`,
      );
    }
  } finally {
    for (const { driver } of drivers) await driver.close();
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
