/**
 * What the Redis stores' tests share: a real redis-server of their own (see
 * test/helpers/redis-server.ts), connected node-redis clients, a key prefix unique to the run, and
 * the wait that stands in for a clock where Redis keeps the time.
 */
import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import { type RedisServer, startRedisServer } from "../../../test/helpers/redis-server.js";
import type { RedisClientLike } from "./client.js";

/** A redis-server for one test file, and clients on it. */
export interface RedisFixture {
  readonly server: RedisServer;
  /** A key prefix no other run uses. */
  readonly keyPrefix: string;
  /** A new connected client (no offline queue), closed with the fixture. */
  connect(): Promise<RedisClientLike>;
  /** Closes every client, then stops the server and removes its directory. */
  close(): Promise<void>;
}

/** Starts a redis-server (installing it when missing; throws when it cannot). */
export async function startRedisFixture(): Promise<RedisFixture> {
  const server = await startRedisServer();
  const clients: RedisClientLike[] = [];
  return {
    server,
    keyPrefix: `test:${randomUUID()}:`,
    async connect() {
      const client = createClient({ url: server.url, disableOfflineQueue: true });
      client.on("error", () => {});
      await client.connect();
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) if (client.isOpen) client.destroy();
      await server.close();
    },
  };
}

/**
 * Waits `ms` milliseconds and a little more: Redis expires a key once its own clock is strictly
 * past the key's time, and the wait starts after the command that set it was answered.
 */
export function elapse(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms + 5));
}
