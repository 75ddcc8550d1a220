/**
 * One `MCPServer` mounted in each web framework tsmcp has an adapter for: Express, Fastify, Hono,
 * and a plain `node:http` server. Each function builds the app exactly as docs/transports.md shows it.
 *
 * Run it: `npm run example -- frameworks [express|fastify|hono|node]` serves the `echo` tool on
 * http://127.0.0.1:3000/mcp with the framework named (Express by default) until Ctrl-C.
 */
import { createServer } from "node:http";
import { getRequestListener } from "@hono/node-server";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { createNodeListener, mcpExpress, mcpFastify } from "tsmcp/node";
import { MCPServer } from "tsmcp/server";
import { createHttpHandler } from "tsmcp/transport";
import * as z from "zod";

/** The server every app serves: one `echo` tool. */
export function createEchoServer(): MCPServer {
  const mcp = new MCPServer("frameworks");
  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
  return mcp;
}

/** Express: the handler on every method of `/mcp`; a body `express.json()` read is used as parsed. */
export function expressApp(mcp: MCPServer) {
  const app = express();
  app.all("/mcp", express.json({ limit: "4mb" }), mcpExpress(mcp, { cors: true }));
  return app;
}

/** Fastify: the plugin registers `/mcp` (every method) and reads its own bodies. */
export async function fastifyApp(mcp: MCPServer) {
  const app = Fastify();
  await app.register(mcpFastify(mcp, { cors: true }));
  return app;
}

/** Hono: the web-standard handler takes Hono's raw `Request` unread. */
export function honoApp(mcp: MCPServer) {
  const handler = createHttpHandler(mcp, { cors: true });
  const app = new Hono();
  app.all("/mcp", (c) => handler(c.req.raw));
  return app;
}

/** A plain `node:http` server: the listener answers every path, so route before it. */
export function nodeServer(mcp: MCPServer) {
  const listener = createNodeListener(mcp, { cors: true });
  const server = createServer((req, res) => {
    if (req.url?.split("?")[0] === "/mcp") listener(req, res);
    else res.writeHead(404).end();
  });
  return server;
}

/** A browser app on another site: CORS for its one origin, with an extra header and credentials. */
export function browserHandler(mcp: MCPServer) {
  return createHttpHandler(mcp, {
    allowedOrigins: ["https://app.example.com"],
    cors: {
      allowedHeaders: ["X-Trace"],
      exposedHeaders: ["X-Request-Id"],
      maxAgeMs: 600_000,
      credentials: true,
    },
  });
}

export async function main(args: string[]): Promise<void> {
  const mcp = createEchoServer();
  const framework = args[0] ?? "express";
  const port = 3000;
  if (framework === "fastify") {
    await (await fastifyApp(mcp)).listen({ port, host: "127.0.0.1" });
  } else {
    const server =
      framework === "hono"
        ? createServer(getRequestListener(honoApp(mcp).fetch))
        : framework === "node"
          ? nodeServer(mcp)
          : createServer(expressApp(mcp));
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  }
  console.log(`${framework}: MCP on http://127.0.0.1:${port}/mcp`);
}
