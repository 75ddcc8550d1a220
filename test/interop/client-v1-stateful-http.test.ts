/**
 * The tsmcp `Client` against a server built on the official 1.x SDK over stateful Streamable HTTP
 * (in this process, on 127.0.0.1): on its default `protocolVersion: "auto"` the `server/discover`
 * probe is refused, it falls back to `initialize`, keeps the `Mcp-Session-Id`, and the server's
 * requests (on the tool call's stream and on the GET stream) reach the same callbacks the
 * multi-round-trip loop uses. Closing the client ends the session (DELETE).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { type Asked, clientCases, interopCallbacks, newAsked } from "./client-cases.js";
import { serveV1Http, type V1HttpServer } from "./official-v1-server.js";

let server: V1HttpServer;
let client: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  server = await serveV1Http("stateful");
  client = await Client.connect(server.url, { ...interopCallbacks(asked), timeoutMs: 10_000 });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("the tsmcp Client against the official 1.x server, stateful Streamable HTTP", () => {
  it("holds one session on the server", () => {
    expect(server.sessions).toBe(1);
  });

  clientCases(() => client, asked);

  it("connects with protocolVersion legacy without a probe, and ends its session on close", async () => {
    const legacy = await Client.connect(server.url, { protocolVersion: "legacy" });
    expect(legacy.protocolVersion).toBe("2025-11-25");
    expect(server.sessions).toBe(2);
    expect((await legacy.callTool("echo", { text: "again" })).content).toEqual([
      { type: "text", text: "echo: again" },
    ]);
    await legacy.close();
    expect(server.sessions).toBe(1);
  });

  it("refuses protocolVersion 2026-07-28 with one error that names what the server answered", async () => {
    await expect(Client.connect(server.url, { protocolVersion: "2026-07-28" })).rejects.toThrow(
      /2026-07-28|server\/discover|No valid session/,
    );
  });
});
