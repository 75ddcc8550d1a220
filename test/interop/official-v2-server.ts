/**
 * A server built on the official 2.4.0 SDK (`@modelcontextprotocol/server`), for the suites where
 * the tsmcp `Client` is the client, served in this process on 127.0.0.1 in one of two modes:
 *
 * - `both-eras`: `createMcpHandler(factory)` on its defaults, which answers `server/discover` at
 *   2026-07-28 and serves 2025-era requests through its stateless legacy fallback;
 * - `handshake-only`: the sessionful `WebStandardStreamableHTTPServerTransport`, one `McpServer`
 *   per `initialize`, with `supportedProtocolVersions` limited to the 2025 revisions: the classic
 *   wiring, which knows no `server/discover`.
 *
 * The same factory builds both: `echo`, and `pick_region`, which asks where a database lives: as
 * an `inputRequired(...)` result at 2026-07-28, with `ctx.mcpReq.elicitInput` over the back-channel
 * on a 2025-era session.
 *
 * Over stdio, as a real child process, `serveStdio(factory)` serves both eras, the connection's
 * first message choosing: `node --import tsx test/interop/official-v2-server.ts`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server as NodeHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

/** The name the fixture gives itself in `serverInfo`. */
export const V2_SERVER_NAME = "official-v2-fixture";

/** The 2025-era revisions the handshake-only mode accepts. */
const HANDSHAKE_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"];

const Region = z.object({ region: z.enum(["eu-west-1", "us-east-1"]) });

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Builds the fixture's `McpServer` for one era. */
function buildServer(
  era: "modern" | "legacy",
  options: { supportedProtocolVersions?: string[] } = {},
): McpServer {
  const mcp = new McpServer({ name: V2_SERVER_NAME, version: "2.4.0" }, options);
  mcp.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: z.object({ text: z.string() }) },
    async ({ text: value }) => text(`echo: ${value}`),
  );
  mcp.registerTool(
    "pick_region",
    { description: "Asks where a database lives", inputSchema: z.object({ name: z.string() }) },
    async ({ name }, ctx) => {
      const message = `Which region should ${name} live in?`;
      if (era === "modern") {
        const answer = acceptedContent(ctx.mcpReq.inputResponses, "region", Region);
        if (answer === undefined) {
          return inputRequired({
            inputRequests: { region: inputRequired.elicit({ message, requestedSchema: Region }) },
          });
        }
        return text(`${name} lives in ${answer.region} (${era})`);
      }
      const answer = await ctx.mcpReq.elicitInput({
        mode: "form",
        message,
        requestedSchema: {
          type: "object",
          properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } },
          required: ["region"],
        },
      });
      if (answer.action !== "accept") return text(`${name}: ${answer.action}`);
      return text(`${name} lives in ${String(answer.content?.region)} (${era})`);
    },
  );
  return mcp;
}

/** A running in-process HTTP server. */
export interface V2HttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** The JSON-RPC methods it received, in order (notifications included). */
  readonly methods: readonly string[];
  close(): Promise<void>;
}

/** The handshake-only endpoint: one sessionful transport and server per `initialize`. */
function handshakeOnlyFetch(): { fetch: (request: Request) => Promise<Response>; close(): Promise<void> } {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return {
    async fetch(request) {
      const id = request.headers.get("mcp-session-id");
      const known = id === null ? undefined : sessions.get(id);
      if (known !== undefined) return known.handleRequest(request);
      if (id !== null) {
        return Response.json(
          { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
          {
            status: 404,
          },
        );
      }
      const transport: WebStandardStreamableHTTPServerTransport =
        new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => {
            sessions.set(sessionId, transport);
          },
          onsessionclosed: (sessionId) => {
            sessions.delete(sessionId);
          },
        });
      await buildServer("legacy", { supportedProtocolVersions: HANDSHAKE_VERSIONS }).connect(transport);
      return transport.handleRequest(request);
    },
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
    },
  };
}

/** Serves the fixture on 127.0.0.1 (a free port) in `mode`. */
export async function serveV2Http(mode: "both-eras" | "handshake-only"): Promise<V2HttpServer> {
  const methods: string[] = [];
  let inner: { fetch: (request: Request) => Promise<Response>; close(): Promise<void> };
  if (mode === "both-eras") {
    const handler = createMcpHandler(({ era }) => buildServer(era));
    inner = { fetch: (request) => handler.fetch(request), close: () => handler.close() };
  } else {
    inner = handshakeOnlyFetch();
  }
  const listener = getRequestListener(
    async (request: Request) => {
      if (request.method === "POST") {
        const body = (await request.clone().json()) as { method?: unknown };
        if (typeof body?.method === "string") methods.push(body.method);
      }
      return inner.fetch(request);
    },
    { overrideGlobalObjects: false },
  );
  const http: NodeHttpServer = createServer((incoming, outgoing) => {
    void listener(incoming, outgoing);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    methods,
    async close() {
      await inner.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  serveStdio(({ era }) => buildServer(era));
}
