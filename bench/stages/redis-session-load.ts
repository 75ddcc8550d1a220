/**
 * Stage 9: a plain `tools/call` on a 2025-11-25 session over Streamable HTTP under load, 1 tool,
 * with tsmcp's sessions in its in-memory default stores and in Redis (`createRedisState`), side by
 * side. Both are tsmcp's `serve()` in a child process; the Redis one keeps its sessions, their
 * events and its bus in a `redis-server` the stage starts on a free 127.0.0.1 port (no
 * persistence) and stops. Sessions, warm-up and turns as in stage 8 (its runner); the Redis
 * server's own CPU time during the Redis turns is counted too (`INFO cpu`).
 */
import { startBenchRedis } from "../lib/redis.js";
import { REDIS_CHILD_ENV } from "../servers/tsmcp-redis.js";
import { measureSessionServers, type SessionLoad, type SessionLoadConfig } from "./session-load.js";

/** The two state stores compared. */
export type StoreKind = "in-memory" | "redis";

/** Stage 9's results by store. */
export type RedisSessionLoadResults = Map<StoreKind, SessionLoad>;

/** Runs stage 9. */
export async function measureRedisSessionLoad(
  config: SessionLoadConfig,
  log: (line: string) => void,
): Promise<RedisSessionLoadResults> {
  const redis = await startBenchRedis();
  try {
    return await measureSessionServers<StoreKind>(
      [
        { key: "in-memory", impl: "tsmcp" },
        {
          key: "redis",
          impl: "tsmcp-redis",
          env: { ...REDIS_CHILD_ENV, REDIS_URL: redis.url },
          helperCpuUs: () => redis.cpuUs(),
        },
      ],
      config,
      log,
    );
  } finally {
    await redis.close();
  }
}
