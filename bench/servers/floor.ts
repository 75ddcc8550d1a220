/**
 * The floor: a bare `node:http` JSON-RPC handler that does no validation at all. It reads the
 * body, `JSON.parse`s it, answers `tools/call` for the shared tools (the same result shapes the
 * SDKs send, `provision`'s state as plain base64url JSON) and `JSON.stringify`s the response. No
 * header, envelope, schema or state checks: the least any MCP server on Node.js must do.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  acceptedRegion,
  BENCH_SERVER_NAME,
  BENCH_SERVER_VERSION,
  PROVISION_TOOL,
  REGION_KEY,
  REGION_QUESTION,
} from "../fixtures/tools.js";
import type { RunningServer } from "./official.js";

interface RawRequest {
  id?: unknown;
  method?: unknown;
  params?: {
    name?: unknown;
    arguments?: Record<string, unknown>;
    inputResponses?: unknown;
    requestState?: unknown;
  };
}

const SERVER_INFO_META = {
  "io.modelcontextprotocol/serverInfo": { name: BENCH_SERVER_NAME, version: BENCH_SERVER_VERSION },
};

/** The floor's answer to one parsed request (no validation: whatever it is given, it answers). */
export function floorResult(request: RawRequest): Record<string, unknown> {
  const params = request.params ?? {};
  if (params.name === PROVISION_TOOL) {
    const region = acceptedRegion(params.inputResponses);
    if (region === undefined) {
      return {
        resultType: "input_required",
        inputRequests: {
          [REGION_KEY]: { method: "elicitation/create", params: { mode: "form", ...REGION_QUESTION } },
        },
        requestState: Buffer.from(JSON.stringify({ name: params.arguments?.name })).toString("base64url"),
        _meta: SERVER_INFO_META,
      };
    }
    const state = JSON.parse(Buffer.from(String(params.requestState), "base64url").toString()) as {
      name?: string;
    };
    return {
      resultType: "complete",
      content: [{ type: "text", text: `Provisioned ${state.name} in ${region}` }],
      _meta: SERVER_INFO_META,
    };
  }
  return {
    resultType: "complete",
    content: [{ type: "text", text: String(params.arguments?.text ?? "") }],
    _meta: SERVER_INFO_META,
  };
}

/** The floor's answer to one request body (a JSON-RPC request), as response text. */
export function floorAnswer(body: string): string {
  const request = JSON.parse(body) as RawRequest;
  return JSON.stringify({ jsonrpc: "2.0", id: request.id, result: floorResult(request) });
}

function handle(incoming: IncomingMessage, outgoing: ServerResponse): void {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    let answer: string;
    try {
      answer = floorAnswer(Buffer.concat(chunks).toString("utf8"));
    } catch {
      outgoing.writeHead(400).end();
      return;
    }
    outgoing.writeHead(200, { "content-type": "application/json" }).end(answer);
  });
}

/** Serves the floor on 127.0.0.1 (a free port). */
export async function serveFloor(): Promise<RunningServer> {
  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
