/**
 * createRedisState through connection faults, with a TCP proxy between it and a real
 * redis-server: a connection that dies while it is being set up again after an outage is never
 * taken for a live one, and a command Redis does not answer in time fails after `commandTimeoutMs`. Every
 * call settles with a value or a `StateUnavailableError`; none waits forever.
 */
import { StateUnavailableError } from "tsmcp/state";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, startRedisServer } from "../../../test/helpers/redis-server.js";
import { type RedisProxy, startRedisProxy } from "./redis-test-proxy.js";
import { createRedisState, type RedisState } from "./state.js";

let server: RedisServer;
let proxy: RedisProxy;

beforeAll(async () => {
  server = await startRedisServer();
  proxy = await startRedisProxy(server.port);
});

afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

/** `call`'s value, or the error it rejected with. */
function settled<T>(call: Promise<T>): Promise<T | Error> {
  return call.then(
    (value) => value,
    (error: unknown) => error as Error,
  );
}

describe("createRedisState through connection faults", () => {
  let state: RedisState;

  beforeAll(async () => {
    state = await createRedisState({ url: proxy.url, keyPrefix: "faults:", commandTimeoutMs: 1_000 });
  });

  afterAll(async () => {
    await state?.close();
  });

  it("serves again after its connections died while they were being set up again", async () => {
    await state.bus.subscribe("kept", () => {});
    // Both connections drop; each of the next two connections is reset at its first bytes.
    proxy.resetNext(2);
    proxy.dropAll();
    const outcomes: unknown[] = [];
    let got: unknown = new Error("no call succeeded");
    for (let attempt = 0; attempt < 10 && got instanceof Error; attempt++) {
      await state.ready();
      got = await settled(state.tasks.get("no-such-task"));
      outcomes.push(got);
    }
    for (const outcome of outcomes.slice(0, -1)) expect(outcome).toBeInstanceOf(StateUnavailableError);
    expect(got).toBeUndefined();
    expect(proxy.resets).toBe(2);
    // The Pub/Sub connection is subscribed again: Redis counts one receiver.
    await expect(state.bus.publish("kept", { n: 1 })).resolves.toBe(1);
  });

  it("rejects a command Redis does not answer within commandTimeoutMs, and serves the next ones", async () => {
    await state.ready();
    proxy.stall(true);
    const failure = await settled(state.tasks.get("no-such-task"));
    proxy.stall(false);
    expect(failure).toBeInstanceOf(StateUnavailableError);
    expect((failure as Error).message).toMatch(/1000 ms/);
    await state.ready();
    await expect(state.sessions.get("none", 60_000)).resolves.toBeUndefined();
  });
});
