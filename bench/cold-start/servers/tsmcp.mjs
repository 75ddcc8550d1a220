// tsmcp over stdio, as a user runs it from the build: MCPServer, one zod tool, serveStdio.
import { MCPServer } from "tsmcp/server";
import { serveStdio } from "tsmcp/stdio";
import * as z from "zod";

const mcp = new MCPServer("cold", { version: "1.0.0" });
mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
serveStdio(mcp);
