/**
 * Both eras on one stdio server process, a real child running the fixture `Server`: a client that
 * probes with `server/discover` and then sends `initialize` (as dual-era clients do when the probe
 * goes unanswered in time) gets a handshake-era session on the same process, and the sequences the
 * revisions forbid are still refused.
 */
import { describe, it } from "vitest";
import type { JSONRPCRequest } from "../../protocol/jsonrpc.js";
import { callTool, RawServer, REQUEST_META } from "./fixtures/harness.js";

type TestContext = { onTestFinished: (fn: () => Promise<void> | void) => void };

const DISCOVER: JSONRPCRequest = {
  jsonrpc: "2.0",
  id: "probe",
  method: "server/discover",
  params: { _meta: REQUEST_META },
};

const INITIALIZE: JSONRPCRequest = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "dual-era-client", version: "1.0.0" },
  },
};

/** Starts the fixture server; it is killed (if still running) when the test ends. */
function fixture(context: TestContext): RawServer {
  const server = new RawServer();
  context.onTestFinished(async () => {
    server.kill();
    await server.exited;
  });
  return server;
}

describe("one stdio server process and both eras", () => {
  it("answers initialize after an unanswered server/discover, then serves tools/call at 2025-11-25", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    // Both lines arrive before the server has answered the probe, as when the client gave up waiting.
    server.writeRaw(`${JSON.stringify(DISCOVER)}\n${JSON.stringify(INITIALIZE)}\n`);
    const [probe, init] = await Promise.all([server.response("probe"), server.response("init")]);
    expect(probe).toMatchObject({ result: { supportedVersions: expect.arrayContaining(["2026-07-28"]) } });
    expect(init).toMatchObject({
      result: { protocolVersion: "2025-11-25", serverInfo: { name: "stdio-fixture" } },
    });
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const call = await server.roundTrip({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "after the probe" } },
    });
    expect(call).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { content: [{ type: "text", text: "after the probe" }] },
    });
    await server.stop();
    expect(server.garbage).toEqual([]);
  });

  it("answers initialize after an answered server/discover", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    expect(await server.roundTrip(DISCOVER)).toHaveProperty("result");
    expect(await server.roundTrip(INITIALIZE)).toMatchObject({
      result: { protocolVersion: "2025-11-25" },
    });
  });

  it("after initialize refuses 2026-07-28 requests and a second initialize with -32600", async (context) => {
    const { expect } = context;
    const server = fixture(context);
    await server.roundTrip(DISCOVER);
    await server.roundTrip(INITIALIZE);
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const modern = await server.roundTrip(callTool(4, "echo", { text: "stateless" }));
    expect(modern).toMatchObject({ id: 4, error: { code: -32600 } });
    expect((modern.error as { message: string }).message).toMatch(/initialize.*2026-07-28/);
    const again = await server.roundTrip({ ...INITIALIZE, id: 5 });
    expect(again).toMatchObject({ id: 5, error: { code: -32600 } });
  });
});
