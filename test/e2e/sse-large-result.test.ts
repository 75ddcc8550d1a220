/**
 * `maxStreamBufferBytes` bounds what a client has not read, not the size of one event: a result
 * larger than the bound, sent on an SSE answer after a progress notification, reaches a client that reads it
 * (both eras, over node:http on 127.0.0.1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "../../packages/tsmcp/src/client/client.js";
import { Server } from "../../packages/tsmcp/src/server/server.js";
import { serve } from "../../packages/tsmcp/src/transport/http/node/node.js";

const BOUND = 64 * 1024;
const TEXT = "y".repeat(4 * BOUND);

function bigAnswerServer(): Server {
  return new Server("big-answers", {
    onListTools: () => ({ tools: [{ name: "big", inputSchema: { type: "object" } }] }),
    onCallTool: async (ctx) => {
      ctx.sendProgress({ progress: 1, total: 2 });
      return { content: [{ type: "text", text: TEXT }] };
    },
  });
}

describe("an SSE answer larger than maxStreamBufferBytes", () => {
  let served: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    served = await serve(bigAnswerServer(), { host: "127.0.0.1", port: 0, maxStreamBufferBytes: BOUND });
  });
  afterAll(async () => {
    await served?.close();
  });

  it.each(["2026-07-28", "legacy"] as const)("reaches a client that reads it (%s)", async (era) => {
    const progress: unknown[] = [];
    const client = await Client.connect(served.url, era === "legacy" ? { protocolVersion: "legacy" } : {});
    try {
      const result = await client.callTool(
        "big",
        {},
        { onProgress: (update: unknown) => progress.push(update) },
      );
      expect(result.content).toEqual([{ type: "text", text: TEXT }]);
      expect(progress).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
