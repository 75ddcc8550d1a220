/**
 * Adapters from the official clients to `InteropPeer`: the 1.x SDK (`@modelcontextprotocol/sdk`)
 * and the 2.x SDK (`@modelcontextprotocol/client`). Each declares the elicitation capability and
 * answers with `answerElicitation`; `close` ends the client (and its transport).
 */
import { fileURLToPath } from "node:url";
import { Client as ClientV2, type ClientOptions as ClientV2Options } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport as TransportV1 } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { answerElicitation, type InteropPeer } from "./cases.js";

/** The repository root: the stdio suites start the fixture server from there. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** How a stdio suite starts the fixture server: a real child process. */
export const STDIO_SERVER = {
  command: process.execPath,
  args: ["--import", "tsx", "test/interop/fixture-server.ts"],
  cwd: ROOT,
};

/** A connected client as the cases see it, plus how to end it and what it negotiated. */
export interface ConnectedPeer extends InteropPeer {
  readonly protocolVersion: string | undefined;
  readonly serverName: string | undefined;
  close(): Promise<void>;
}

/** Connects the official 1.x client over `transport`. */
export async function connectV1(
  transport: TransportV1,
  protocolVersion: () => string | undefined,
): Promise<ConnectedPeer> {
  const asked: string[] = [];
  const client = new ClientV1(
    { name: "interop-v1", version: "1.0.0" },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) =>
    answerElicitation(asked, request.params.message),
  );
  await client.connect(transport);
  return {
    asked,
    get protocolVersion() {
      return protocolVersion();
    },
    serverName: client.getServerVersion()?.name,
    listTools: () => client.listTools(),
    callTool: async (name, args, onProgress) =>
      (await client.callTool(
        { name, arguments: args },
        undefined,
        onProgress === undefined ? undefined : { onprogress: onProgress },
      )) as { content: unknown[]; isError?: boolean },
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    readResource: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}

/** Connects the official 2.x client over `transport`; `options` adds e.g. `versionNegotiation`. */
export async function connectV2(
  transport: Parameters<ClientV2["connect"]>[0],
  options: ClientV2Options = {},
): Promise<ConnectedPeer> {
  const asked: string[] = [];
  const client = new ClientV2(
    { name: "interop-v2", version: "1.0.0" },
    { ...options, capabilities: { elicitation: {} } },
  );
  client.setRequestHandler("elicitation/create", (request) =>
    answerElicitation(asked, request.params.message),
  );
  await client.connect(transport);
  return {
    asked,
    get protocolVersion() {
      return client.getNegotiatedProtocolVersion();
    },
    serverName: client.getServerVersion()?.name,
    listTools: () => client.listTools(),
    callTool: (name, args, onProgress) =>
      client.callTool(
        { name, arguments: args },
        onProgress === undefined ? undefined : { onprogress: onProgress },
      ),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    readResource: (uri) => client.readResource({ uri }),
    close: () => client.close(),
  };
}
