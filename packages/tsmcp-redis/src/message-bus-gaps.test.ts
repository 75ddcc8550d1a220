/**
 * The Redis MessageBus reports a gap: with a TCP proxy between its subscriber connection and a
 * real redis-server, a message published while that connection is cut is lost (delivery is at
 * most once), and once node-redis has it subscribed again the subscription's `onGap` is called, so
 * the subscriber knows to treat what it holds as possibly changed.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedisClientLike } from "./client.js";
import { RedisMessageBus } from "./message-bus.js";
import { type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";
import { type RedisProxy, startRedisProxy } from "./redis-test-proxy.js";

let fixture: RedisFixture;
let proxy: RedisProxy;
let publisher: RedisClientLike;
let subscriber: RedisClientLike;

beforeAll(async () => {
  fixture = await startRedisFixture();
  proxy = await startRedisProxy(fixture.server.port);
  // The publisher talks to Redis directly; only the subscriber's connection goes through the proxy.
  publisher = await fixture.connect();
  const client = createClient({
    url: proxy.url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: () => 20 },
  });
  client.on("error", () => {});
  await client.connect();
  subscriber = client;
});

afterAll(async () => {
  if (subscriber?.isOpen) subscriber.destroy();
  await proxy?.close();
  await fixture?.close();
});

/** Publishes `message` on `topic` until a subscriber took it (its connection may be reconnecting). */
async function publishUntilTaken(bus: RedisMessageBus, topic: string, message: Record<string, unknown>) {
  for (;;) {
    if ((await bus.publish(topic, message)) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("RedisMessageBus gaps", () => {
  it("calls onGap once the subscriber connection is back after it was cut, and never after unsubscribe", async () => {
    const errors: unknown[] = [];
    const bus = new RedisMessageBus(publisher, subscriber, {
      keyPrefix: fixture.keyPrefix,
      onError: (error) => errors.push(error),
    });
    const received: unknown[] = [];
    const arrivals = new Map<unknown, () => void>();
    const arrived = (n: number) => new Promise<void>((resolve) => arrivals.set(n, resolve));
    const [first, third] = [arrived(1), arrived(3)];
    let gaps = 0;
    let gapped: () => void = () => {};
    const gap = new Promise<void>((resolve) => {
      gapped = resolve;
    });
    const subscription = await bus.subscribe(
      "news",
      (message) => {
        received.push(message);
        arrivals.get(message.n)?.();
      },
      {
        onGap: () => {
          gaps++;
          gapped();
        },
      },
    );
    let endedGaps = 0;
    const ended = await bus.subscribe("news", () => {}, { onGap: () => endedGaps++ });
    await ended.unsubscribe();
    // Nothing is reported while the connection stays up.
    await publishUntilTaken(bus, "news", { n: 1 });
    await first;

    proxy.dropAll();
    await gap;
    expect(gaps).toBe(1);
    // The subscription resumed by itself, without a new subscribe.
    await publishUntilTaken(bus, "news", { n: 3 });
    await third;
    expect(received).toEqual([{ n: 1 }, { n: 3 }]);
    expect(endedGaps).toBe(0);
    expect(errors).toEqual([]);

    await subscription.unsubscribe();
    proxy.dropAll();
    await new Promise<void>((resolve) => subscriber.on("ready", () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
    expect(gaps).toBe(1);
  });

  it("reports what onGap throws to onError, and checks onGap's type", async () => {
    const errors: unknown[] = [];
    let reported: () => void = () => {};
    const report = new Promise<void>((resolve) => {
      reported = resolve;
    });
    const bus = new RedisMessageBus(publisher, subscriber, {
      keyPrefix: fixture.keyPrefix,
      onError: (error) => {
        errors.push(error);
        reported();
      },
    });
    await expect(bus.subscribe("news", () => {}, { onGap: 1 as never })).rejects.toThrow(TypeError);
    const failure = new Error("gap handler failure");
    const subscription = await bus.subscribe("news", () => {}, {
      onGap: () => {
        throw failure;
      },
    });
    proxy.dropAll();
    await report;
    expect(errors).toEqual([failure]);
    await subscription.unsubscribe();
  });
});
