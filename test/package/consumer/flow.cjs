// The same server and client from CommonJS through require(), which loads tsmcp's ES modules on
// Node versions that support require(esm) (20.19+, 22.12+), through the `default` export
// condition. Runs both in one process and prints the final text.
const { serve } = require("tsmcp/node");
const { elicitationRequest, inputRequired, MCPServer, readElicitation } = require("tsmcp/server");
const { Client } = require("tsmcp/client");

const REGION = { type: "object", properties: { region: { type: "string" } }, required: ["region"] };

async function main() {
  const mcp = new MCPServer("consumer-cjs", { version: "1.0.0" });
  mcp.tool(
    "provision",
    { inputSchema: { type: "object", properties: { name: { type: "string" } } } },
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
  try {
    const client = await Client.connect(handle.url.href, {
      elicitationCallback: async () => ({ action: "accept", content: { region: "eu-west-1" } }),
    });
    const result = await client.callTool("provision", { name: "orders" });
    await client.close();
    process.stdout.write(`${result.content.map((block) => block.text).join("")}\n`);
  } finally {
    await handle.close();
    await mcp.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exitCode = 1;
});
