/**
 * The official 1.x client (`@modelcontextprotocol/sdk`) over stdio against a tsmcp `MCPServer` in
 * a real child process: its first message, `initialize`, puts the loop in the handshake era.
 */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interopCases } from "./cases.js";
import { type ConnectedPeer, connectV1, STDIO_SERVER } from "./peers.js";

let peer: ConnectedPeer;

describe("the official 1.x client over stdio", () => {
  beforeAll(async () => {
    peer = await connectV1(new StdioClientTransport({ ...STDIO_SERVER, stderr: "inherit" }), () => undefined);
  });

  afterAll(async () => {
    await peer?.close();
  });

  it("completes the handshake", () => {
    expect(peer.serverName).toBe("tsmcp-interop");
  });
  interopCases(() => peer);
});
