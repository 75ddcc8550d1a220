/**
 * The examples from a 2025-11-25 client: a scripted client of raw JSON-RPC lines, as the clients
 * deployed today speak, over stdio. It initializes, calls, and answers the server's
 * `elicitation/create` requests; the examples' code is the same that serves 2026-07-28 clients.
 */
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { serveStdio } from "tsmcp/stdio";
import { describe, expect, it, onTestFinished } from "vitest";
import { RawServer } from "../packages/tsmcp/src/transport/stdio/fixtures/harness.js";
import {
  acceptingForms,
  LegacyPeer,
  streamWire,
} from "../packages/tsmcp/src/transport/stdio/fixtures/legacy-peer.js";
import { createDeployServer } from "./deploy.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** `npm run example -- <name> --stdio` as a child process, driven by a scripted 2025-era client. */
async function exampleOverStdio(name: string): Promise<LegacyPeer> {
  const server = new RawServer({
    command: process.execPath,
    args: ["--import", "tsx", "examples/run.ts", name, "--stdio"],
    cwd: root,
  });
  onTestFinished(async () => {
    server.kill();
    await server.exited;
  });
  const peer = new LegacyPeer(server);
  const init = await peer.initialize();
  expect(init).toMatchObject({
    result: { protocolVersion: "2025-11-25", serverInfo: { name: "provisioning" } },
  });
  return peer;
}

function textOf(message: Record<string, unknown>): string {
  const result = message.result as { content: { type: string; text: string }[] };
  return result.content.map((block) => block.text).join("");
}

describe.each(["provisioning", "mcpserver-provisioning"])(
  "the %s example from a 2025-11-25 client",
  (name) => {
    it("asks the region over the back-channel and provisions there", async () => {
      const peer = await exampleOverStdio(name);
      const response = await peer.callTool(
        "provision",
        { name: "orders" },
        acceptingForms({ "Which region should the database live in?": { region: "us-east-1" } }),
      );
      expect(response).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: { content: [{ type: "text", text: "Provisioned orders in us-east-1" }] },
      });
      expect(peer.asked.map((request) => request.method)).toEqual(["elicitation/create"]);
    });

    it("asks who the briefing is for and writes it for them", async () => {
      const peer = await exampleOverStdio(name);
      const response = await peer.request(
        "prompts/get",
        { name: "briefing" },
        acceptingForms({ "Who is the briefing for?": { audience: "the board" } }),
      );
      expect(response.result).toMatchObject({ description: "A briefing for the board" });
      expect(response.result).not.toHaveProperty("resultType");
    });
  },
);

describe("the deploy example from a 2025-11-25 client", () => {
  it("asks the independent questions first, then the approval naming the environment, and deploys", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const mcp = createDeployServer();
    const handle = serveStdio(mcp, { stdin, stdout });
    onTestFinished(async () => {
      await handle.close();
      mcp.close();
    });
    const peer = new LegacyPeer(streamWire(stdin, stdout));
    await peer.initialize();
    const response = await peer.callTool(
      "deploy",
      { service: "billing", version: "2.4.0" },
      acceptingForms({
        "Where should billing 2.4.0 be deployed?": { environment: "production" },
        "Release notes for billing 2.4.0?": { notes: "Faster checkout." },
        "Deploy billing 2.4.0 to production?": { approve: true },
      }),
    );
    expect(textOf(response)).toBe("Deployed billing 2.4.0 to production. Notes: Faster checkout.");
    expect(peer.asked.map((request) => request.params?.message)).toEqual([
      "Where should billing 2.4.0 be deployed?",
      "Release notes for billing 2.4.0?",
      "Deploy billing 2.4.0 to production?",
    ]);
    const tools = await peer.request("tools/list");
    expect(
      Object.keys(
        (tools.result as { tools: { inputSchema: { properties: object } }[] }).tools[0]?.inputSchema
          .properties ?? {},
      ),
    ).toEqual(["service", "version"]);
  });
});
