/**
 * The tsmcp `Client` against the official 2.4.0 server over stdio (`serveStdio`, both eras; a real
 * child process): on `protocolVersion: "auto"` the first message, `server/discover`, pins the
 * connection to 2026-07-28, and the tool's question arrives as `inputRequests`, answered by the
 * same `elicitationCallback` that answers a handshake-era server's back-channel request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/index.js";
import { type Asked, interopCallbacks, newAsked } from "./client-cases.js";
import { ROOT } from "./peers.js";

let client: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  client = await Client.connect(
    { command: process.execPath, args: ["--import", "tsx", "test/interop/official-v2-server.ts"], cwd: ROOT },
    { ...interopCallbacks(asked), timeoutMs: 10_000 },
  );
});

afterAll(async () => {
  await client?.close();
});

describe("the tsmcp Client against the official 2.4.0 server over stdio", () => {
  it("picks 2026-07-28 on auto", () => {
    expect(client.protocolVersion).toBe("2026-07-28");
    expect(client.serverInfo?.name).toBe("official-v2-fixture");
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
  });
});
