/**
 * MRTR flows against the fleet, from concurrent clients of the public API: each client connects
 * once and runs flows one after another; a flow calls `ask-twice` or `ask-three-times` and the
 * client answers every question through its `elicitationCallback`. A flow fails when the call
 * throws or its result is not the expected text.
 */
import { Client, type ElicitationCallback } from "tsmcp/client";

/** What a run of flows gave. */
export interface FlowOutcome {
  readonly completed: string[];
  readonly failed: { flow: string; error: string }[];
}

/** The tool of flow number `index`, and how many questions it asks. */
export function toolOf(index: number): { tool: string; questions: number } {
  return index % 2 === 0 ? { tool: "ask-twice", questions: 2 } : { tool: "ask-three-times", questions: 3 };
}

/** Answers each question (`<flow>: first?`, `<flow>: second, after first?`, ...) with its ordinal. */
const answerEach: ElicitationCallback = (params) => ({
  action: "accept",
  content: { value: /: (\w+)/.exec(params.message)?.[1] ?? "?" },
});

function expectedText(flow: string, questions: number): string {
  const answers = ["first", "second", "third"].slice(0, questions);
  return `${flow}: ${answers.join(", ")}`;
}

async function runOne(client: Client, flow: string, index: number, outcome: FlowOutcome) {
  const { tool, questions } = toolOf(index);
  try {
    const result = await client.callTool(tool, { flow });
    const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    if (result.isError === true || text !== expectedText(flow, questions)) {
      outcome.failed.push({ flow, error: `unexpected result ${JSON.stringify(result)}` });
    } else {
      outcome.completed.push(flow);
    }
  } catch (error) {
    outcome.failed.push({ flow, error: String(error) });
  }
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
}

/** Runs flows from `clients` concurrent clients against `url`. */
export async function runFlows(url: string, options: RunFlowsOptions): Promise<FlowOutcome> {
  const outcome: FlowOutcome = { completed: [], failed: [] };
  let next = 0;
  const take = () => {
    if (options.count !== undefined && next >= options.count) return undefined;
    if (options.keepGoing !== undefined && !options.keepGoing()) return undefined;
    return next++;
  };
  const worker = async (clientIndex: number) => {
    let client: Client;
    try {
      client = await Client.connect(url, {
        elicitationCallback: answerEach,
        protocolVersion: options.protocolVersion ?? "2026-07-28",
        clientInfo: { name: `fleet-client-${clientIndex}`, version: "1.0.0" },
      });
    } catch (error) {
      outcome.failed.push({ flow: `${options.prefix}-client-${clientIndex}`, error: String(error) });
      return;
    }
    try {
      const era = client.protocolVersion;
      if ((options.protocolVersion === "legacy") !== (era !== "2026-07-28")) {
        outcome.failed.push({ flow: `${options.prefix}-client-${clientIndex}`, error: `spoke ${era}` });
        return;
      }
      for (let index = take(); index !== undefined; index = take()) {
        await runOne(client, `${options.prefix}-c${clientIndex}-${index}`, index, outcome);
        options.onFlowDone?.(outcome);
      }
    } finally {
      await client.close();
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, i) => worker(i)));
  return outcome;
}
