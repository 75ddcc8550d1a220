/**
 * The edge server as a Cloudflare Worker (workerd, with the `nodejs_compat` compatibility flag for
 * `node:crypto`): the module's `fetch` is the web-standard handler. Code generation from strings is
 * forbidden there, so raw JSON Schemas are interpreted (`jsonSchemaValidator: "auto"` notices).
 * The handler is built once per isolate, on the first request, because its settings come from `env`:
 * the shared key (`wrangler secret put STATE_KEY`) and the worker's public hostname (a request
 * naming another `Host` gets 403). Handshake-era (2025-11-25) clients are served without sessions,
 * the handler's default on Workers (`legacy: "stateless"`): plain calls work, and a tool that asks
 * such a client something answers -32600 saying so; 2026-07-28 clients get every question. To ask
 * handshake-era clients too, serve their sessions from Durable Objects: see `worker-sessions.ts`.
 */
import type { HttpHandler } from "tsmcp/transport";
import { createEdgeServer } from "./provisioning.js";

/** The bindings this worker reads. */
export interface Env {
  readonly STATE_KEY: string;
  /** The hostname clients reach this worker at, such as `mcp.example.com`. */
  readonly MCP_HOSTNAME: string;
}

let handler: HttpHandler | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= createEdgeServer(env.STATE_KEY).httpHandler({ allowedHosts: [env.MCP_HOSTNAME] });
    return handler(request);
  },
};
