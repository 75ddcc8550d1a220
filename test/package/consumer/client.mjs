// A client as a user of the installed package writes it (ESM): calls the tool at the URL given as
// the first argument, answers its question, and prints the final text.
import { Client } from "tsmcp/client";

const client = await Client.connect(process.argv[2], {
  elicitationCallback: async () => ({ action: "accept", content: { region: "eu-west-1" } }),
});
const result = await client.callTool("provision", { name: "orders" });
await client.close();
process.stdout.write(`${result.content.map((block) => block.text).join("")}\n`);
