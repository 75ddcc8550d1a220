/**
 * The official SDK side of the benchmarks (`@modelcontextprotocol/server` 2.4.0): the shared tools
 * on its high-level `McpServer`, built by the per-request factory of `createMcpHandler` (its
 * 2026-07-28 stateless entry, `legacy: "reject"`), with `requestState` signed by its
 * `createRequestStateCodec` (HMAC-SHA256) and checked by the `requestState.verify` hook.
 *
 * Node serving: the official server package ships a web-standard `fetch` handler and no Node
 * adapter (its docs point to a separate `@modelcontextprotocol/node` package), so it is mounted
 * with `@hono/node-server`'s `getRequestListener` (what a Node user of a web-standard handler reaches for), behind the
 * Host-header check its docs ask for when mounting the handler bare.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server as NodeHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import {
  acceptedContent,
  createMcpHandler,
  createRequestStateCodec,
  hostHeaderValidationResponse,
  inputRequired,
  localhostAllowedHostnames,
  type McpHandlerRequestOptions,
  type McpHttpHandler,
  McpServer,
  type RequestStateCodec,
} from "@modelcontextprotocol/server";
import {
  BENCH_SERVER_NAME,
  BENCH_SERVER_VERSION,
  ECHO_TOOL,
  echoInput,
  fillerInput,
  fillerToolNames,
  PROVISION_TOOL,
  type ProvisionState,
  provisionInput,
  REGION_KEY,
  REGION_QUESTION,
  regionAnswer,
  type ServerSpec,
} from "../fixtures/tools.js";

/** A running HTTP server. */
export interface RunningServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** The official codec the benchmarks use: a 32-byte random key, the default ten-minute expiry. */
export function createOfficialCodec(): RequestStateCodec<ProvisionState> {
  return createRequestStateCodec<ProvisionState>({ key: randomBytes(32) });
}

/** Builds one `McpServer` with the tools of `spec`; `createMcpHandler` calls this per request. */
export function buildOfficialServer(spec: ServerSpec, codec: RequestStateCodec<ProvisionState>): McpServer {
  const server = new McpServer(
    { name: BENCH_SERVER_NAME, version: BENCH_SERVER_VERSION },
    { requestState: { verify: codec.verify } },
  );
  for (const name of fillerToolNames(spec)) {
    server.registerTool(name, { inputSchema: fillerInput }, async ({ id }) => ({
      content: [{ type: "text", text: `${name}: ${id}` }],
    }));
  }
  server.registerTool(ECHO_TOOL, { inputSchema: echoInput }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  if (spec.mrtr) {
    server.registerTool(PROVISION_TOOL, { inputSchema: provisionInput }, async ({ name }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, REGION_KEY, regionAnswer);
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { [REGION_KEY]: inputRequired.elicit({ ...REGION_QUESTION }) },
          requestState: await codec.mint({ name }),
        });
      }
      const state = ctx.mcpReq.requestState<ProvisionState>();
      return { content: [{ type: "text", text: `Provisioned ${state?.name} in ${answer.region}` }] };
    });
  }
  return server;
}

/** The official SDK's web-standard handler for `spec`. */
export function createOfficialHandler(spec: ServerSpec): McpHttpHandler {
  const codec = createOfficialCodec();
  return createMcpHandler(() => buildOfficialServer(spec, codec), { legacy: "reject" });
}

/** Listens with a web-standard handler on 127.0.0.1 (a free port), through `@hono/node-server`. */
export async function listenFetch(
  fetchHandler: (request: Request) => Response | Promise<Response>,
): Promise<RunningServer> {
  const listener = getRequestListener(fetchHandler, { overrideGlobalObjects: false });
  const server: NodeHttpServer = createServer((incoming, outgoing) => {
    void listener(incoming, outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The official SDK's server for `spec` as mounted here: the Host-header check its docs ask for in
 * front of a bare handler, then `createMcpHandler`'s `fetch`.
 */
export function createOfficialFetch(
  spec: ServerSpec,
): (request: Request, options?: McpHandlerRequestOptions) => Promise<Response> {
  const handler = createOfficialHandler(spec);
  const allowed = localhostAllowedHostnames();
  return async (request, options) =>
    hostHeaderValidationResponse(request, allowed) ?? handler.fetch(request, options);
}

/** Serves the official SDK's server for `spec` on 127.0.0.1 (a free port). */
export function serveOfficial(spec: ServerSpec): Promise<RunningServer> {
  const officialFetch = createOfficialFetch(spec);
  return listenFetch((request) => officialFetch(request));
}
