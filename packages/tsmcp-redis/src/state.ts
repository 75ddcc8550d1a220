/**
 * `createRedisState`: the five Redis stores on two connections per process, one for commands and
 * one for Pub/Sub, reconnecting with backoff.
 */
import { createClient } from "redis";
import { StateUnavailableError } from "tsmcp/state";
import type { RedisClientLike } from "./client.js";
import {
  DEFAULT_REDIS_EVENT_TTL_MS,
  DEFAULT_REDIS_MAX_EVENTS_PER_STREAM,
  RedisEventStore,
} from "./event-store.js";
import { RedisMessageBus } from "./message-bus.js";
import {
  checkObject,
  DEFAULT_MAX_RECONNECT_DELAY_MS,
  integerOption,
  type RedisStoreOptions,
  storeSettings,
} from "./options.js";
import { RedisReplayCache } from "./replay-cache.js";
import { RedisSessionStore } from "./session-store.js";
import { RedisTaskStore } from "./task-store.js";

/** The Redis `createRedisState` connects to by default: `redis://127.0.0.1:6379`. */
export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";
/** Milliseconds `createRedisState` waits for its connections by default: 5 000. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

/** Options of {@link createRedisState}. */
export interface RedisStateOptions extends RedisStoreOptions {
  /**
   * The Redis to connect to, a `redis://` or `rediss://` URL (credentials and database number
   * included). Default {@link DEFAULT_REDIS_URL}. Ignored when `client` is given.
   */
  url?: string;
  /**
   * A node-redis client of your own (from `createClient()` of the `redis` package) for the
   * commands, instead of one built from `url`; connected here when it is not yet. The Pub/Sub
   * connection is its `duplicate()`. `close()` leaves this client open (it is yours). Give it
   * `disableOfflineQueue: true` (the stores refuse to send while it is not ready in any case) and
   * `disableClientInfo: true`: node-redis ignores a failure of the `CLIENT SETINFO` commands it
   * sends while setting up a connection, even the connection's own failure, and then takes the
   * dead connection for a ready one.
   */
  client?: RedisClientLike;
  /** Milliseconds to wait for both connections at start, from 1. Default {@link DEFAULT_CONNECT_TIMEOUT_MS}. */
  connectTimeoutMs?: number;
  /**
   * The longest wait between two reconnection attempts, milliseconds, from 1 (the waits grow
   * 50, 100, 200 ms... up to it, plus up to 100 ms of jitter). Default
   * {@link DEFAULT_MAX_RECONNECT_DELAY_MS}. Also the default `retryAfterMs`.
   */
  maxReconnectDelayMs?: number;
  /** Events kept per session stream, from 1. Default {@link DEFAULT_REDIS_MAX_EVENTS_PER_STREAM}. */
  maxEventsPerStream?: number;
  /** Milliseconds a session stream is kept after its last event, from 1. Default {@link DEFAULT_REDIS_EVENT_TTL_MS}. */
  eventTtlMs?: number;
  /** Bus deliveries waiting at most, from 1. Default `DEFAULT_REDIS_BUS_MAX_PENDING` (10 000). */
  maxPending?: number;
  /**
   * Receives the connections' errors (each failed reconnection attempt included), what a bus
   * subscriber threw, and each message the bus dropped. Default: ignored (the stores' calls
   * reject while Redis is unreachable, and the HTTP handler logs those).
   */
  onError?: (error: unknown) => void;
}

/**
 * The Redis stores of one process: give `{ sessions, events, bus }` to the HTTP handler's `state`
 * option (it is a `StateStores` of `tsmcp/state`), `replayCache` to `MCPServer`'s
 * `replayCache` option, and `tasks` as the task store of `MCPServer`'s `tasks` option.
 */
export interface RedisState {
  /** Handshake-era sessions. */
  readonly sessions: RedisSessionStore;
  /** The sessions' SSE events. */
  readonly events: RedisEventStore;
  /** Publish/subscribe between replicas. */
  readonly bus: RedisMessageBus;
  /** Single-use `requestState` ids. */
  readonly replayCache: RedisReplayCache;
  /** Tasks (the tasks extension's and the 2025-11-25 revision's), their input and results. */
  readonly tasks: RedisTaskStore;
  /** True while both connections are up. */
  readonly isReady: boolean;
  /**
   * Resolves once both connections are up (at once when they are); after an outage, once both
   * reconnected. Rejects after {@link RedisState.close}.
   */
  ready(): Promise<void>;
  /** Closes the connections this factory opened (not a `client` you gave). Idempotent. */
  close(): Promise<void>;
}

/**
 * Connects to Redis (one command connection and one Pub/Sub connection) and builds the five
 * stores on them. Commands never wait in an offline queue: while a connection is down, calls
 * reject at once with `StateUnavailableError`, whose `retryAfterMs` is `retryAfterMs` (default
 * `maxReconnectDelayMs`), and the connections reconnect in the background with backoff; once they
 * are back, everything works again, bus subscriptions included, without a new call here.
 *
 * @throws TypeError or RangeError for invalid options.
 * @throws (rejects) `StateUnavailableError` naming the URL (its password hidden) when Redis cannot
 *   be reached or does not answer within `connectTimeoutMs`.
 */
export async function createRedisState(options: RedisStateOptions = {}): Promise<RedisState> {
  checkObject("createRedisState", options);
  const owner = "createRedisState";
  const connectTimeoutMs = integerOption(
    owner,
    "connectTimeoutMs",
    options.connectTimeoutMs,
    DEFAULT_CONNECT_TIMEOUT_MS,
  );
  const maxDelayMs = integerOption(
    owner,
    "maxReconnectDelayMs",
    options.maxReconnectDelayMs,
    DEFAULT_MAX_RECONNECT_DELAY_MS,
  );
  const settings = storeSettings(owner, { ...options, retryAfterMs: options.retryAfterMs ?? maxDelayMs });
  const url = options.client === undefined ? (options.url ?? DEFAULT_REDIS_URL) : undefined;
  if (url !== undefined && typeof url !== "string") throw new TypeError(`${owner}: url must be a string`);
  const onError = options.onError ?? (() => {});
  if (typeof onError !== "function") throw new TypeError(`${owner}: onError must be a function`);
  // The stores' own options, checked before anything connects.
  integerOption(owner, "maxEventsPerStream", options.maxEventsPerStream, 1);
  integerOption(owner, "eventTtlMs", options.eventTtlMs, 1);
  integerOption(owner, "maxPending", options.maxPending, 1);
  const storeOptions: RedisStoreOptions = settings;

  const given = options.client;
  const command = given ?? ownClient(url as string, connectTimeoutMs, maxDelayMs);
  const subscriber =
    given === undefined ? ownClient(url as string, connectTimeoutMs, maxDelayMs) : given.duplicate();
  const opened = given === undefined ? [command, subscriber] : [subscriber];
  command.on("error", onError);
  subscriber.on("error", onError);
  const where = url === undefined ? "the given client's server" : redact(url);

  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all([connected(command), connected(subscriber)]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no connection within ${connectTimeoutMs} ms`)),
          connectTimeoutMs,
        );
      }),
    ]);
  } catch (error) {
    for (const client of opened) if (client.isOpen) client.destroy();
    command.off("error", onError);
    const reason = error instanceof Error ? error.message : String(error);
    throw new StateUnavailableError(`tsmcp-redis cannot connect to Redis at ${where}: ${reason}`, {
      cause: error,
      retryAfterMs: settings.retryAfterMs,
    });
  } finally {
    clearTimeout(timer);
  }

  let closed: Promise<void> | undefined;
  return {
    sessions: new RedisSessionStore(command, storeOptions),
    events: new RedisEventStore(command, {
      ...storeOptions,
      maxEventsPerStream: options.maxEventsPerStream,
      ttlMs: options.eventTtlMs,
    }),
    bus: new RedisMessageBus(command, subscriber, {
      ...storeOptions,
      maxPending: options.maxPending,
      onError,
    }),
    replayCache: new RedisReplayCache(command, storeOptions),
    tasks: new RedisTaskStore(command, storeOptions),
    get isReady() {
      return command.isReady && subscriber.isReady;
    },
    ready: async () => {
      if (closed !== undefined) throw new Error("createRedisState: ready() after close()");
      await Promise.all([whenReady(command), whenReady(subscriber)]);
    },
    close: () => {
      closed ??= (async () => {
        command.off("error", onError);
        await Promise.all(opened.map((client) => shut(client)));
        subscriber.off("error", onError);
      })();
      return closed;
    },
  };
}

/**
 * A client of ours: no offline queue, no client-info handshake, a connect timeout, and backoff once
 * it was connected.
 *
 * node-redis ignores the failures of the `CLIENT SETINFO` commands it sends while setting up a
 * connection, a failure of the connection itself included: a connection that dies then (Redis
 * killed while the client reconnects) would be taken as ready, and every command written to it
 * would wait forever. Without those commands, a connection is either ready or failed.
 */
function ownClient(url: string, connectTimeoutMs: number, maxDelayMs: number): RedisClientLike {
  let wasReady = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    disableClientInfo: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      // Before the first connection, give up at once: createRedisState reports it.
      reconnectStrategy: (retries: number, cause: Error) =>
        wasReady
          ? Math.min(50 * 2 ** Math.min(retries, 16), maxDelayMs) + Math.floor(Math.random() * 100)
          : cause,
    },
  });
  client.on("ready", () => {
    wasReady = true;
  });
  return client;
}

/**
 * Connects `client` unless it is connected or connecting; resolves once it is ready and Redis
 * answered a `PING` on it (a connection ready without the client-info handshake has exchanged
 * nothing with the server yet).
 */
async function connected(client: RedisClientLike): Promise<void> {
  if (!client.isOpen) await client.connect();
  await whenReady(client);
  await client.sendCommand(["PING"]);
}

/** Resolves once `client` is ready. */
function whenReady(client: RedisClientLike): Promise<void> {
  if (client.isReady) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const ready = () => {
      client.off("ready", ready);
      resolve();
    };
    client.on("ready", ready);
  });
}

/** Closes `client`: gracefully when it is up, at once when it is not. */
async function shut(client: RedisClientLike): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) await client.close();
  else client.destroy();
}

/** `url` with its password hidden. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unparseable URL)";
  }
}
