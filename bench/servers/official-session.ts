/**
 * The official SDK as it is deployed for the 2025-11-25 handshake era: `@modelcontextprotocol/sdk`
 * 1.x (the release line that speaks 2025-11-25 and that 2025-era servers run), its
 * `StreamableHTTPServerTransport` in stateful mode, routed the way its README's "with session
 * management" example does: `initialize` without a session id builds an `McpServer` with the tools
 * and a transport whose `sessionIdGenerator` mints a UUID; every later request goes to the
 * transport of its `Mcp-Session-Id` (404 for an unknown one). The transport answers with JSON
 * (`enableJsonResponse: true`) rather than its default SSE stream, so all three servers of the
 * session row answer the same JSON.
 *
 * Served on `node:http` (the README mounts it on express; the routing is the same), with the
 * transport reading the body itself. Version 2.4.0 serves 2025-era openings too (its `legacy`
 * option), but the 1.x stateful transport is what handshake-era servers with sessions deploy.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  BENCH_SERVER_NAME,
  BENCH_SERVER_VERSION,
  ECHO_TOOL,
  echoInput,
  fillerInput,
  fillerToolNames,
  type ServerSpec,
} from "../fixtures/tools.js";
import type { RunningServer } from "./official.js";

/** The 1.x `McpServer` with the plain tools of `spec` (the MRTR tool has no 2025-era equivalent). */
export function buildOfficialV1Server(spec: ServerSpec): McpServer {
  const server = new McpServer({ name: BENCH_SERVER_NAME, version: BENCH_SERVER_VERSION });
  for (const name of fillerToolNames(spec)) {
    server.registerTool(name, { inputSchema: fillerInput.shape }, async ({ id }) => ({
      content: [{ type: "text", text: `${name}: ${id}` }],
    }));
  }
  server.registerTool(ECHO_TOOL, { inputSchema: echoInput.shape }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

function refuse(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** Serves the official 1.x stateful Streamable HTTP server for `spec` on 127.0.0.1 (a free port). */
export async function serveOfficialSession(spec: ServerSpec): Promise<RunningServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = transports.get(sessionId);
      if (transport === undefined) return refuse(res, 404, -32001, "Session not found");
      return transport.handleRequest(req, res);
    }
    if (req.method !== "POST") return refuse(res, 400, -32000, "Bad Request: No valid session ID provided");
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
      onsessionclosed: (id) => {
        transports.delete(id);
      },
    });
    await buildOfficialV1Server(spec).connect(transport);
    return transport.handleRequest(req, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, -32603, "Internal error");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
