/**
 * The tsmcp side of the benchmarks: the shared tools on tsmcp's high-level `MCPServer`, which
 * compiles each tool's schema at registration and seals `requestState` by default (AES-256-GCM,
 * here with its default ephemeral key), served by tsmcp's own Streamable HTTP adapter (`serve`).
 *
 * It runs the built package (`dist/`, what a user installs) when a build is present and newer than
 * every file in `src/`, else the sources through tsx; the choice is printed to stderr once.
 */
import type * as NodeEntry from "../../packages/tsmcp/src/node/index.js";
import type * as ServerEntry from "../../packages/tsmcp/src/server/index.js";
import type { HttpServerHandle } from "../../packages/tsmcp/src/transport/http/node/node.js";
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
  provisionState,
  REGION_KEY,
  REGION_QUESTION,
  regionAnswer,
  type ServerSpec,
} from "../fixtures/tools.js";
import { isBuildCurrent, tsmcpEntry } from "../lib/build.js";

// Specifiers in variables: the type checker reads the sources' types, the runtime may load dist/.
const fromDist = isBuildCurrent();
const serverEntry = tsmcpEntry("server");
const nodeEntry = tsmcpEntry("node");
const { elicitationRequest, inputRequired, MCPServer, readElicitation } = (await import(
  serverEntry
)) as typeof ServerEntry;
const { serve } = (await import(nodeEntry)) as typeof NodeEntry;
process.stderr.write(`[bench] tsmcp runs from ${fromDist ? "dist/ (the build)" : "src/ (through tsx)"}\n`);

const ASK_REGION = elicitationRequest({ mode: "form", ...REGION_QUESTION });

/** Builds the tsmcp server for `spec`; `options` are added to its `MCPServer` options. */
export function createTsmcpServer(
  spec: ServerSpec,
  options: Omit<ServerEntry.MCPServerOptions, "version"> = {},
): ServerEntry.MCPServer {
  const mcp = new MCPServer(BENCH_SERVER_NAME, { ...options, version: BENCH_SERVER_VERSION });
  for (const name of fillerToolNames(spec)) {
    mcp.tool(name, { inputSchema: fillerInput }, ({ id }) => `${name}: ${id}`);
  }
  mcp.tool(ECHO_TOOL, { inputSchema: echoInput }, ({ text }) => text);
  if (spec.mrtr) {
    mcp.tool(PROVISION_TOOL, { inputSchema: provisionInput }, ({ name }, ctx) => {
      const answer = readElicitation(ctx.inputResponses?.[REGION_KEY], regionAnswer);
      if (answer.status !== "accepted") {
        return inputRequired({
          inputRequests: { [REGION_KEY]: ASK_REGION },
          requestState: provisionState(name),
        });
      }
      const state = JSON.parse(ctx.requestState ?? "{}") as Partial<ProvisionState>;
      return `Provisioned ${state.name} in ${answer.content.region}`;
    });
  }
  return mcp;
}

/** Serves the tsmcp server for `spec` on 127.0.0.1 (a free port) with tsmcp's Node adapter. */
export function serveTsmcp(spec: ServerSpec): Promise<HttpServerHandle> {
  return serve(createTsmcpServer(spec), { host: "127.0.0.1", port: 0 });
}
