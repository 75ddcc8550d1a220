// tsmcp over stdio with the tool's input given as a raw JSON Schema (the JSON Schema engines load).
import { MCPServer } from "tsmcp/server";
import { serveStdio } from "tsmcp/stdio";

const mcp = new MCPServer("cold", { version: "1.0.0" });
mcp.tool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  async ({ text }) => String(text),
);
serveStdio(mcp);
