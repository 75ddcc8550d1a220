/**
 * The official 1.x client (`@modelcontextprotocol/sdk`) over Streamable HTTP against a tsmcp
 * `MCPServer` on 127.0.0.1: it speaks the 2025-11-25 handshake era with an `Mcp-Session-Id`.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";
import { interopCases } from "./cases.js";
import { createInteropServer } from "./fixture-server.js";
import { type ConnectedPeer, connectV1 } from "./peers.js";

let server: HttpServerHandle;
let peer: ConnectedPeer;

describe("the official 1.x client over Streamable HTTP", () => {
  beforeAll(async () => {
    server = await serve(createInteropServer(), { host: "127.0.0.1", port: 0 });
    const transport = new StreamableHTTPClientTransport(server.url);
    peer = await connectV1(transport, () => transport.protocolVersion);
  });

  afterAll(async () => {
    await peer?.close();
    await server?.close();
  });

  it("completes the handshake at 2025-11-25 with a session", () => {
    expect(peer.serverName).toBe("tsmcp-interop");
    expect(peer.protocolVersion).toBe("2025-11-25");
  });
  interopCases(() => peer);
});
