/**
 * A server built on the official 1.x SDK (`@modelcontextprotocol/sdk` 1.32.2 `McpServer`), as the
 * thousands of published 2025-era servers are, for the suites where the tsmcp `Client` is the
 * client. It speaks only the handshake era: `initialize`, then requests on a session. Its tools: a
 * plain `echo`; `pick_region`, which asks the client with `elicitation/create` on the tool call's
 * own stream; `summarize`, which asks for `sampling/createMessage` on the standalone GET stream (a
 * request related to no client request); `roots`, which asks `roots/list`; `count`, which reports
 * progress; `chatty`, which sends log messages for its request; `announce`, which logs at debug and
 * error to the session (filtered by `logging/setLevel`); `wait`, which runs until the client cancels
 * it; `seen`, which tells what this server instance saw (cancellations, roots changes). Plus a
 * prompt and a resource template.
 *
 * Served three ways: {@link serveV1Http} in this process on 127.0.0.1 (stateful: one session per
 * `initialize`, with `Mcp-Session-Id`; stateless: a fresh server and transport per request, no back-
 * channel), and over stdio as a real child process:
 * `node --import tsx test/interop/official-v1-server.ts`.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

/** The name the fixture gives itself in `serverInfo`. */
export const V1_SERVER_NAME = "official-v1-fixture";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Builds one 1.x `McpServer` with the fixture's tools, prompt and resource template. */
export function createV1Server(): McpServer {
  const mcp = new McpServer(
    { name: V1_SERVER_NAME, version: "1.32.2" },
    { capabilities: { logging: {} }, instructions: "A 1.x SDK server for the interop suites." },
  );
  mcp.registerTool(
    "echo",
    { description: "Echoes its text", inputSchema: { text: z.string() } },
    async ({ text: value }) => text(`echo: ${value}`),
  );
  mcp.registerTool(
    "pick_region",
    { description: "Asks where a database lives", inputSchema: { name: z.string() } },
    async ({ name }, extra) => {
      const answer = await mcp.server.elicitInput(
        {
          mode: "form",
          message: `Which region should ${name} live in?`,
          requestedSchema: {
            type: "object",
            properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } },
            required: ["region"],
          },
        },
        { relatedRequestId: extra.requestId },
      );
      if (answer.action !== "accept") return text(`${name}: ${answer.action}`);
      return text(`${name} lives in ${String(answer.content?.region)}`);
    },
  );
  mcp.registerTool(
    "summarize",
    { description: "Asks the client's model for a summary", inputSchema: { topic: z.string() } },
    async ({ topic }) => {
      // No relatedRequestId: the request goes on the standalone GET stream.
      const reply = await mcp.server.createMessage({
        messages: [{ role: "user", content: { type: "text", text: `Summarize ${topic}.` } }],
        maxTokens: 50,
      });
      const said = reply.content.type === "text" ? reply.content.text : `[${reply.content.type}]`;
      return text(`${reply.model} said: ${said}`);
    },
  );
  mcp.registerTool("roots", { description: "Lists the client's roots" }, async (extra) => {
    const { roots } = await mcp.server.listRoots(undefined, { relatedRequestId: extra.requestId });
    return text(roots.map((root) => root.uri).join(", "));
  });
  mcp.registerTool("count", { description: "Counts to 3, reporting progress" }, async (extra) => {
    const progressToken = extra._meta?.progressToken;
    for (let progress = 1; progress <= 3; progress++) {
      if (progressToken !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken, progress, total: 3 },
        });
      }
    }
    return text("counted to 3");
  });
  mcp.registerTool("chatty", { description: "Logs two messages, then answers" }, async (extra) => {
    for (const [level, data] of [
      ["info", "starting"],
      ["warning", "almost done"],
    ] as const) {
      await extra.sendNotification({
        method: "notifications/message",
        params: { level, logger: "chatty", data },
      });
    }
    return text("chatted");
  });
  mcp.registerTool("announce", { description: "Logs at debug and at error" }, async (extra) => {
    for (const [level, data] of [
      ["debug", "debug note"],
      ["error", "error note"],
    ] as const) {
      await mcp.server.sendLoggingMessage({ level, logger: "announce", data }, extra.sessionId);
    }
    // A request on the same stream as the log messages: once the client answers, it has read them.
    await mcp.server.listRoots();
    return text("announced");
  });
  const seen: string[] = [];
  mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    seen.push("roots changed");
  });
  mcp.registerTool("wait", { description: "Runs until cancelled (5 s at most)" }, async (extra) => {
    const progressToken = extra._meta?.progressToken;
    if (progressToken !== undefined) {
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress: 0 },
      });
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5_000);
      extra.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        seen.push(`cancelled: ${String(extra.signal.reason ?? "")}`);
        resolve();
      });
    });
    return text("waited");
  });
  mcp.registerTool("seen", { description: "What this server saw" }, async () => text(seen.join("; ")));
  mcp.registerPrompt(
    "greeting",
    { description: "Greets someone", argsSchema: { name: z.string() } },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Say hello to ${name}.` } }],
    }),
  );
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

/** A running in-process HTTP server. */
export interface V1HttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** How many sessions it holds now (stateful mode). */
  readonly sessions: number;
  close(): Promise<void>;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        resolve(body === "" ? undefined : JSON.parse(body));
      } catch (error) {
        reject(error);
      }
    });
    req.on("error", reject);
  });
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

/**
 * Serves the fixture over Streamable HTTP on 127.0.0.1 (a free port), the way the 1.x SDK's
 * examples wire it. `stateful`: `initialize` opens a session (`Mcp-Session-Id`), later requests,
 * the GET stream and DELETE name it, an unknown id gets 404. Stateless: each POST gets a fresh
 * server and transport, GET and DELETE get 405.
 */
export async function serveV1Http(mode: "stateful" | "stateless"): Promise<V1HttpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (req, res) => {
    try {
      const body = req.method === "POST" ? await readJson(req) : undefined;
      if (mode === "stateless") {
        if (req.method !== "POST") return refuse(res, 405, "Method not allowed.");
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const server = createV1Server();
        res.on("close", () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        return await transport.handleRequest(req, res, body);
      }
      const id = req.headers["mcp-session-id"];
      const known = typeof id === "string" ? sessions.get(id) : undefined;
      if (known !== undefined) return await known.handleRequest(req, res, body);
      if (typeof id === "string") return refuse(res, 404, "Session not found");
      const isInitialize =
        typeof body === "object" && body !== null && (body as { method?: unknown }).method === "initialize";
      if (req.method !== "POST" || !isInitialize)
        return refuse(res, 400, "Bad Request: No valid session ID provided");
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await createV1Server().connect(transport);
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) refuse(res, 500, error instanceof Error ? error.message : String(error));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    get sessions() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await createV1Server().connect(new StdioServerTransport());
}
