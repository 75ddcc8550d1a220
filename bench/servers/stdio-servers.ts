/**
 * The servers of the stdio stage (11), each serving the shared tools on this process's stdin and
 * stdout until stdin ends: tsmcp's `serveStdio` (the built `tsmcp/stdio` entry when current), the
 * official SDK 2.4.0's `serveStdio` (`@modelcontextprotocol/server/stdio`, both eras), the official
 * SDK 1.x's `StdioServerTransport` (2025-11-25: the question goes to the client as an in-band
 * `elicitation/create` request, its equivalent of the two-round flow), and the floor: a bare
 * line-delimited JSON loop (read a line, `JSON.parse`, answer, `JSON.stringify`), no checks at all.
 */
import { StdioServerTransport as V1StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { serveStdio as serveOfficialStdio } from "@modelcontextprotocol/server/stdio";
import type * as StdioEntry from "../../packages/tsmcp/src/stdio/index.js";
import {
  PROVISION_TOOL,
  provisionInput,
  REGION_QUESTION,
  regionAnswer,
  type ServerSpec,
} from "../fixtures/tools.js";
import { tsmcpEntry } from "../lib/build.js";
import { floorAnswer } from "./floor.js";
import { buildOfficialServer, createOfficialCodec } from "./official.js";
import { buildOfficialV1Server } from "./official-session.js";

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
  const build = () => buildOfficialServer(spec, codec);
  return new Promise((resolve) => {
    serveOfficialStdio(build);
    process.stdin.once("end", () => resolve());
    process.stdin.once("close", () => resolve());
  });
}

/** Serves the official 1.x `McpServer` for `spec` on its `StdioServerTransport`; resolves when it closes. */
export async function serveOfficialV1Stdio(spec: ServerSpec): Promise<void> {
  const server = buildOfficialV1Server(spec);
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
