/**
 * The redis-server the Redis tests run on: a free loopback port, killed by PID and started again on
 * the same port, keeping its data only when asked to.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import { startRedisServer } from "./redis-server.js";

async function roundTrip(url: string, write: boolean): Promise<string | null> {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  try {
    if (write) await client.set("kept", "yes");
    return await client.get("kept");
  } finally {
    client.destroy();
  }
}

describe("startRedisServer", () => {
  it("serves on its port, stops by PID, and restarts on the same port with nothing kept", async () => {
    const server = await startRedisServer();
    try {
      expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
      await expect(roundTrip(server.url, true)).resolves.toBe("yes");
      await server.stop();
      await server.stop();
      await expect(roundTrip(server.url, false)).rejects.toThrow();
      await server.restart();
      await expect(roundTrip(server.url, false)).resolves.toBeNull();
      expect(server.output.filter((line) => line.includes("Ready to accept connections"))).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it("keeps every write across a kill when persistent, in the directory it was given", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tsmcp-redis-given-"));
    const server = await startRedisServer({ persistent: true, dir: join(dir, "redis") });
    try {
      await expect(roundTrip(server.url, true)).resolves.toBe("yes");
      await server.restart();
      await expect(roundTrip(server.url, false)).resolves.toBe("yes");
    } finally {
      await server.close();
    }
    expect(existsSync(join(dir, "redis"))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
