// A minimal edge server on tsmcp: MCPServer, one zod tool, the web-standard handler.
import { MCPServer } from "tsmcp/server";
import * as z from "zod";

const mcp = new MCPServer("edge");
mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);

export default { fetch: mcp.httpHandler() };
