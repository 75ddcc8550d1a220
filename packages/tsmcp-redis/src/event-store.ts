/**
 * The Redis `EventStore`: one Redis Stream per session stream, trimmed to a length and
 * expiring, plus one set per session naming its streams.
 */
import { type EventStore, type EventsAfter, type StoredEvent, splitEventId } from "tsmcp/state";
import { type RedisClientLike, runCommand } from "./client.js";
import {
  checkClient,
  integerOption,
  keyPart,
  type RedisStoreOptions,
  type StoreSettings,
  storeSettings,
} from "./options.js";

/** A JSON-RPC message (`JSONRPCMessage` of `tsmcp/types`), as the EventStore seam names it. */
type JSONRPCMessage = NonNullable<Parameters<EventStore["append"]>[2]>;

/** Events kept per stream by default: 100. */
export const DEFAULT_REDIS_MAX_EVENTS_PER_STREAM = 100;
/** Milliseconds a stream is kept after its last event by default: 30 minutes. */
export const DEFAULT_REDIS_EVENT_TTL_MS = 30 * 60 * 1000;

/**
 * Appends one entry (field `m`: the message's JSON, empty for a priming event) trimmed to
 * ARGV[1] entries, restarts the TTL (ARGV[2]) of the stream, of its appendOnce keys and of the
 * session set, and records the stream id (ARGV[3]) in the set; returns the entry id.
 */
const APPEND_BODY = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'm', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[2])`;

const APPEND = `${APPEND_BODY}
return id`;

/**
 * `APPEND` unless the stream's sorted set of appendOnce keys (KEYS[3]) holds ARGV[5]: then
 * nil. The key is added scored by its entry id (milliseconds * 1024 + sequence, exact in a
 * double), and the set trimmed to the newest ARGV[1] keys, like the stream.
 */
const APPEND_ONCE = `if redis.call('ZSCORE', KEYS[3], ARGV[5]) then return false end
${APPEND_BODY}
local dash = string.find(id, '-', 1, true)
local score = tonumber(string.sub(id, 1, dash - 1)) * 1024 + math.min(tonumber(string.sub(id, dash + 1)), 1023)
redis.call('ZADD', KEYS[3], score, ARGV[5])
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -(tonumber(ARGV[1]) + 1))
redis.call('PEXPIRE', KEYS[3], ARGV[2])
return id`;

/** The stream's first entry id and its entries from ARGV[1] on; nil when the stream is not kept. */
const AFTER = `local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)
if #first == 0 then return false end
return {first[1][1], redis.call('XRANGE', KEYS[1], ARGV[1], '+')}`;

/** Forgets one stream, its appendOnce keys (KEYS[3]) and its name in the session set. */
const DROP_STREAM = `redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SREM', KEYS[2], ARGV[1])
return 1`;

/** Options of a {@link RedisEventStore}. */
export interface RedisEventStoreOptions extends RedisStoreOptions {
  /** Events kept per stream, from 1 (the oldest go first). Default {@link DEFAULT_REDIS_MAX_EVENTS_PER_STREAM}. */
  maxEventsPerStream?: number;
  /** Milliseconds a stream is kept after its last append, from 1. Default {@link DEFAULT_REDIS_EVENT_TTL_MS}. */
  ttlMs?: number;
}

/** A Redis Stream entry id, `{milliseconds}-{sequence}`, each part an unsigned 64-bit integer. */
const ENTRY_ID = /^(\d{1,20})-(\d{1,20})$/;
const U64_MAX = 2n ** 64n - 1n;

/** The parts of a Redis Stream entry id, or undefined when `position` is not one. */
function entryId(position: string): [bigint, bigint] | undefined {
  const match = ENTRY_ID.exec(position);
  if (match === null) return undefined;
  const parts: [bigint, bigint] = [BigInt(match[1] as string), BigInt(match[2] as string)];
  return parts[0] <= U64_MAX && parts[1] <= U64_MAX ? parts : undefined;
}

/** Whether entry id `a` comes before `b`. */
function before(a: [bigint, bigint], b: [bigint, bigint]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

/**
 * An `EventStore` on Redis Streams, shared by every replica connected to the same Redis.
 * Stream `streamId` of session `sessionId` is the Redis Stream
 * `{keyPrefix}events:{sessionId}:{streamId}` (the session id in braces, a Redis Cluster hash
 * tag, so a session's keys share a slot); `append` is `XADD ... MAXLEN maxEventsPerStream *`, so
 * event ids are `{streamId}_{entryId}` with Redis's entry id (`{ms}-{seq}`, no `_`), growing
 * within the stream. Each append restarts the stream's TTL (`ttlMs`) and that of the set
 * `{keyPrefix}events:{sessionId}` naming the session's streams, which `dropSession` reads.
 * `appendOnce` keys live in the sorted set `{stream key}:once` beside the stream, with the same
 * TTL, trimmed to the newest `maxEventsPerStream`: checking the key and appending is one Lua
 * script, so one key appends once across every replica.
 * `after` answers `XRANGE` from the id on; an id past the stream's last entry, or inside the kept
 * range but never handed out, is unknown (`undefined`); an id before the oldest entry kept gets
 * every entry kept.
 *
 * Every method rejects with `StateUnavailableError` (from `tsmcp/state`) when Redis cannot be
 * reached: at once while the connection is down, or after `commandTimeoutMs`.
 *
 * @throws TypeError for a client that is not a node-redis client or options of the wrong type;
 *   RangeError for a bound below 1.
 */
export class RedisEventStore implements EventStore {
  /** Events kept per stream. */
  readonly maxEventsPerStream: number;
  /** Milliseconds a stream is kept after its last append. */
  readonly ttlMs: number;
  readonly #client: RedisClientLike;
  readonly #settings: StoreSettings;

  /**
   * @param client a node-redis client (connected by the caller) whose commands the store sends.
   * @param options bounds, key prefix and command timeout.
   */
  constructor(client: RedisClientLike, options: RedisEventStoreOptions = {}) {
    checkClient("RedisEventStore", client);
    this.#client = client;
    this.#settings = storeSettings("RedisEventStore", options);
    this.maxEventsPerStream = integerOption(
      "RedisEventStore",
      "maxEventsPerStream",
      options.maxEventsPerStream,
      DEFAULT_REDIS_MAX_EVENTS_PER_STREAM,
    );
    this.ttlMs = integerOption("RedisEventStore", "ttlMs", options.ttlMs, DEFAULT_REDIS_EVENT_TTL_MS);
  }

  async append(sessionId: string, streamId: string, message: JSONRPCMessage | undefined): Promise<string> {
    const payload = message === undefined ? "" : JSON.stringify(message);
    const entry = await this.#eval<string>(APPEND, this.#keysOf(sessionId, streamId), [
      String(this.maxEventsPerStream),
      String(this.ttlMs),
      streamId,
      payload,
    ]);
    return `${streamId}_${entry}`;
  }

  async appendOnce(
    sessionId: string,
    streamId: string,
    onceKey: string,
    message: JSONRPCMessage,
  ): Promise<string | undefined> {
    if (typeof onceKey !== "string")
      throw new TypeError("RedisEventStore.appendOnce: onceKey must be a string");
    const entry = await this.#eval<string | null>(APPEND_ONCE, this.#keysOf(sessionId, streamId), [
      String(this.maxEventsPerStream),
      String(this.ttlMs),
      streamId,
      JSON.stringify(message),
      onceKey,
    ]);
    return typeof entry === "string" ? `${streamId}_${entry}` : undefined;
  }

  async after(sessionId: string, lastEventId: string): Promise<EventsAfter | undefined> {
    const split = splitEventId(lastEventId);
    const position = split === undefined ? undefined : entryId(split.position);
    if (split === undefined || position === undefined) return undefined;
    const reply = await this.#eval<[string, [string, string[]][]] | null>(
      AFTER,
      [this.#streamKey(sessionId, split.streamId)],
      [split.position],
    );
    if (!Array.isArray(reply)) return undefined;
    const [first, entries] = reply;
    if (entries.length === 0) return undefined;
    const [head] = entries;
    let kept = entries;
    if (head?.[0] === split.position) kept = entries.slice(1);
    // Not an entry: unknown unless it precedes the oldest entry kept (trimmed or forgotten).
    else if (!before(position, entryId(first) ?? [0n, 0n])) return undefined;
    return { streamId: split.streamId, events: kept.map((entry) => this.#event(split.streamId, entry)) };
  }

  async dropStream(sessionId: string, streamId: string): Promise<void> {
    await this.#eval(DROP_STREAM, this.#keysOf(sessionId, streamId), [streamId]);
  }

  async dropSession(sessionId: string): Promise<void> {
    const setKey = this.#setKey(sessionId);
    const streams = await runCommand<string[]>(this.#client, this.#settings, ["SMEMBERS", setKey]);
    const keys = streams.flatMap((streamId) => {
      const stream = this.#streamKey(sessionId, streamId);
      return [stream, `${stream}:once`];
    });
    await runCommand(this.#client, this.#settings, ["DEL", ...keys, setKey]);
  }

  #event(streamId: string, [id, fields]: [string, string[]]): StoredEvent {
    const payload = fields[fields.indexOf("m") + 1] ?? "";
    return {
      id: `${streamId}_${id}`,
      message: payload === "" ? undefined : (JSON.parse(payload) as JSONRPCMessage),
    };
  }

  #setKey(sessionId: string): string {
    return `${this.#settings.keyPrefix}events:{${keyPart(sessionId)}}`;
  }

  #streamKey(sessionId: string, streamId: string): string {
    return `${this.#setKey(sessionId)}:${keyPart(streamId)}`;
  }

  /** The keys of one stream: its entries, its session's set of streams, its appendOnce keys. */
  #keysOf(sessionId: string, streamId: string): string[] {
    const stream = this.#streamKey(sessionId, streamId);
    return [stream, this.#setKey(sessionId), `${stream}:once`];
  }

  #eval<T>(script: string, keys: string[], args: string[]): Promise<T> {
    return runCommand<T>(this.#client, this.#settings, [
      "EVAL",
      script,
      String(keys.length),
      ...keys,
      ...args,
    ]);
  }
}
