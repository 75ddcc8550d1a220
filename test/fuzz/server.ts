/**
 * The server the fuzz properties attack: a zod tool, a raw-JSON-Schema tool with a backtracking
 * pattern, a hand-built MRTR tool, a resolver tool, a prompt and a resource template. Run as a
 * script, it serves itself over stdio.
 */
import * as z from "zod";
import { elicit, inputRequired, MCPServer, resolver } from "../../packages/tsmcp/src/server/index.js";
import { elicitationRequest } from "../../packages/tsmcp/src/server/input-required.js";
import { silentLogger } from "../../packages/tsmcp/src/server/logger.js";
import { serveStdio } from "../../packages/tsmcp/src/transport/stdio/server.js";

/** A new fuzz server that logs nothing. */
export function fuzzServer(): MCPServer {
  const mcp = new MCPServer("fuzz", { logger: silentLogger });
  mcp.tool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => text);
  mcp.tool(
    "pattern",
    {
      inputSchema: {
        type: "object",
        properties: { text: { type: "string", pattern: "^(a+)+$" } },
        required: ["text"],
      },
    },
    () => "matched",
  );
  mcp.tool("confirm", {}, (_args, ctx) =>
    ctx.inputResponses?.ok === undefined
      ? inputRequired({
          inputRequests: {
            ok: elicitationRequest({
              message: "Proceed?",
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
            }),
          },
          requestState: "confirm-v1",
        })
      : "confirmed",
  );
  const region = resolver("region", () => elicit("Which region?", z.object({ region: z.string() })));
  mcp.tool(
    "provision",
    { inputSchema: z.object({ name: z.string() }), resolve: { region } },
    ({ name }, { resolved: { region: answer } }) => `Provisioned ${name} in ${answer.region}`,
  );
  mcp.prompt("brief", { argsSchema: z.object({ topic: z.string() }) }, ({ topic }) => `Brief on ${topic}`);
  mcp.resource("notes://{id}", {}, ({ id }) => `note ${id}`);
  return mcp;
}

if (process.argv.includes("--stdio")) serveStdio(fuzzServer());
