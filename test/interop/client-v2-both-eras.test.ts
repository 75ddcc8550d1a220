/**
 * The tsmcp `Client` against a server built on the official 2.4.0 SDK with both eras enabled
 * (`createMcpHandler` on its defaults): on `protocolVersion: "auto"` the `server/discover` probe
 * succeeds and the client stays on 2026-07-28, where a tool's question arrives as `inputRequests`
 * and the same `elicitationCallback` answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { type Asked, interopCallbacks, newAsked } from "./client-cases.js";
import { serveV2Http, type V2HttpServer } from "./official-v2-server.js";

let server: V2HttpServer;
let client: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  server = await serveV2Http("both-eras");
  client = await Client.connect(server.url, { ...interopCallbacks(asked), timeoutMs: 10_000 });
});

afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe("the tsmcp Client against the official 2.4.0 server with both eras", () => {
  it("picks 2026-07-28 after one server/discover, without initialize", () => {
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo?.name).toBe("official-v2-fixture");
    expect(server.methods).toEqual(["server/discover"]);
  });

  it("calls a plain tool", async () => {
    expect((await client.callTool("echo", { text: "hi" })).content).toEqual([
      { type: "text", text: "echo: hi" },
    ]);
  });

  it("answers the tool's inputRequests with the same elicitationCallback", async () => {
    asked.elicitation.length = 0;
    const result = await client.callTool("pick_region", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "orders lives in eu-west-1 (modern)" }]);
    expect(asked.elicitation).toEqual(["Which region should orders live in?"]);
    expect(server.methods).not.toContain("initialize");
  });
});
