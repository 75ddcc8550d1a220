/**
 * The edge server on Deno: `Deno.serve` hands every request to the web-standard handler.
 *
 * Run it: `STATE_KEY=... PORT=8787 deno run --allow-net --allow-env examples/edge/deno.ts` (it prints
 * the endpoint's URL).
 */
import { createEdgeServer } from "./provisioning.js";

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const handler = createEdgeServer(Deno.env.get("STATE_KEY") ?? "").httpHandler();
Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(Deno.env.get("PORT") ?? 8787),
    onListen: ({ port }) => console.log(`listening http://127.0.0.1:${port}/mcp`),
  },
  handler,
);
