/**
 * The tsmcp `Client` against the official 2.4.0 server over stdio (`serveStdio`, both eras; a
 * real child process per connection): on `protocolVersion: "auto"` the first message,
 * `server/discover`, pins the connection to 2026-07-28; on `"legacy"` the first message is
 * `initialize` and the tool's question arrives over the back-channel. The same
 * `elicitationCallback` answers both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../src/client/index.js";
import { type Asked, interopCallbacks, newAsked } from "./client-cases.js";
import { ROOT } from "./peers.js";

const SERVER = {
  command: process.execPath,
  args: ["--import", "tsx", "test/interop/official-v2-server.ts"],
  cwd: ROOT,
};

let modern: Client;
let legacy: Client;
const asked: Asked = newAsked();

beforeAll(async () => {
  [modern, legacy] = await Promise.all([
    Client.connect(SERVER, { ...interopCallbacks(asked), timeoutMs: 10_000 }),
    Client.connect(SERVER, { ...interopCallbacks(asked), timeoutMs: 10_000, protocolVersion: "legacy" }),
  ]);
});

afterAll(async () => {
  await Promise.all([modern?.close(), legacy?.close()]);
});

describe("the tsmcp Client against the official 2.4.0 server over stdio", () => {
  it("picks 2026-07-28 on auto, and 2025-11-25 on legacy", () => {
    expect(modern.protocolVersion).toBe("2026-07-28");
    expect(legacy.protocolVersion).toBe("2025-11-25");
    expect([modern.serverInfo?.name, legacy.serverInfo?.name]).toEqual([
      "official-v2-fixture",
      "official-v2-fixture",
    ]);
  });

  it("answers the question as inputRequests at 2026-07-28 and over the back-channel at 2025-11-25", async () => {
    asked.elicitation.length = 0;
    const [fromModern, fromLegacy] = [
      await modern.callTool("pick_region", { name: "orders" }),
      await legacy.callTool("pick_region", { name: "users" }),
    ];
    expect(fromModern.content).toEqual([{ type: "text", text: "orders lives in eu-west-1 (modern)" }]);
    expect(fromLegacy.content).toEqual([{ type: "text", text: "users lives in eu-west-1 (legacy)" }]);
    expect(asked.elicitation).toEqual([
      "Which region should orders live in?",
      "Which region should users live in?",
    ]);
  });
});
