/**
 * A TCP proxy on 127.0.0.1 in front of a redis-server, for the tests of connection faults: it
 * drops every connection at once (as a Redis restart does), resets the next connections as soon
 * as their client sends anything (a connection that dies while it is being set up), or holds back
 * what clients send (a Redis that does not answer for a while).
 */
import { once } from "node:events";
import { createConnection, createServer, type Server, type Socket } from "node:net";

/** A running proxy. */
export interface RedisProxy {
  /** `redis://127.0.0.1:{port}` of the proxy. */
  readonly url: string;
  /** Connections reset by {@link RedisProxy.resetNext} so far. */
  readonly resets: number;
  /** Destroys every open connection, both sides. */
  dropAll(): void;
  /** Resets (TCP RST) each of the next `count` connections when its client first sends bytes. */
  resetNext(count: number): void;
  /** Holds back the clients' bytes (`true`), or forwards what was held and resumes (`false`). */
  stall(stalled: boolean): void;
  /** Closes the proxy and its connections. */
  close(): Promise<void>;
}

/** Starts a proxy to the Redis on 127.0.0.1:`redisPort`. */
export async function startRedisProxy(redisPort: number): Promise<RedisProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let toReset = 0;
  let resets = 0;
  let stalled = false;
  const held: [Socket, Buffer][] = [];
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port: redisPort });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const reset = toReset > 0;
    if (reset) toReset--;
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("data", (chunk: Buffer) => {
      if (reset) {
        resets++;
        pairs.delete(pair);
        upstream.destroy();
        client.resetAndDestroy();
      } else if (stalled) held.push([upstream, chunk]);
      else upstream.write(chunk);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  const dropAll = () => {
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    get resets() {
      return resets;
    },
    dropAll,
    resetNext(count) {
      toReset = count;
    },
    stall(value) {
      stalled = value;
      if (!stalled) for (const [upstream, chunk] of held.splice(0)) upstream.write(chunk);
    },
    async close() {
      dropAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
