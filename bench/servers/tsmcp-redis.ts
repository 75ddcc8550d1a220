/**
 * tsmcp with its handshake-era (2025-11-25) sessions, their SSE events and the messages between
 * replicas in Redis: the server of `tsmcp.ts` served by `serve()` with `state` from
 * `createRedisState({ url })`, on the Redis the environment's `REDIS_URL` names.
 *
 * Like `tsmcp.ts`, it loads the build (`dist/`) of both packages when tsmcp's is current. The
 * child that runs it must resolve `tsmcp/state` (imported by tsmcp-redis's build) to the build
 * too, not through the workspace's TypeScript path mapping: {@link REDIS_CHILD_ENV} says how.
 */
import { fileURLToPath } from "node:url";
import type * as NodeEntry from "../../packages/tsmcp/src/node/index.js";
import type { HttpServerHandle } from "../../packages/tsmcp/src/transport/http/node/node.js";
import type * as RedisEntry from "../../packages/tsmcp-redis/src/index.js";
import type { ServerSpec } from "../fixtures/tools.js";
import { isBuildCurrent, tsmcpEntry } from "../lib/build.js";
import { createTsmcpServer } from "./tsmcp.js";

/**
 * What a child running this server adds to its environment besides `REDIS_URL`: tsx reads a
 * configuration without path mappings, so `tsmcp/state` resolves through the package's exports.
 */
export const REDIS_CHILD_ENV: Readonly<Record<string, string>> = Object.freeze({
  TSX_TSCONFIG_PATH: fileURLToPath(new URL("../tsconfig.children.json", import.meta.url)),
});

const redisEntry = new URL(
  isBuildCurrent() ? "../../packages/tsmcp-redis/dist/index.js" : "../../packages/tsmcp-redis/src/index.ts",
  import.meta.url,
).href;

/**
 * Serves the tsmcp server for `spec` on 127.0.0.1 (a free port), its sessions in the Redis at
 * `REDIS_URL`; closing it closes the server, then the Redis connections.
 *
 * @throws Error when `REDIS_URL` is not set or Redis cannot be reached.
 */
export async function serveTsmcpRedis(spec: ServerSpec): Promise<HttpServerHandle> {
  const url = process.env.REDIS_URL;
  if (url === undefined) throw new Error("tsmcp-redis: set REDIS_URL to the Redis to keep sessions in");
  const { serve } = (await import(tsmcpEntry("node"))) as typeof NodeEntry;
  const { createRedisState } = (await import(redisEntry)) as typeof RedisEntry;
  const state = await createRedisState({ url });
  const handle = await serve(createTsmcpServer(spec), { host: "127.0.0.1", port: 0, state });
  return {
    url: handle.url,
    port: handle.port,
    async close() {
      await handle.close();
      await state.close();
    },
  };
}
