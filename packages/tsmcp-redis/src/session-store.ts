/**
 * The Redis `SessionStore`: one hash per session, its idle timeout the key's TTL, so Redis
 * itself forgets a session that nobody used.
 */
import type { SessionChanges, SessionRecord, SessionStore } from "tsmcp/state";
import { type RedisClientLike, runCommand } from "./client.js";
import {
  checkClient,
  integerOption,
  keyPart,
  type RedisStoreOptions,
  type StoreSettings,
  storeSettings,
} from "./options.js";

/** The prefix of the hash field of each subscribed resource URI (the fact fields never start so). */
const SUBSCRIPTION = "sub:";

/** Replaces the hash with the record's fields and sets its TTL. */
const CREATE = `redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/** The hash's fields, its TTL restarted when it exists. */
const GET = `local fields = redis.call('HGETALL', KEYS[1])
if #fields > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return fields`;

/**
 * Applies changes to an existing hash only (ARGV: TTL, the count n of fields to clear, those n
 * fields, then field/value pairs to set), and restarts its TTL; 0 when there is no such hash.
 */
const UPDATE = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local cleared = tonumber(ARGV[2])
if cleared > 0 then redis.call('HDEL', KEYS[1], unpack(ARGV, 3, 2 + cleared)) end
if #ARGV > 2 + cleared then redis.call('HSET', KEYS[1], unpack(ARGV, 3 + cleared)) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/** Options of a {@link RedisSessionStore}. */
export type RedisSessionStoreOptions = RedisStoreOptions;

/**
 * A `SessionStore` on Redis, shared by every replica connected to the same Redis. Session
 * `id` lives in the hash `{keyPrefix}session:{id}` (one field per `SessionRecord` fact, its
 * value JSON, and one field `sub:{uri}` per subscribed resource URI), whose TTL is the idle timeout: Redis forgets it `idleTimeoutMs` after the last
 * `create`, `get`, `update` or `touch`. `update` runs as one Lua script that changes the hash only
 * if it still exists, and `touch` is a `PEXPIRE` (which never creates a key), so a deleted or
 * expired session is never brought back. Concurrent updates of different facts both land (each
 * fact is its own field); of the same fact, the last one Redis runs wins.
 *
 * Every method rejects with `StateUnavailableError` (from `tsmcp/state`) when Redis cannot be
 * reached: at once while the connection is down, or after `commandTimeoutMs`.
 *
 * @throws TypeError for a client that is not a node-redis client or options of the wrong type;
 *   RangeError for a timeout below 1.
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisClientLike;
  readonly #settings: StoreSettings;

  /**
   * @param client a node-redis client (connected by the caller) whose commands the store sends.
   * @param options key prefix and command timeout.
   */
  constructor(client: RedisClientLike, options: RedisSessionStoreOptions = {}) {
    checkClient("RedisSessionStore", client);
    this.#client = client;
    this.#settings = storeSettings("RedisSessionStore", options);
  }

  /** The Redis key of session `id`. */
  keyOf(id: string): string {
    return `${this.#settings.keyPrefix}session:${keyPart(id)}`;
  }

  async create(id: string, record: SessionRecord, idleTimeoutMs: number): Promise<void> {
    const ttl = ttlOf(idleTimeoutMs);
    const { resourceSubscriptions, ...facts } = record;
    const fields = Object.entries(facts).flatMap(([name, value]) =>
      value === undefined ? [] : [name, JSON.stringify(value)],
    );
    for (const uri of resourceSubscriptions ?? []) fields.push(`${SUBSCRIPTION}${uri}`, "1");
    if (fields.length === 0) throw new TypeError("RedisSessionStore.create: the record has no facts");
    await this.#eval(CREATE, id, [ttl, ...fields]);
  }

  async get(id: string, idleTimeoutMs: number): Promise<SessionRecord | undefined> {
    const fields = await this.#eval<string[]>(GET, id, [ttlOf(idleTimeoutMs)]);
    if (!Array.isArray(fields) || fields.length === 0) return undefined;
    const record: Record<string, unknown> = {};
    const subscriptions: string[] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const name = fields[i] as string;
      if (name.startsWith(SUBSCRIPTION)) subscriptions.push(name.slice(SUBSCRIPTION.length));
      else record[name] = JSON.parse(fields[i + 1] as string);
    }
    record.resourceSubscriptions = subscriptions;
    return record as unknown as SessionRecord;
  }

  async update(id: string, changes: SessionChanges, idleTimeoutMs: number): Promise<boolean> {
    const ttl = ttlOf(idleTimeoutMs);
    const cleared: string[] = [];
    const set: string[] = [];
    const { subscribed = [], unsubscribed = [], ...facts } = changes;
    for (const [name, value] of Object.entries(facts)) {
      if (value === undefined) cleared.push(name);
      else set.push(name, JSON.stringify(value));
    }
    // One field per subscribed URI: subscriptions made at once on several replicas all stay.
    const removed = new Set(unsubscribed);
    for (const uri of subscribed) if (!removed.has(uri)) set.push(`${SUBSCRIPTION}${uri}`, "1");
    for (const uri of removed) cleared.push(`${SUBSCRIPTION}${uri}`);
    const applied = await this.#eval<number>(UPDATE, id, [ttl, String(cleared.length), ...cleared, ...set]);
    return applied === 1;
  }

  async touch(id: string, idleTimeoutMs: number): Promise<boolean> {
    const ttl = ttlOf(idleTimeoutMs);
    return (await runCommand<number>(this.#client, this.#settings, ["PEXPIRE", this.keyOf(id), ttl])) === 1;
  }

  async delete(id: string): Promise<boolean> {
    return (await runCommand<number>(this.#client, this.#settings, ["DEL", this.keyOf(id)])) === 1;
  }

  #eval<T>(script: string, id: string, args: string[]): Promise<T> {
    return runCommand<T>(this.#client, this.#settings, ["EVAL", script, "1", this.keyOf(id), ...args]);
  }
}

/** `idleTimeoutMs` as a PEXPIRE argument. */
function ttlOf(idleTimeoutMs: number): string {
  if (idleTimeoutMs === undefined) throw new TypeError("RedisSessionStore: idleTimeoutMs is required");
  return String(integerOption("RedisSessionStore", "idleTimeoutMs", idleTimeoutMs, 1));
}
