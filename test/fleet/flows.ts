/**
 * MRTR flows against the fleet, from concurrent clients of the public API: each client connects
 * once and runs flows one after another; a flow calls `ask-twice` or `ask-three-times` and the
 * client answers every question through its `elicitationCallback` (or, for the official 1.x
 * client, its elicitation request handler). A flow fails when the call throws or its result is not
 * the expected text. With `retryInterrupted`, a call whose instance died under it (the JSON-RPC
 * error the server answers on resumption, or a 502/503 from the load balancer or from an instance
 * whose Redis is restarting) is sent again, as that error asks, after {@link RETRY_AFTER_MS} (the
 * `Retry-After` the instances send with a 503, which the official 1.x client does not wait out by
 * itself), at most {@link MAX_RETRIES} times; those flows are counted as retried.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client, type ElicitationCallback } from "tsmcp/client";

/** What a run of flows gave. */
export interface FlowOutcome {
  readonly completed: string[];
  readonly failed: { flow: string; error: string }[];
  /** Flows sent again after their instance died under them (each also in `completed` or `failed`). */
  readonly retried: string[];
}

/** How many times one flow is sent again at most. */
export const MAX_RETRIES = 3;
/** Milliseconds before a flow is sent again: the instances' `Retry-After` (2 s) with a 503. */
const RETRY_AFTER_MS = 2_000;

/** The failures that ask for the request to be sent again: the call's instance died under it. */
const INTERRUPTED = /stopped before it answered|\b50[23]\b|Service Unavailable|Bad Gateway/i;

/** The tool of flow number `index`, and how many questions it asks. */
export function toolOf(index: number): { tool: string; questions: number } {
  return index % 2 === 0 ? { tool: "ask-twice", questions: 2 } : { tool: "ask-three-times", questions: 3 };
}

/** Answers each question (`<flow>: first?`, `<flow>: second, after first?`, ...) with its ordinal. */
const answerEach: ElicitationCallback = (params) => ({
  action: "accept",
  content: { value: ordinalOf(params.message) },
});

function ordinalOf(message: string): string {
  return /: (\w+)/.exec(message)?.[1] ?? "?";
}

/** A connected client of either kind, as a flow sees it. */
interface FlowClient {
  callTool(name: string, args: Record<string, unknown>): Promise<{ content: unknown[]; isError?: boolean }>;
  readonly era: string | undefined;
  close(): Promise<void>;
}

function expectedText(flow: string, questions: number): string {
  const answers = ["first", "second", "third"].slice(0, questions);
  return `${flow}: ${answers.join(", ")}`;
}

async function runOne(
  client: FlowClient,
  flow: string,
  index: number,
  outcome: FlowOutcome,
  retryInterrupted: boolean,
) {
  const { tool, questions } = toolOf(index);
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await client.callTool(tool, { flow });
      const text = result.content
        .map((block) =>
          (block as { type?: string }).type === "text" ? (block as { text: string }).text : "",
        )
        .join("");
      if (result.isError === true || text !== expectedText(flow, questions)) {
        outcome.failed.push({ flow, error: `unexpected result ${JSON.stringify(result)}` });
      } else {
        outcome.completed.push(flow);
      }
      return;
    } catch (error) {
      if (retryInterrupted && attempt < MAX_RETRIES && INTERRUPTED.test(String(error))) {
        if (attempt === 0) outcome.retried.push(flow);
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_MS));
        continue;
      }
      outcome.failed.push({ flow, error: String(error) });
      return;
    }
  }
}

/** Connects a tsmcp client. */
async function connectTsmcp(url: string, clientIndex: number, era: RunFlowsOptions["protocolVersion"]) {
  const client = await Client.connect(url, {
    elicitationCallback: answerEach,
    protocolVersion: era ?? "2026-07-28",
    clientInfo: { name: `fleet-client-${clientIndex}`, version: "1.0.0" },
  });
  return {
    callTool: (name: string, args: Record<string, unknown>) => client.callTool(name, args),
    era: client.protocolVersion,
    close: () => client.close(),
  } satisfies FlowClient;
}

/** Connects the official 1.x client (the handshake era, over Streamable HTTP). */
async function connectSdkV1(url: string, clientIndex: number): Promise<FlowClient> {
  const client = new ClientV1(
    { name: `fleet-sdk-client-${clientIndex}`, version: "1.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => ({
    action: "accept",
    content: { value: ordinalOf(request.params.message) },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return {
    callTool: async (name, args) =>
      (await client.callTool({ name, arguments: args })) as { content: unknown[]; isError?: boolean },
    era: transport.protocolVersion ?? "2025-03-26",
    close: () => client.close(),
  };
}

/** Options of {@link runFlows}. */
export interface RunFlowsOptions {
  /** Flow ids are `<prefix>-<n>`. */
  readonly prefix: string;
  /** Clients running flows at once. */
  readonly clients: number;
  /** Runs flows until this many were started, or until `keepGoing` answers false. */
  readonly count?: number;
  readonly keepGoing?: () => boolean;
  /** `"legacy"` handshakes (2025-11-25 sessions); default `"2026-07-28"`. */
  readonly protocolVersion?: "2026-07-28" | "legacy";
  /** Called after each finished flow. */
  readonly onFlowDone?: (outcome: FlowOutcome) => void;
  /** `"sdk-v1"`: the official 1.x client (always the handshake era); default tsmcp's. */
  readonly client?: "tsmcp" | "sdk-v1";
  /** Sends a call whose instance died under it again (see the module's comment). Default false. */
  readonly retryInterrupted?: boolean;
}

/** Runs flows from `clients` concurrent clients against `url`. */
export async function runFlows(url: string, options: RunFlowsOptions): Promise<FlowOutcome> {
  const outcome: FlowOutcome = { completed: [], failed: [], retried: [] };
  let next = 0;
  const take = () => {
    if (options.count !== undefined && next >= options.count) return undefined;
    if (options.keepGoing !== undefined && !options.keepGoing()) return undefined;
    return next++;
  };
  const worker = async (clientIndex: number) => {
    let client: FlowClient;
    try {
      client =
        options.client === "sdk-v1"
          ? await connectSdkV1(url, clientIndex)
          : await connectTsmcp(url, clientIndex, options.protocolVersion);
    } catch (error) {
      outcome.failed.push({ flow: `${options.prefix}-client-${clientIndex}`, error: String(error) });
      return;
    }
    try {
      const era = client.era;
      const legacy = options.protocolVersion === "legacy" || options.client === "sdk-v1";
      if (legacy !== (era !== "2026-07-28")) {
        outcome.failed.push({ flow: `${options.prefix}-client-${clientIndex}`, error: `spoke ${era}` });
        return;
      }
      for (let index = take(); index !== undefined; index = take()) {
        await runOne(
          client,
          `${options.prefix}-c${clientIndex}-${index}`,
          index,
          outcome,
          options.retryInterrupted === true,
        );
        options.onFlowDone?.(outcome);
      }
    } finally {
      await client.close();
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => worker(i)));
  return outcome;
}
