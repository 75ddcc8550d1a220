/**
 * The fleet instance (`examples/fleet/instance.ts`) as a real process on a real redis-server: its
 * `touch` tool acknowledges an update only once the update is published to the other instances,
 * and answers an error the caller can retry on while it cannot be.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "tsmcp/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../test/helpers/redis-server.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const INSTANCE = fileURLToPath(new URL("./instance.ts", import.meta.url));

let redis: RedisServer;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  redis = await startRedisServer();
  child = spawn(process.execPath, ["--import", "tsx", INSTANCE], {
    cwd: ROOT,
    env: {
      ...process.env,
      MCP_STATE_KEYS: Buffer.alloc(32, 7).toString("base64url"),
      INSTANCE_ID: "t",
      PORT: "0",
      REDIS_URL: redis.url,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("{")) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once("exit", (code) => reject(new Error(`the instance exited (${code}) before listening`)));
  });
});

afterAll(async () => {
  if (child?.exitCode === null) {
    child.kill("SIGKILL");
    await once(child, "exit");
  }
  await redis?.close();
});

describe("the fleet instance's touch tool", () => {
  it("acknowledges an update once published, and answers an error while Redis cannot take it", async () => {
    const client = await Client.connect(url, { protocolVersion: "2026-07-28" });
    try {
      await expect(client.callTool("touch", { n: "1" })).resolves.toMatchObject({
        content: [{ type: "text", text: "touched 1" }],
      });
      await redis.stop();
      const refused = await client.callTool("touch", { n: "2" });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/fleet:\/\/news\/2 could not be published/);
    } finally {
      await client.close();
    }
  });
});
