/**
 * The tsmcp `Client` against a server built on the official 2.4.0 SDK in handshake-only mode (the
 * sessionful `WebStandardStreamableHTTPServerTransport`, 2025 revisions only): on
 * `protocolVersion: "auto"` the `server/discover` probe is refused and the client falls back to
 * `initialize` at 2025-11-25; the tool's question then arrives over the back-channel and the same
 * `elicitationCallback` answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { type Asked, interopCallbacks, newAsked } from "./client-cases.js";
import { serveV2Http, type V2HttpServer } from "./official-v2-server.js";

let server: V2HttpServer;
let client: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  server = await serveV2Http("handshake-only");
  client = await Client.connect(server.url, { ...interopCallbacks(asked), timeoutMs: 10_000 });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("the tsmcp Client against the official 2.4.0 server, handshake only", () => {
  it("falls back to initialize at 2025-11-25 after one refused probe", () => {
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo?.name).toBe("official-v2-fixture");
    expect(server.methods.slice(0, 3)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
    ]);
  });

  it("calls a plain tool", async () => {
    expect((await client.callTool("echo", { text: "hi" })).content).toEqual([
      { type: "text", text: "echo: hi" },
    ]);
  });

  it("answers the server's elicitation/create with the same elicitationCallback", async () => {
    asked.elicitation.length = 0;
    const result = await client.callTool("pick_region", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "orders lives in eu-west-1 (legacy)" }]);
    expect(asked.elicitation).toEqual(["Which region should orders live in?"]);
  });
});
