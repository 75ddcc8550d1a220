/**
 * A client that calls the edge server's `provision` tool and answers its question, on any runtime
 * with `fetch` (or a `fetch` of your own, such as a Cloudflare service binding's). `Client` runs
 * the multi-round-trip loop: it answers each `inputRequests` through `elicitationCallback` and
 * retries with the answers and the `requestState`.
 *
 * Run it: `bun examples/edge/client.ts http://127.0.0.1:8787/mcp`, or with `deno run --allow-net`.
 */
import { Client } from "tsmcp/client";
import { HttpClientTransport } from "tsmcp/transport";

/** Provisions `name` on the server at `url`, answering the region question with `region`. */
export async function provision(
  url: string,
  name: string,
  region: string,
  fetchFn?: typeof fetch,
): Promise<string> {
  const transport = new HttpClientTransport(url, fetchFn === undefined ? {} : { fetch: fetchFn });
  const client = await Client.connect(transport, {
    elicitationCallback: async () => ({ action: "accept", content: { region } }),
  });
  try {
    const result = await client.callTool("provision", { name });
    const [first] = result.content;
    return first?.type === "text" ? first.text : JSON.stringify(result);
  } finally {
    await client.close();
  }
}
