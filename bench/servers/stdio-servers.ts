/**
 * The servers of the stdio stage (11), each serving the shared tools on this process's stdin and
 * stdout until stdin ends: tsmcp's `serveStdio` (the built `tsmcp/stdio` entry when current), the
 * official SDK 2.4.0's `serveStdio` (`@modelcontextprotocol/server/stdio`, both eras), the official
 * SDK 1.x's `StdioServerTransport` (2025-11-25: the question goes to the client as an in-band
 * `elicitation/create` request, its equivalent of the two-round flow), and the floor: a bare
 * line-delimited JSON loop (read a line, `JSON.parse`, answer, `JSON.stringify`), no checks at all.
 */
import { McpServer as V1McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport as V1StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { acceptedContent, inputRequired, McpServer } from "@modelcontextprotocol/server";
import { serveStdio as serveOfficialStdio } from "@modelcontextprotocol/server/stdio";
import type * as StdioEntry from "../../packages/tsmcp/src/stdio/index.js";
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
import { tsmcpEntry } from "../lib/build.js";
import { floorAnswer } from "./floor.js";
import { createOfficialCodec } from "./official.js";

/** Which stdio server to run. */
export type StdioImplementation = "tsmcp" | "official" | "official-v1" | "floor";

/** Serves tsmcp's `MCPServer` for `spec` with `serveStdio`; resolves when stdin ends. */
export async function serveTsmcpStdio(spec: ServerSpec): Promise<void> {
  const { serveStdio } = (await import(tsmcpEntry("stdio"))) as typeof StdioEntry;
  const { createTsmcpServer } = await import("./tsmcp.js");
  await serveStdio(createTsmcpServer(spec)).closed;
}

/** Serves the official 2.4.0 `McpServer` for `spec` with its `serveStdio`; resolves when stdin ends. */
export function serveOfficialStdioServer(spec: ServerSpec): Promise<void> {
  const codec = createOfficialCodec();
  const build = () => {
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
  };
  return new Promise((resolve) => {
    serveOfficialStdio(build);
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
}

/** Serves the official 1.x `McpServer` for `spec` on its `StdioServerTransport`; resolves when it closes. */
export async function serveOfficialV1Stdio(spec: ServerSpec): Promise<void> {
  const server = new V1McpServer({ name: BENCH_SERVER_NAME, version: BENCH_SERVER_VERSION });
  for (const name of fillerToolNames(spec)) {
    server.registerTool(name, { inputSchema: fillerInput.shape }, async ({ id }) => ({
      content: [{ type: "text", text: `${name}: ${id}` }],
    }));
  }
  server.registerTool(ECHO_TOOL, { inputSchema: echoInput.shape }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  if (spec.mrtr) {
    server.registerTool(PROVISION_TOOL, { inputSchema: provisionInput.shape }, async ({ name }, extra) => {
      const reply = await server.server.elicitInput(
        { mode: "form", ...REGION_QUESTION },
        { relatedRequestId: extra.requestId },
      );
      const answer = regionAnswer.safeParse(reply.content);
      const region = reply.action === "accept" && answer.success ? answer.data.region : "nowhere";
      return { content: [{ type: "text", text: `Provisioned ${name} in ${region}` }] };
    });
  }
  const transport = new V1StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
  await server.connect(transport);
  await closed;
}

/** The floor: splits stdin on "\n", answers each line with {@link floorAnswer}; resolves when stdin ends. */
export function serveFloorStdio(): Promise<void> {
  return new Promise((resolve) => {
    let rest = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      let text = rest + chunk;
      let newline = text.indexOf("\n");
      while (newline !== -1) {
        const line = text.slice(0, newline);
        text = text.slice(newline + 1);
        if (line.length > 0) process.stdout.write(`${floorAnswer(line)}\n`);
        newline = text.indexOf("\n");
      }
      rest = text;
    });
    process.stdin.once("end", () => resolve());
  });
}

/** Runs the stdio server `impl` for `spec`; resolves when its stdin has ended. */
export function serveOverStdio(impl: StdioImplementation, spec: ServerSpec): Promise<void> {
  switch (impl) {
    case "tsmcp":
      return serveTsmcpStdio(spec);
    case "official":
      return serveOfficialStdioServer(spec);
    case "official-v1":
      return serveOfficialV1Stdio(spec);
    case "floor":
      return serveFloorStdio();
  }
}
