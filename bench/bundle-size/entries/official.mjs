// The same minimal edge server on the official SDK 2.4.0: McpServer, one zod tool, its web-standard
// handler (`createMcpHandler`, which builds the server from the factory per request).
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "edge", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
});

export default { fetch: handler };
