/**
 * `ClientOptions.onMessage`: every JSON-RPC message on the connection, both ways, in order, with a
 * real `Server` in this process, at 2026-07-28 and on a 2025-era session (whose back-channel
 * requests and the answers sent back are messages too).
 */
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "../protocol/jsonrpc.js";
import { Server } from "../server/server.js";
import { InMemoryTransport } from "../transport/memory.js";
import type { MessageDirection } from "../transport/trace.js";
import { Client } from "./client.js";

function server() {
  return new Server("traced", {
    capabilities: { tools: {}, logging: {} },
    onListTools: () => ({ tools: [] }),
    onCallTool: async (ctx) => {
      ctx.sendProgress({ progress: 1, total: 1 });
      if (ctx.session !== undefined) {
        const answer = await ctx.elicit({
          message: "Which region?",
          requestedSchema: { type: "object", properties: { region: { type: "string" } } },
        });
        return { content: [{ type: "text", text: answer.action }] };
      }
      return { content: [{ type: "text", text: "done" }] };
    },
  });
}

/** A summary of each message: direction, and its method or `response <id>`. */
function summary(seen: [JSONRPCMessage, MessageDirection][]): string[] {
  return seen.map(([message, direction]) =>
    "method" in message ? `${direction} ${message.method}` : `${direction} response ${message.id}`,
  );
}

describe("Client onMessage", () => {
  it("sees each request sent and each response and notification received, at 2026-07-28", async () => {
    const seen: [JSONRPCMessage, MessageDirection][] = [];
    const client = await Client.connect(new InMemoryTransport(server()), {
      onMessage: (message, direction) => seen.push([message, direction]),
    });
    await client.callTool("go", {}, { onProgress: () => {} });
    await client.close();
    expect(summary(seen)).toEqual([
      "sent server/discover",
      "received response 1",
      "sent tools/call",
      "received notifications/progress",
      "received response 2",
    ]);
  });

  it("sees the back-channel request of a 2025-era session and the answer sent back", async () => {
    const seen: [JSONRPCMessage, MessageDirection][] = [];
    const client = await Client.connect(new InMemoryTransport(server()), {
      protocolVersion: "legacy",
      elicitationCallback: () => ({ action: "decline" }),
      onMessage: (message, direction) => seen.push([message, direction]),
    });
    const result = await client.callTool("go", {});
    await client.close();
    expect(result.content).toEqual([{ type: "text", text: "decline" }]);
    const lines = summary(seen);
    expect(lines.slice(0, 3)).toEqual([
      "sent initialize",
      "received response 1",
      "sent notifications/initialized",
    ]);
    const asked = lines.indexOf("received elicitation/create");
    expect(asked).toBeGreaterThan(lines.indexOf("sent tools/call"));
    const request = seen[asked]?.[0] as { id: string | number };
    expect(seen[asked + 1]).toEqual([
      { jsonrpc: "2.0", id: request.id, result: { action: "decline" } },
      "sent",
    ]);
  });

  it("is checked at construction, and an observer that throws breaks nothing", async () => {
    expect(() => new Client(new InMemoryTransport(server()), { onMessage: 1 as never })).toThrow(
      /Client option "onMessage" must be a function/,
    );
    const client = await Client.connect(new InMemoryTransport(server()), {
      onMessage: () => {
        throw new Error("observer failed");
      },
    });
    expect((await client.callTool("go", {})).content).toEqual([{ type: "text", text: "done" }]);
    await client.close();
  });
});
