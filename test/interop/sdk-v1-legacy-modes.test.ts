/**
 * The HTTP handler's `legacy` option as the official 1.x client sees it: `"stateless"` completes
 * the handshake without a session and serves plain requests, but has no back-channel to ask the
 * client anything (a tool that asks fails with -32600 naming that and what to do instead); `"reject"` serves 2026-07-28 only, so the handshake fails with -32022.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";
import { createInteropServer } from "./fixture-server.js";
import { type ConnectedPeer, connectV1 } from "./peers.js";

describe('legacy: "stateless"', () => {
  let server: HttpServerHandle;
  let transport: StreamableHTTPClientTransport;
  let peer: ConnectedPeer;

  beforeAll(async () => {
    server = await serve(createInteropServer(), { host: "127.0.0.1", port: 0, legacy: "stateless" });
    transport = new StreamableHTTPClientTransport(server.url);
    peer = await connectV1(transport, () => transport.protocolVersion);
  });

  afterAll(async () => {
    await peer?.close();
    await server?.close();
  });

  it("completes the handshake without a session id and serves plain requests", async () => {
    expect(peer.protocolVersion).toBe("2025-11-25");
    expect(transport.sessionId).toBeUndefined();
    expect((await peer.callTool("echo", { text: "hi" })).content).toEqual([
      { type: "text", text: "echo: hi" },
    ]);
    expect((await peer.readResource("notes://7")).contents).toHaveLength(1);
  });

  it("cannot ask the client anything: a resolver tool fails and its handler never asks", async () => {
    peer.asked.length = 0;
    await expect(peer.callTool("pick_region", { name: "orders" })).rejects.toMatchObject({
      code: -32600,
      message: expect.stringMatching(/without sessions \(legacy: "stateless".*revision 2026-07-28/),
    });
    expect(peer.asked).toEqual([]);
  });
});

describe('legacy: "reject"', () => {
  let server: HttpServerHandle;

  beforeAll(async () => {
    server = await serve(createInteropServer(), { host: "127.0.0.1", port: 0, legacy: "reject" });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("refuses the handshake with -32022", async () => {
    const transport = new StreamableHTTPClientTransport(server.url);
    await expect(connectV1(transport, () => transport.protocolVersion)).rejects.toThrow(/-32022/);
    await transport.close();
  });
});
