/**
 * The Redis MessageBus against a real redis-server: the shared contract (a second bus on other
 * connections as the peer), then its channels and its bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageBusContract } from "../../../test/helpers/message-bus-contract.js";
import type { RedisClientLike } from "./client.js";
import { DEFAULT_REDIS_BUS_MAX_PENDING, RedisMessageBus } from "./message-bus.js";
import { type RedisFixture, startRedisFixture } from "./redis-test-fixtures.js";

let fixture: RedisFixture;
let publisher: RedisClientLike;
let subscriber: RedisClientLike;
let peerPublisher: RedisClientLike;
let peerSubscriber: RedisClientLike;

beforeAll(async () => {
  fixture = await startRedisFixture();
  [publisher, subscriber, peerPublisher, peerSubscriber] = await Promise.all([
    fixture.connect(),
    fixture.connect(),
    fixture.connect(),
    fixture.connect(),
  ]);
});

afterAll(async () => {
  await fixture?.close();
});

messageBusContract("RedisMessageBus", ({ onError, maxPending }) => {
  const options = { keyPrefix: fixture.keyPrefix, onError, maxPending };
  const bus = new RedisMessageBus(publisher, subscriber, options);
  return {
    bus,
    dropped: () => bus.dropped,
    peer: new RedisMessageBus(peerPublisher, peerSubscriber, { keyPrefix: fixture.keyPrefix }),
  };
});

describe("RedisMessageBus's channels and bound", () => {
  it("publishes a topic on the channel {keyPrefix}bus:{topic}, as JSON", async () => {
    const bus = new RedisMessageBus(publisher, subscriber, { keyPrefix: fixture.keyPrefix });
    expect(bus.channelOf("sessions")).toBe(`${fixture.keyPrefix}bus:sessions`);
    expect(new RedisMessageBus(publisher, subscriber).channelOf("server")).toBe("tsmcp:bus:server");
    const received = new Promise<unknown>((resolve) => {
      void bus.subscribe("raw", resolve);
    });
    await bus.subscribe("raw", () => {});
    await publisher.sendCommand(["PUBLISH", bus.channelOf("raw"), '{"from":"elsewhere"}']);
    await expect(received).resolves.toEqual({ from: "elsewhere" });
  });

  it("drops and reports what arrives in one burst past maxPending, and reports a message that is not JSON", async () => {
    const errors: unknown[] = [];
    const received: unknown[] = [];
    let settle: () => void = () => {};
    const accounted = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const syntaxErrors = () => errors.filter((error) => error instanceof SyntaxError).length;
    // Each of the 101 messages is delivered, dropped, or (the last one) reported as not JSON.
    const check = () => {
      if (received.length + bus.dropped + syntaxErrors() === 101) settle();
    };
    const bus = new RedisMessageBus(publisher, subscriber, {
      keyPrefix: fixture.keyPrefix,
      maxPending: 10,
      onError: (error) => {
        errors.push(error);
        check();
      },
    });
    await bus.subscribe("burst", (message) => {
      received.push(message);
      check();
    });
    // One script publishes 100 messages: Redis writes them to the subscriber in one go.
    const burst = "for i = 1, 100 do redis.call('PUBLISH', KEYS[1], '{\"n\":' .. i .. '}') end return 1";
    await publisher.sendCommand(["EVAL", burst, "1", bus.channelOf("burst")]);
    await publisher.sendCommand(["PUBLISH", bus.channelOf("burst"), "not json"]);
    await accounted;
    expect(bus.dropped).toBeGreaterThan(0);
    const numbers = received.map((message) => (message as { n: number }).n);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(errors).toHaveLength(bus.dropped + syntaxErrors());
    expect(String(errors[0])).toMatch(/dropped a message on burst \(1 so far\)/);
  });

  it("checks its clients and options when it is built", () => {
    expect(DEFAULT_REDIS_BUS_MAX_PENDING).toBe(10_000);
    expect(() => new RedisMessageBus(publisher, publisher)).toThrow(TypeError);
    expect(() => new RedisMessageBus(publisher, {} as never)).toThrow(TypeError);
    expect(() => new RedisMessageBus(publisher, subscriber, { maxPending: 0 })).toThrow(RangeError);
    expect(() => new RedisMessageBus(publisher, subscriber, { onError: 1 as never })).toThrow(TypeError);
  });
});
