/**
 * The official 2.4.0 client (`@modelcontextprotocol/client`) against a tsmcp `MCPServer` on
 * 127.0.0.1, on one endpoint: on its default settings it speaks the 2025-11-25 handshake era; with
 * `versionNegotiation: { mode: "auto" }` its `server/discover` probe finds 2026-07-28 and it stays
 * on the stateless wire, where the same resolver questions arrive as `inputRequests`.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerHandle, serve } from "../../packages/tsmcp/src/node/index.js";
import { interopCases } from "./cases.js";
import { createInteropServer } from "./fixture-server.js";
import { type ConnectedPeer, connectV2 } from "./peers.js";

let server: HttpServerHandle;
let legacy: ConnectedPeer;
let modern: ConnectedPeer;

beforeAll(async () => {
  server = await serve(createInteropServer(), { host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  await Promise.all([legacy?.close(), modern?.close()]);
  await server?.close();
});

describe("the official 2.4.0 client on its default settings", () => {
  beforeAll(async () => {
    legacy = await connectV2(new StreamableHTTPClientTransport(server.url));
  });
  it("completes the handshake at 2025-11-25", () => {
    expect(legacy.serverName).toBe("tsmcp-interop");
    expect(legacy.protocolVersion).toBe("2025-11-25");
  });
  interopCases(() => legacy);
});

describe("the official 2.4.0 client with versionNegotiation auto", () => {
  beforeAll(async () => {
    modern = await connectV2(new StreamableHTTPClientTransport(server.url), {
      versionNegotiation: { mode: "auto" },
    });
  });
  it("picks 2026-07-28", () => {
    expect(modern.protocolVersion).toBe("2026-07-28");
    expect(modern.serverName).toBe("tsmcp-interop");
  });
  interopCases(() => modern);
});
