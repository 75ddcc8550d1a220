/**
 * The edge server on Bun: `Bun.serve` hands every request to the web-standard handler.
 *
 * Run it: `STATE_KEY=... PORT=8787 bun examples/edge/bun.ts` (it prints the endpoint's URL).
 */
import { createEdgeServer } from "./provisioning.js";

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Promise<Response> }): {
    readonly port: number;
  };
};
declare const process: { readonly env: Record<string, string | undefined> };

const handler = createEdgeServer(process.env.STATE_KEY ?? "").httpHandler();
const server = Bun.serve({ hostname: "127.0.0.1", port: Number(process.env.PORT ?? 8787), fetch: handler });
console.log(`listening http://127.0.0.1:${server.port}/mcp`);
