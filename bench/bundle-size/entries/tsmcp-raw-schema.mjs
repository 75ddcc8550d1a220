// The tsmcp edge server with its tool's input given as a raw JSON Schema instead of zod: the
// JSON Schema engines are then part of what the server uses.
import { MCPServer } from "tsmcp/server";

const mcp = new MCPServer("edge");
mcp.tool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  async ({ text }) => String(text),
);

export default { fetch: mcp.httpHandler() };
