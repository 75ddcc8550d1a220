// A TypeScript consumer of the installed package, only type-checked (`tsc --noEmit`), under
// `moduleResolution` node16, nodenext and bundler: every entry point resolves through `exports`
// to its declarations, and the types a user touches line up.
import { Client } from "tsmcp/client";
import { type HttpServerHandle, serve } from "tsmcp/node";
import { elicitationRequest, inputRequired, MCPServer, readElicitation } from "tsmcp/server";
import type { StateStores } from "tsmcp/state";
import { StdioClientTransport } from "tsmcp/stdio";
import {
  activeTraceFields,
  SEMCONV,
  type TelemetryOption,
  type TraceLogFields,
  useOpenTelemetry,
} from "tsmcp/telemetry";
import { createHttpHandler } from "tsmcp/transport";
import type { CallToolResult, ElicitRequestFormParams, ElicitResult, InputRequiredResult } from "tsmcp/types";
import { createRedisState, type RedisState } from "tsmcp-redis";

const REGION: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: { region: { type: "string" } },
  required: ["region"],
};

export async function run(): Promise<string> {
  const mcp = new MCPServer("consumer", { version: "1.0.0" });
  mcp.tool("provision", { inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = readElicitation(ctx.inputResponses?.region, REGION);
    if (answer.status !== "accepted") {
      const ask = elicitationRequest({ message: "Which region?", requestedSchema: REGION });
      const asked: InputRequiredResult = inputRequired({
        inputRequests: { region: ask },
        requestState: "v1",
      });
      return asked;
    }
    return "done";
  });
  const handle: HttpServerHandle = await serve(mcp, { host: "127.0.0.1", port: 0 });
  const accept = async (): Promise<ElicitResult> => ({ action: "accept", content: { region: "eu-west-1" } });
  const client = await Client.connect(handle.url.href, { elicitationCallback: accept });
  const result: CallToolResult = await client.callTool("provision", {});
  await client.close();
  await handle.close();
  const handler: (request: Request) => Promise<Response> = createHttpHandler(mcp);
  void handler;
  void StdioClientTransport;
  const first = result.content[0];
  return first?.type === "text" ? first.text : "";
}

/** A replica on Redis state: the stores fit the handler's `state` and MCPServer's `replayCache`. */
export async function replicaOnRedis(url: string): Promise<{ handle: HttpServerHandle; redis: RedisState }> {
  const redis = await createRedisState({ url, keyPrefix: "consumer:" });
  const state: StateStores = redis;
  const mcp = new MCPServer("redis-consumer", { version: "1.0.0", replayCache: redis.replayCache });
  const handle = await serve(mcp, { host: "127.0.0.1", port: 0, state });
  return { handle, redis };
}

/**
 * The telemetry options and entry without `@opentelemetry/api` installed: the option's types and
 * `tsmcp/telemetry`'s declarations name none of its types.
 */
export async function withTelemetryOptions(tracerProvider: {
  getTracer(name: string, version?: string): unknown;
}): Promise<TraceLogFields | undefined> {
  const telemetry: TelemetryOption = { tracerProvider };
  const mcp = new MCPServer("traced", { version: "1.0.0", telemetry });
  const client = await Client.connect(mcp, { telemetry: false });
  await client.close();
  useOpenTelemetry(null);
  const method: string = SEMCONV.methodName;
  void method;
  return activeTraceFields();
}
