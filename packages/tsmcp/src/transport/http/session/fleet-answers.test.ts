/**
 * A client's answer to a server -> client question that reaches a replica other than the one
 * awaiting it is forwarded over the bus; when no replica takes it (the awaiting one's subscription
 * was reconnecting), the forwarding replica keeps it and sends it again, so an answer the client
 * saw accepted (202) still reaches the handler. Three `serve` handlers on 127.0.0.1 sharing
 * in-memory stores, reached by tsmcp's client.
 */

import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { memoryState, type Replicas, startReplicas } from "../../../../../../test/helpers/replicas.js";
import { testRequestStateSecurity } from "../../../../../../test/helpers/request-state.js";
import { Client } from "../../../client/client.js";
import { silentLogger } from "../../../protocol/logger.js";
import { MCPServer } from "../../../server/mcp/server.js";
import type { MessageBus } from "../../../state/message-bus.js";

let fleet: Replicas | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

describe("a back-channel answer across replicas", () => {
  it("reaches the awaiting replica although the first attempts to hand it over found nobody listening", async () => {
    const shared = memoryState();
    const missed = { left: 3, count: 0 };
    // The first answers forwarded to a replica find its subscription gone (it was reconnecting).
    const bus: MessageBus = {
      publish: async (topic, message) => {
        if (topic.startsWith("tsmcp:instance:") && message.type === "response" && missed.left > 0) {
          missed.left--;
          missed.count++;
          return 0;
        }
        return shared.bus.publish(topic, message);
      },
      subscribe: (topic, onMessage) => shared.bus.subscribe(topic, onMessage),
    };
    fleet = await startReplicas(
      3,
      () => {
        const mcp = new MCPServer("answers", {
          version: "1",
          logger: silentLogger,
          requestStateSecurity: testRequestStateSecurity(),
        });
        mcp.tool("ask", { inputSchema: z.object({}) }, async (_args, ctx) => {
          const answer = await ctx.elicit({
            message: "Your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          });
          return answer.action === "accept" ? `hello ${String(answer.content?.name)}` : "declined";
        });
        return mcp;
      },
      { http: { logger: silentLogger, backChannelTimeoutMs: 20_000 }, state: { ...shared, bus } },
    );
    const replicas = fleet;
    const client = await Client.connect(replicas.transport(), {
      protocolVersion: "legacy",
      elicitationCallback: () => {
        // The answer goes to another replica than the one asking.
        replicas.pin(1);
        return { action: "accept", content: { name: "Ada" } };
      },
    });
    replicas.pin(0);
    const result = await client.callTool("ask", {});
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
    expect(missed.count).toBe(3);
    await client.close();
  });
});
