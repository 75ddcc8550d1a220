/**
 * One replica of a fleet whose state lives in Redis, through the `tsmcp-redis` package: the
 * handshake-era sessions, their SSE events and the bus between replicas go to `serve`'s `state`
 * option, the single-use `requestState` ids to `MCPServer`'s `replayCache`. Start as many replicas
 * as you like with the same Redis and the same requestState keys; `examples/redis-state.test.ts`
 * starts two on a real redis-server and replays a single-use round from one on the other.
 */
import { serve } from "tsmcp/node";
import { elicit, MCPServer, RequestStateSecurity, resolver } from "tsmcp/server";
import { createRedisState } from "tsmcp-redis";
import * as z from "zod";

const reason = resolver("reason", () => elicit("Why delete it?", z.object({ reason: z.string() })));

/** Starts one replica on 127.0.0.1 against the Redis at `redisUrl`, sealing under `keys`. */
export async function startReplica(redisUrl: string, keys: readonly string[]) {
  // One command connection and one Pub/Sub connection for the whole process.
  const state = await createRedisState({ url: redisUrl });
  const mcp = new MCPServer("projects", {
    version: "1.0.0",
    requestStateSecurity: new RequestStateSecurity({ keys, audience: "projects" }),
    replayCache: state.replayCache,
  });
  mcp.tool(
    "delete-project",
    { inputSchema: z.object({ project: z.string() }), resolve: { reason }, singleUse: true },
    async ({ project }, ctx) => `Deleted ${project} (${ctx.resolved.reason.reason})`,
  );
  const server = await serve(mcp, { host: "127.0.0.1", port: 0, state });
  return {
    url: server.url,
    async close() {
      await server.close();
      await state.close();
    },
  };
}
