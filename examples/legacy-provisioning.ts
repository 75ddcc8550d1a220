/**
 * The provisioning server as the servers deployed today are built: on the official 1.x SDK
 * (`@modelcontextprotocol/sdk` `McpServer`), handshake era only, over stateful Streamable HTTP.
 * Its `provision` tool asks the region with `elicitation/create`, a request from the server to the
 * client on the back-channel, and waits for the answer. `npm start -- --server legacy` runs the
 * tsmcp `Client` against it; the same `elicitationCallback` that answers `inputRequests` at
 * 2026-07-28 answers this request.
 *
 * Run it alone: `npm run example -- legacy-provisioning` (127.0.0.1:$PORT/mcp, default port 3000).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod";
import { REGIONS } from "./provisioning.js";

/** Builds one handshake-era provisioning server (one per session). */
export function createLegacyProvisioningServer(): McpServer {
  const mcp = new McpServer({ name: "provisioning-1.x", version: "1.0.0" });
  mcp.registerTool(
    "provision",
    { description: "Provisions a database; asks the user for the region", inputSchema: { name: z.string() } },
    async ({ name }, extra) => {
      // The same question as the 2026-07-28 server's, asked on the tool call's own stream.
      const answer = await mcp.server.elicitInput(
        {
          mode: "form",
          message: "Which region should the database live in?",
          requestedSchema: {
            type: "object",
            properties: { region: { type: "string", enum: [...REGIONS], default: "eu-west-1" } },
            required: ["region"],
          },
        },
        { relatedRequestId: extra.requestId },
      );
      const region = answer.action === "accept" ? answer.content?.region : undefined;
      if (typeof region !== "string") {
        return { content: [{ type: "text", text: `Not provisioned: ${answer.action}` }], isError: true };
      }
      return { content: [{ type: "text", text: `Provisioned ${name} in ${region}` }] };
    },
  );
  return mcp;
}

/** A running server. */
export interface LegacyProvisioningHandle {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

function badRequest(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Serves the handshake-era provisioning server on 127.0.0.1 (`port` 0: a free one), wired as the
 * 1.x SDK's examples wire it: `initialize` opens a session, the rest names it with `Mcp-Session-Id`.
 */
export async function serveLegacyProvisioning(port = 0): Promise<LegacyProvisioningHandle> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    try {
      const body = req.method === "POST" ? await readBody(req) : undefined;
      const id = req.headers["mcp-session-id"];
      const session = typeof id === "string" ? sessions.get(id) : undefined;
      if (session !== undefined) return await session.handleRequest(req, res, body);
      if (typeof id === "string") return badRequest(res, 404, "Session not found");
      if ((body as { method?: unknown } | undefined)?.method !== "initialize") {
        return badRequest(res, 400, "Bad Request: No valid session ID provided");
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await createLegacyProvisioningServer().connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) badRequest(res, 500, error instanceof Error ? error.message : String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const address = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${address.port}/mcp`),
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** `npm run example -- legacy-provisioning`: serves until interrupted. */
export async function main(): Promise<void> {
  const handle = await serveLegacyProvisioning(Number(process.env.PORT ?? 3000));
  console.log(`handshake-era provisioning server (official 1.x SDK) on ${handle.url}`);
}
