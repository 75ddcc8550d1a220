/**
 * The Vercel AI SDK's MCP client (`@ai-sdk/mcp`) over its stdio transport against a tsmcp server,
 * a real child process. The client probes with `server/discover`, waits about a second, and sends
 * `initialize` on the same process when no answer came in time; the server must then open a
 * 2025-11-25 session rather than keep the era the probe chose.
 */
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT } from "./peers.js";

function connect(script: string): Promise<MCPClient> {
  return createMCPClient({
    transport: new StdioMCPTransport({
      command: process.execPath,
      args: ["--import", "tsx", script],
      cwd: ROOT,
    }),
  });
}

describe("the AI SDK's stdio client against a tsmcp server", () => {
  const clients: MCPClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  it("lists the tools and calls one, whichever era its probe settles on", async () => {
    const client = await connect("test/interop/fixture-server.ts");
    clients.push(client);
    expect(["2026-07-28", "2025-11-25"]).toContain(client.initializeResult.protocolVersion);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("echo");
    expect(await client.callTool({ name: "echo", arguments: { text: "hello" } })).toMatchObject({
      content: [{ type: "text", text: "echo: hello" }],
    });
  });

  it("gets a 2025-11-25 session on the same process when initialize follows an unanswered probe", async () => {
    const client = await connect("test/interop/late-start-server.ts");
    clients.push(client);
    expect(client.initializeResult).toMatchObject({
      protocolVersion: "2025-11-25",
      serverInfo: { name: "tsmcp-interop" },
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "count", "pick_region", "provision"]),
    );
    expect(await client.callTool({ name: "echo", arguments: { text: "after the probe" } })).toMatchObject({
      content: [{ type: "text", text: "echo: after the probe" }],
    });
  });
});
