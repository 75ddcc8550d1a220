/**
 * A client process for Bun and Deno: provisions `orders` on the server at `$TSMCP_URL`, answering
 * the question with `eu-west-1`, and prints the tool's text as one JSON line.
 */
import { provision } from "../../examples/edge/client.js";

const runtime = globalThis as {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined> };
};
const url = runtime.Deno?.env.get("TSMCP_URL") ?? runtime.process?.env.TSMCP_URL ?? "";
console.log(JSON.stringify({ text: await provision(url, "orders", "eu-west-1") }));
