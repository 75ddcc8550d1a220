/**
 * The Redis state example: two replicas on one real redis-server, reached by a real client over
 * Streamable HTTP. A single-use round completed on one replica is refused when replayed on the
 * other, since both record first uses in the same Redis.
 */
import { Client } from "tsmcp/client";
import { HttpClientTransport } from "tsmcp/transport";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stderrOf } from "../test/helpers/logs.js";
import { type RedisServer, startRedisServer } from "../test/helpers/redis-server.js";
import { startReplica } from "./redis-state.js";

const KEYS = ["a-shared-secret-of-32-bytes-or-more"];

let redis: RedisServer;
let replicas: Awaited<ReturnType<typeof startReplica>>[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  replicas = await Promise.all([startReplica(redis.url, KEYS), startReplica(redis.url, KEYS)]);
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await redis?.close();
});

async function clientOf(url: URL | string): Promise<Client> {
  return Client.connect(new HttpClientTransport(url), { capabilities: { elicitation: {} } });
}

describe("the Redis state example", () => {
  it("refuses on one replica a single-use round already completed on the other", async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const [first, second] = await Promise.all([clientOf(a.url), clientOf(b.url)]);
    try {
      const asked = await first.session.callTool(
        "delete-project",
        { project: "old" },
        { allowInputRequired: true },
      );
      expect(asked.resultType).toBe("input_required");
      const requestState = (asked as { requestState: string }).requestState;
      const answer = {
        inputResponses: { reason: { action: "accept" as const, content: { reason: "unused" } } },
        requestState,
      };
      await expect(
        first.session.callTool("delete-project", { project: "old" }, answer),
      ).resolves.toMatchObject({
        content: [{ type: "text", text: "Deleted old (unused)" }],
      });
      const { lines } = await stderrOf(() =>
        expect(second.session.callTool("delete-project", { project: "old" }, answer)).rejects.toMatchObject({
          code: -32602,
          message: "Invalid or expired requestState",
        }),
      );
      expect(lines).toEqual([
        '[tsmcp] warn requestState rejected on tools/call: replayed {"method":"tools/call","reason":"replayed"}',
      ]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
