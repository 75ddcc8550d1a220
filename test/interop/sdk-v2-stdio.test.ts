/**
 * The official 2.4.0 client (`@modelcontextprotocol/client`) over stdio against a tsmcp `MCPServer`
 * in a real child process: on its default settings its first message is `initialize` and the loop
 * serves the handshake era; with `versionNegotiation: { mode: "auto" }` it probes with
 * `server/discover` (on a sibling process) and the loop it then starts serves 2026-07-28 (progress
 * is left to the HTTP suite there: see `CaseOptions.progress`).
 */
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { interopCases } from "./cases.js";
import { type ConnectedPeer, connectV2, STDIO_SERVER } from "./peers.js";

describe("the official 2.4.0 client over stdio on its default settings", () => {
  let peer: ConnectedPeer;

  beforeAll(async () => {
    peer = await connectV2(new StdioClientTransport({ ...STDIO_SERVER, stderr: "inherit" }));
  });

  afterAll(async () => {
    await peer?.close();
  });

  it("completes the handshake at 2025-11-25", () => {
    expect(peer.serverName).toBe("tsmcp-interop");
    expect(peer.protocolVersion).toBe("2025-11-25");
  });
  interopCases(() => peer);
});

describe("the official 2.4.0 client over stdio with versionNegotiation auto", () => {
  let peer: ConnectedPeer;

  beforeAll(async () => {
    peer = await connectV2(new StdioClientTransport({ ...STDIO_SERVER, stderr: "inherit" }), {
      versionNegotiation: { mode: "auto" },
    });
  });

  afterAll(async () => {
    await peer?.close();
  });

  it("picks 2026-07-28", () => {
    expect(peer.protocolVersion).toBe("2026-07-28");
  });
  interopCases(() => peer, { progress: false });
});
