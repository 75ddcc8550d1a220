// A server with one tool answering one `tools/call` over the in-memory transport, built from the
// package's dist; prints the call's outcome and the packages the process loaded as one JSON line.
// argv[2]: "zod" (a zod tool) or "raw" (a raw JSON Schema tool); argv[3]: the tool's arguments.
import { Client } from "tsmcp/client";
import { MCPServer } from "tsmcp/server";
import * as z from "zod";

const [kind, args] = process.argv.slice(2);
const mcp = new MCPServer("loading", { version: "1.0.0" });
if (kind === "zod")
  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => text);
else
  mcp.tool(
    "echo",
    {
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", minLength: 1 } },
        required: ["text"],
      },
    },
    async ({ text }) => String(text),
  );
const client = await Client.connect(mcp);
let outcome;
try {
  outcome = { result: await client.callTool("echo", JSON.parse(args)) };
} catch (error) {
  outcome = { error: { code: error.code, message: error.message } };
}
await client.close();
// Let the hook thread's last messages arrive before reading them.
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify({ ...outcome, loaded: [...globalThis.loadedSpecifiers].sort() }));
