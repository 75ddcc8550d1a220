/**
 * Stage 11: MCP over stdio. Every server runs in a child process that the stage (or a client's own
 * stdio transport) spawns and talks to over the child's stdin and stdout: tsmcp (`tsmcp/stdio`), the
 * official SDK 2.4.0 (`@modelcontextprotocol/server/stdio`), the official SDK 1.x
 * (`StdioServerTransport`), and the floor (a bare line-delimited JSON loop).
 *
 * - A raw line driver (one per server: writes a JSON line, waits for the line answering it) sends
 *   each server the plain `tools/call` and the two-round MRTR flow (`provision`): at 2026-07-28 the
 *   first call, its `input_required` result, and the retry with the answer and the echoed
 *   `requestState`; the 1.x server, a 2025-11-25 server, asks its question as an in-band
 *   `elicitation/create` request during the call instead (the driver answers it; the connection was
 *   opened with `initialize`).
 * - Each SDK's own client drives its own server through its own stdio transport (tsmcp `Client`
 *   over `StdioClientTransport`; the official 2.4.0 `Client` over its `StdioClientTransport`, pinned
 *   to 2026-07-28), and the raw driver the floor: the MRTR flow, with this process's CPU per flow.
 *
 * Every pair is checked first (the expected text), warmed up, then timed in blocks that take turns.
 * Server CPU is the child's `process.cpuUsage()`, read over its control socket (`../lib/stdio-child.ts`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client as OfficialClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as OfficialStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type * as ClientEntry from "../../packages/tsmcp/src/client/index.js";
import type * as StdioEntry from "../../packages/tsmcp/src/stdio/index.js";
import {
  ECHO_TOOL,
  PLAIN_ARGUMENTS,
  PROVISION_ARGUMENTS,
  PROVISION_TOOL,
  PROVISIONED_TEXT,
  REGION_ANSWER,
} from "../fixtures/tools.js";
import {
  BENCH_PROTOCOL_VERSION,
  plainCall,
  provisionFirstLeg,
  provisionRetryLeg,
  SESSION_PROTOCOL_VERSION,
} from "../fixtures/wire.js";
import { tsmcpEntry } from "../lib/build.js";
import { elapsedUs, type SampleBounds, type Summary, summarize } from "../lib/stats.js";
import { openStdioControl, type StdioCommand, type StdioControl } from "../lib/stdio-child.js";
import type { StdioImplementation } from "../servers/stdio-servers.js";

/** One measured operation: latency (milliseconds) and CPU per operation on each side. */
export interface StdioResult {
  readonly latencyMs: Summary;
  /** Server process CPU (user + system) per operation, in microseconds. */
  readonly serverCpuUs: number;
  /** This (client) process's CPU (user + system) per operation, in microseconds. */
  readonly clientCpuUs: number;
}

/** Who drove the own-client flow: tsmcp's client, the official 2.4.0 client, or the raw driver (floor). */
export type StdioOwnClient = "tsmcp" | "official" | "floor";

/** Stage 11's results. */
export interface StdioResults {
  /** The plain call, raw driver, by server. */
  readonly plain: Map<StdioImplementation, StdioResult>;
  /** The MRTR flow, raw driver, by server. */
  readonly flow: Map<StdioImplementation, StdioResult>;
  /** The MRTR flow with each SDK's own client against its own server. */
  readonly ownClient: Map<StdioOwnClient, StdioResult>;
}

/** Bounds of stage 11 (per measured operation). */
export type StdioConfig = SampleBounds;

/** Operations per block, by kind: blocks take turns so that load drift hits every pair alike. */
const BLOCK = { plain: 200, flow: 50 } as const;

const SERVERS: readonly StdioImplementation[] = ["tsmcp", "official", "official-v1", "floor"];

type Message = { id?: unknown; method?: unknown; result?: Record<string, unknown>; error?: unknown };

/** A JSON-RPC peer over a child's stdin/stdout, one line per message; answers the server's requests. */
class LineDriver {
  readonly #child: ChildProcess;
  readonly #pending = new Map<unknown, (message: Message) => void>();
  readonly exited: Promise<void>;
  #rest = "";
  #nextId = 1;

  constructor(command: StdioCommand) {
    this.#child = spawn(command.command, command.args, {
      cwd: command.cwd,
      env: { ...process.env, ...command.env },
      stdio: ["pipe", "pipe", "inherit"],
    });
    this.exited = new Promise((resolve) => this.#child.once("exit", () => resolve()));
    this.#child.stdout?.setEncoding("utf8");
    this.#child.stdout?.on("data", (chunk: string) => this.#onData(chunk));
  }

  #onData(chunk: string): void {
    let text = this.#rest + chunk;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const message = JSON.parse(text.slice(0, newline)) as Message;
      text = text.slice(newline + 1);
      if (message.method !== undefined) {
        // The 1.x server's in-band question; answered as every client of the stage answers it.
        if (message.id !== undefined) this.#write({ jsonrpc: "2.0", id: message.id, result: REGION_ANSWER });
      } else {
        const resolve = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        resolve?.(message);
      }
      newline = text.indexOf("\n");
    }
    this.#rest = text;
  }

  #write(message: unknown): void {
    this.#child.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  nextId(): number {
    return this.#nextId++;
  }

  notify(message: Record<string, unknown>): void {
    this.#write(message);
  }

  request(message: { id: number }): Promise<Message> {
    return new Promise((resolve) => {
      this.#pending.set(message.id, resolve);
      this.#write(message);
    });
  }

  async close(): Promise<void> {
    this.#child.stdin?.end();
    await this.exited;
  }
}

function firstText(result: unknown): string {
  const content = (result as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return "";
  const block = content[0] as { type?: unknown; text?: unknown } | undefined;
  return block?.type === "text" && typeof block.text === "string" ? block.text : "";
}

/** The plain call and the flow of the raw driver, for one server. */
interface RawOperations {
  plain(): Promise<string>;
  flow(): Promise<string>;
}

async function rawOperations(impl: StdioImplementation, driver: LineDriver): Promise<RawOperations> {
  if (impl === "official-v1") {
    const init = await driver.request({
      jsonrpc: "2.0",
      id: driver.nextId(),
      method: "initialize",
      params: {
        protocolVersion: SESSION_PROTOCOL_VERSION,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: "bench-client", version: "1.0.0" },
      },
    } as { id: number });
    if (init.result === undefined) throw new Error(`official-v1: initialize failed: ${JSON.stringify(init)}`);
    driver.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = (name: string, args: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id: driver.nextId(),
      method: "tools/call",
      params: { name, arguments: { ...args } },
    });
    return {
      plain: async () => firstText((await driver.request(call(ECHO_TOOL, PLAIN_ARGUMENTS))).result),
      flow: async () => firstText((await driver.request(call(PROVISION_TOOL, PROVISION_ARGUMENTS))).result),
    };
  }
  return {
    plain: async () => firstText((await driver.request(plainCall(ECHO_TOOL, driver.nextId()))).result),
    async flow() {
      const first = await driver.request(provisionFirstLeg(driver.nextId()));
      const state = first.result?.requestState;
      const final = await driver.request(
        provisionRetryLeg(typeof state === "string" ? state : undefined, driver.nextId()),
      );
      return firstText(final.result);
    },
  };
}

const answer = () => ({ action: "accept" as const, content: { region: "eu-west-1" } });

/** A connected SDK client: runs one flow; `close` ends its server child. */
interface FlowClient {
  flow(): Promise<string>;
  close(): Promise<void>;
}

async function tsmcpClient(command: StdioCommand): Promise<FlowClient> {
  const { Client } = (await import(tsmcpEntry("client"))) as typeof ClientEntry;
  // The transport `Client.connect({ command })` would load, built here from the same entry: under
  // tsx, the runner's tsconfig paths would map that import of `tsmcp/stdio` to the sources.
  const { StdioClientTransport } = (await import(tsmcpEntry("stdio"))) as typeof StdioEntry;
  const client = await Client.connect(new StdioClientTransport(command), {
    elicitationCallback: answer,
    protocolVersion: BENCH_PROTOCOL_VERSION,
  });
  return {
    flow: async () => firstText(await client.callTool(PROVISION_TOOL, { ...PROVISION_ARGUMENTS })),
    close: () => client.close(),
  };
}

async function officialClient(command: StdioCommand): Promise<FlowClient> {
  const client = new OfficialClient(
    { name: "bench-client", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: BENCH_PROTOCOL_VERSION } },
    },
  );
  client.setRequestHandler("elicitation/create", async () => answer());
  await client.connect(new OfficialStdioClientTransport({ ...command, stderr: "inherit" }));
  return {
    flow: async () =>
      firstText(await client.callTool({ name: PROVISION_TOOL, arguments: { ...PROVISION_ARGUMENTS } })),
    close: () => client.close(),
  };
}

interface Entry {
  readonly label: string;
  readonly control: StdioControl;
  readonly run: () => Promise<string>;
  readonly expected: string;
  readonly block: number;
  readonly samplesUs: number[];
  serverCpuUs: number;
  clientCpuUs: number;
}

/**
 * Runs stage 11 within `bounds` per measured operation (warm-up, then blocks taking turns until each
 * has `maxSamples` or `maxMs` per operation has passed). Latencies in milliseconds; CPU per operation.
 */
export async function measureStdio(
  bounds: StdioConfig,
  log: (line: string) => void,
  cpuProfileDir?: string,
): Promise<StdioResults> {
  const spec = { plainTools: 1, mrtr: true } as const;
  const controls: StdioControl[] = [];
  const closers: (() => Promise<void>)[] = [];
  const entries: Entry[] = [];
  const byLabel = new Map<string, Entry>();
  const add = (entry: Omit<Entry, "samplesUs" | "serverCpuUs" | "clientCpuUs">) => {
    const full: Entry = { ...entry, samplesUs: [], serverCpuUs: 0, clientCpuUs: 0 };
    entries.push(full);
    byLabel.set(entry.label, full);
  };
  try {
    for (const impl of SERVERS) {
      const control = await openStdioControl({ impl, spec }, cpuProfileDir);
      controls.push(control);
      const driver = new LineDriver(control.command);
      closers.push(() => driver.close());
      await control.ready();
      const operations = await rawOperations(impl, driver);
      add({
        label: `plain ${impl}`,
        control,
        run: operations.plain,
        expected: PLAIN_ARGUMENTS.text,
        block: BLOCK.plain,
      });
      add({
        label: `flow ${impl}`,
        control,
        run: operations.flow,
        expected: PROVISIONED_TEXT,
        block: BLOCK.flow,
      });
    }
    for (const [who, connect] of [
      ["tsmcp", tsmcpClient],
      ["official", officialClient],
    ] as const) {
      const control = await openStdioControl({ impl: who, spec }, cpuProfileDir);
      controls.push(control);
      const client = await connect(control.command);
      closers.push(() => client.close());
      await control.ready();
      add({ label: `own ${who}`, control, run: client.flow, expected: PROVISIONED_TEXT, block: BLOCK.flow });
    }
    for (const entry of entries) {
      const text = await entry.run();
      if (text !== entry.expected)
        throw new Error(`stdio ${entry.label}: ended with ${JSON.stringify(text)}`);
      for (let i = 0; i < bounds.warmup; i++) await entry.run();
    }
    const deadline = process.hrtime.bigint() + BigInt(bounds.maxMs * entries.length) * 1_000_000n;
    let wrong = 0;
    while (
      entries.some((entry) => entry.samplesUs.length < bounds.maxSamples) &&
      process.hrtime.bigint() < deadline
    ) {
      for (const entry of entries) {
        if (entry.samplesUs.length >= bounds.maxSamples) continue;
        const serverBefore = await entry.control.cpuUs();
        const clientBefore = process.cpuUsage();
        for (let i = 0; i < entry.block && entry.samplesUs.length < bounds.maxSamples; i++) {
          const start = process.hrtime.bigint();
          if ((await entry.run()) !== entry.expected) wrong++;
          entry.samplesUs.push(elapsedUs(start));
        }
        const client = process.cpuUsage(clientBefore);
        entry.clientCpuUs += client.user + client.system;
        entry.serverCpuUs += (await entry.control.cpuUs()) - serverBefore;
      }
    }
    if (wrong > 0) throw new Error(`stdio: ${wrong} operations did not complete`);
    const result = (label: string): StdioResult => {
      const entry = byLabel.get(label) as Entry;
      const count = entry.samplesUs.length;
      if (count < (bounds.minSamples ?? 100)) {
        throw new Error(`stdio ${label}: only ${count} operations fit in the time bound`);
      }
      const latencyMs = toMs(summarize(Float64Array.from(entry.samplesUs)));
      const measured = {
        latencyMs,
        serverCpuUs: entry.serverCpuUs / count,
        clientCpuUs: entry.clientCpuUs / count,
      };
      log(
        `  ${label.padEnd(18)} median ${latencyMs.median.toFixed(3)} ms, p99 ${latencyMs.p99.toFixed(3)} ms ` +
          `(${count}); CPU per operation: server ${measured.serverCpuUs.toFixed(1)} us, client ${measured.clientCpuUs.toFixed(1)} us`,
      );
      return measured;
    };
    const plain = new Map(SERVERS.map((impl) => [impl, result(`plain ${impl}`)] as const));
    const flow = new Map(SERVERS.map((impl) => [impl, result(`flow ${impl}`)] as const));
    const ownClient = new Map<StdioOwnClient, StdioResult>([
      ["tsmcp", result("own tsmcp")],
      ["official", result("own official")],
      ["floor", flow.get("floor") as StdioResult],
    ]);
    return { plain, flow, ownClient };
  } finally {
    for (const close of closers) await close().catch(() => {});
    for (const control of controls) await control.close();
  }
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
