// A server as a user of the installed package writes it (ESM): one tool that asks a question
// (an MRTR round, spec: basic/patterns/mrtr), served over Streamable HTTP on a free loopback port.
// Prints the endpoint's URL on its first line of stdout, then serves until SIGTERM.
import { serve } from "tsmcp/node";
import {
  elicitationRequest,
  inputRequired,
  MCPServer,
  preloadJsonSchemaEngines,
  readElicitation,
} from "tsmcp/server";

// Raw JSON Schemas: load their engines once at start-up (a server of zod schemas never loads them).
await preloadJsonSchemaEngines();

const REGION = { type: "object", properties: { region: { type: "string" } }, required: ["region"] };

const mcp = new MCPServer("consumer", { version: "1.0.0" });
mcp.tool(
  "provision",
  { inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  async ({ name }, ctx) => {
    const answer = readElicitation(ctx.inputResponses?.region, REGION);
    if (answer.status !== "accepted") {
      const ask = elicitationRequest({ message: "Which region?", requestedSchema: REGION });
      return inputRequired({ inputRequests: { region: ask }, requestState: "provision-v1" });
    }
    return `Provisioned ${name} in ${answer.content.region}`;
  },
);

const handle = await serve(mcp, { host: "127.0.0.1", port: 0 });
process.stdout.write(`${handle.url.href}\n`);
process.once("SIGTERM", () => void handle.close().then(() => mcp.close()));
