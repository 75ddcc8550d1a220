/**
 * A 2025-11-25 server built on the official 1.x SDK (`@modelcontextprotocol/sdk` 1.32.2 `McpServer`)
 * that offers resource subscriptions (`resources: { subscribe: true, listChanged: true }`) and tool
 * list changes, for the suites where the tsmcp `Client` listens to a handshake-era server. It keeps
 * the URIs the client subscribed to with `resources/subscribe` (dropped by `resources/unsubscribe`).
 * Its tools: `touch {uri, inline?}` sends `notifications/resources/updated` for `uri` when it is
 * subscribed (on the standalone GET stream, or with `inline` on the tool call's own stream);
 * `add_tool {name}` registers a tool, which sends `notifications/tools/list_changed`;
 * `subscribed` answers the subscribed URIs, comma-separated.
 *
 * Served over stdio as a real child process (`node --import tsx
 * test/interop/official-v1-subscriptions-server.ts`) or over stateful Streamable HTTP in this
 * process ({@link serveV1SubscriptionsHttp}).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Builds one 1.x `McpServer` that honours `resources/subscribe`. */
export function createV1SubscriptionsServer(): McpServer {
  const mcp = new McpServer(
    { name: "official-v1-subscriptions", version: "1.32.2" },
    { capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } } },
  );
  const subscribed = new Set<string>();
  mcp.server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  mcp.registerTool(
    "touch",
    { inputSchema: { uri: z.string(), inline: z.boolean().optional() } },
    async ({ uri, inline }, extra) => {
      if (!subscribed.has(uri)) return text("not subscribed");
      const notification = { method: "notifications/resources/updated" as const, params: { uri } };
      if (inline === true) await extra.sendNotification(notification);
      else await mcp.server.sendResourceUpdated({ uri });
      return text("sent");
    },
  );
  mcp.registerTool("add_tool", { inputSchema: { name: z.string() } }, async ({ name }) => {
    mcp.registerTool(name, {}, async () => text(name));
    return text("added");
  });
  mcp.registerTool("subscribed", {}, async () => text([...subscribed].join(",")));
  mcp.registerResource(
    "note",
    new ResourceTemplate("notes://{id}", { list: undefined }),
    { mimeType: "text/plain" },
    async (uri, { id }) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: `note ${String(id)}` }],
    }),
  );
  return mcp;
}

/** A running stateful HTTP server. */
export interface V1SubscriptionsHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  close(): Promise<void>;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      resolve(body === "" ? undefined : JSON.parse(body));
    });
    req.on("error", reject);
  });
}

/**
 * Serves the fixture over stateful Streamable HTTP on 127.0.0.1 (a free port): `initialize` opens
 * a session (`Mcp-Session-Id`); later requests, the GET stream and DELETE name it. With
 * `holdGetStream`, a GET is answered only once that promise resolves (a slow standalone stream).
 */
export async function serveV1SubscriptionsHttp(
  options: { holdGetStream?: Promise<void> } = {},
): Promise<V1SubscriptionsHttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (req.method === "GET") await options.holdGetStream;
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known !== undefined) return await known.handleRequest(req, res, body);
    if (typeof id === "string") {
      res.writeHead(404).end();
      return;
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
    await createV1SubscriptionsServer().connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await createV1SubscriptionsServer().connect(new StdioServerTransport());
}
