/**
 * Shared fixtures of the resolver tool tests (not part of the package): a real `Client` connected
 * to an `MCPServer` in memory or over Streamable HTTP on 127.0.0.1 (closed when the test ends), a
 * record of every `tools/call` leg the server receives, and elicitation callbacks that answer by key.
 */
import { onTestFinished } from "vitest";
import type { ElicitationCallback } from "../../client/callbacks.js";
import { Client, type ClientOptions } from "../../client/client.js";
import type { ElicitResult } from "../../protocol/schema/input.js";
import { serve } from "../../transport/http/node/node.js";
import type { MCPServer } from "./server.js";

/** How the client reaches the server. */
export type Via = "memory" | "http";

/** Both ways, for `describe.each`. */
export const BOTH_TRANSPORTS: readonly Via[] = ["memory", "http"];

/** Connects a real client to `mcp` in memory or over HTTP on an ephemeral loopback port. */
export async function connect(mcp: MCPServer, via: Via, options: ClientOptions = {}): Promise<Client> {
  let target: MCPServer | URL = mcp;
  if (via === "http") {
    const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
    onTestFinished(() => handle.close());
    target = handle.url;
  }
  const client = await Client.connect(target, options);
  onTestFinished(() => client.close());
  return client;
}

/** One `tools/call` leg as the server received it. */
export interface Leg {
  readonly tool: string;
  /** The keys of its `inputResponses` (empty without). */
  readonly answered: readonly string[];
  /** Whether it echoed a `requestState`. */
  readonly echoedState: boolean;
}

/** Records every `tools/call` leg `mcp` receives, through its public middleware hook. */
export function recordLegs(mcp: MCPServer): Leg[] {
  const legs: Leg[] = [];
  mcp.use(async (request, next) => {
    if (request.method === "tools/call") {
      const params = request.params as { name?: string; inputResponses?: object; requestState?: string };
      legs.push({
        tool: String(params.name),
        answered: Object.keys(params.inputResponses ?? {}),
        echoedState: typeof params.requestState === "string",
      });
    }
    return next(request);
  });
  return legs;
}

/**
 * An elicitation callback answering each key with `answers[key]` (content to accept, or an
 * `ElicitResult` as is), declining keys it has no answer for, and noting each question it is asked.
 */
export function answering(answers: Record<string, Record<string, unknown> | ElicitResult>) {
  const asked: string[] = [];
  const callback: ElicitationCallback = (_params, context) => {
    asked.push(context.key);
    const answer = answers[context.key];
    if (answer === undefined) return { action: "decline" };
    return "action" in answer && typeof answer.action === "string"
      ? (answer as ElicitResult)
      : ({ action: "accept", content: answer } as ElicitResult);
  };
  return { asked, callback };
}

/** The text of a tool result's content. */
export function textOf(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");
}
