/**
 * The Redis `PendingCallStore`: parked calls shared by every process connected to the same Redis,
 * so a call parked by one host (or one run of the command) is resumed by another, exactly once.
 *
 * Layout: the hash `{keyPrefix}parked:{ticket}` holds the call as JSON (`c`) and its deadline
 * (`d`, epoch milliseconds); Redis forgets it {@link REDIS_EXPIRED_CALL_GRACE_MS} after the
 * deadline (until then a late claim is told `expired`, not `unknown`). A claim leaves the
 * tombstone `{keyPrefix}parked-claimed:{ticket}` (`{resumedAtMs}:{deadlineMs}`) that lives until
 * the deadline. The sorted set `{keyPrefix}parked` indexes the tickets by the instant their hash
 * goes away (and lives as long as its last one), so `list` reads the live ones without a key scan
 * and drops the gone ones.
 */
import {
  type ClaimResult,
  checkTicket,
  isParkedCall,
  type ParkedCall,
  type PendingCallStore,
} from "tsmcp/state";
import { type RedisClientLike, runCommand } from "./client.js";
import { checkClient, type RedisStoreOptions, type StoreSettings, storeSettings } from "./options.js";

/**
 * How long Redis keeps a parked call after its deadline, milliseconds: 1 hour. A claim in that
 * window is told `expired` (with the call); after it, `unknown`.
 */
export const REDIS_EXPIRED_CALL_GRACE_MS = 60 * 60 * 1000;

/** Options of a {@link RedisPendingCallStore}. */
export type RedisPendingCallStoreOptions = RedisStoreOptions;

/** The time on Redis's clock, in milliseconds (what PEXPIREAT follows). */
const NOW = `local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * KEYS: call, index. ARGV: ticket, the call's JSON, its deadline, the instant the hash goes away.
 * Replaces nothing a ticket names (tickets are random); drops index entries already gone.
 */
const PUT = `${NOW}redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now_ms())
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'c', ARGV[2], 'd', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[2], string.format('%d', tonumber(last[2])))
return 1`;

/**
 * KEYS: call, tombstone, index. ARGV: ticket, the caller's now (epoch ms). One atomic step: a
 * pending call is removed and, unless past its deadline, tombstoned until the deadline.
 * Answers {'claimed', json}, {'expired', json}, {'resumed', resumedAtMs} or {'unknown'}.
 */
const CLAIM = `local now = tonumber(ARGV[2])
local call = redis.call('HMGET', KEYS[1], 'c', 'd')
if not call[1] then
  local mark = redis.call('GET', KEYS[2])
  if not mark then return {'unknown'} end
  local at, deadline = string.match(mark, '^(%d+):(%d+)$')
  if not at or tonumber(deadline) <= now then
    redis.call('DEL', KEYS[2])
    return {'unknown'}
  end
  return {'resumed', at}
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[3], ARGV[1])
local deadline = tonumber(call[2])
if deadline <= now then return {'expired', call[1]} end
redis.call('SET', KEYS[2], string.format('%d:%d', now, deadline), 'PXAT', call[2])
return {'claimed', call[1]}`;

/** KEYS: index. ARGV: the call key's prefix. Drops the gone; answers each live call's JSON. */
const LIST = `${NOW}redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now_ms())
local out = {}
for _, ticket in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local json = redis.call('HGET', ARGV[1] .. ticket, 'c')
  if json then out[#out + 1] = json else redis.call('ZREM', KEYS[1], ticket) end
end
return out`;

/** KEYS: call, index. ARGV: ticket. Answers 1 when an unclaimed call was removed. */
const DELETE = `redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])`;

/**
 * A `PendingCallStore` on Redis (6.2 or later, for `PXAT`): every client process connected to the
 * same Redis sees the same parked calls, and a ticket is claimed once among all of them (one Lua
 * script removes the call and leaves its tombstone). Deadlines are judged on the `nowMs` the
 * caller passes; Redis forgets a call {@link REDIS_EXPIRED_CALL_GRACE_MS} after its deadline and a
 * tombstone at the deadline, on its own clock, so storage is bounded by the deadlines. The
 * `requestState` is the server's sealed token; the rest of a call (its arguments, its questions,
 * `meta`) is stored in clear: restrict who can read the Redis. A Redis that cannot be reached, or
 * refuses a command, rejects the call (`StateUnavailableError`): nothing is claimed twice.
 *
 * @throws TypeError for a client that is not a node-redis client or options of the wrong type;
 *   RangeError for a timeout below 1.
 */
export class RedisPendingCallStore implements PendingCallStore {
  readonly #client: RedisClientLike;
  readonly #settings: StoreSettings;

  /**
   * @param client a node-redis client (connected by the caller) whose commands the store sends.
   * @param options key prefix and command timeout.
   */
  constructor(client: RedisClientLike, options: RedisPendingCallStoreOptions = {}) {
    checkClient("RedisPendingCallStore", client);
    this.#client = client;
    this.#settings = storeSettings("RedisPendingCallStore", options);
  }

  /**
   * Saves a parked call under its ticket, until {@link REDIS_EXPIRED_CALL_GRACE_MS} after its deadline.
   *
   * @throws (rejects) TypeError for a call without the shape of a `ParkedCall` or with a malformed
   *   ticket; `StateUnavailableError` when Redis cannot be reached or refuses the write.
   */
  async put(call: ParkedCall): Promise<void> {
    if (!isParkedCall(call)) {
      checkTicket((call as { ticket?: unknown } | undefined)?.ticket);
      throw new TypeError("RedisPendingCallStore.put: not a parked call");
    }
    const goneAtMs = Math.ceil(call.deadlineMs) + REDIS_EXPIRED_CALL_GRACE_MS;
    await this.#eval(
      PUT,
      [this.#callKey(call.ticket), this.#indexKey()],
      [call.ticket, JSON.stringify(call), String(Math.ceil(call.deadlineMs)), String(goneAtMs)],
    );
  }

  /**
   * The unclaimed call under `ticket` (its deadline may be past), or `undefined`.
   *
   * @throws (rejects) TypeError for a malformed ticket; `StateUnavailableError` when Redis fails.
   */
  async get(ticket: string): Promise<ParkedCall | undefined> {
    checkTicket(ticket);
    const json = await runCommand<string | null>(this.#client, this.#settings, [
      "HGET",
      this.#callKey(ticket),
      "c",
    ]);
    return json === null ? undefined : parseCall(json);
  }

  /**
   * Claims `ticket` at `nowMs` (epoch milliseconds), exactly once across every process sharing
   * the Redis.
   *
   * @throws (rejects) TypeError for a malformed ticket or a non-finite `nowMs`;
   *   `StateUnavailableError` when Redis fails (nothing is claimed then).
   */
  async claim(ticket: string, nowMs: number): Promise<ClaimResult> {
    checkTicket(ticket);
    if (typeof nowMs !== "number" || !Number.isFinite(nowMs)) {
      throw new TypeError("RedisPendingCallStore.claim: nowMs must be a finite number of epoch milliseconds");
    }
    const [status, value] = await this.#eval<[string, string?]>(
      CLAIM,
      [this.#callKey(ticket), this.#tombstoneKey(ticket), this.#indexKey()],
      [ticket, String(Math.floor(nowMs))],
    );
    if (status === "resumed") return { status, resumedAtMs: Number(value) };
    if ((status === "claimed" || status === "expired") && value !== undefined) {
      const call = parseCall(value);
      if (call !== undefined) return { status, call };
    }
    return { status: "unknown" };
  }

  /**
   * Every unclaimed call whose deadline is after `nowMs`, oldest first.
   *
   * @throws (rejects) `StateUnavailableError` when Redis fails.
   */
  async list(nowMs: number): Promise<ParkedCall[]> {
    const found = await this.#eval<string[]>(
      LIST,
      [this.#indexKey()],
      [`${this.#settings.keyPrefix}parked:`],
    );
    return found
      .map(parseCall)
      .filter((call): call is ParkedCall => call !== undefined && call.deadlineMs > nowMs)
      .sort((a, b) => a.parkedAtMs - b.parkedAtMs);
  }

  /**
   * Removes an unclaimed call; `true` when there was one.
   *
   * @throws (rejects) TypeError for a malformed ticket; `StateUnavailableError` when Redis fails.
   */
  async delete(ticket: string): Promise<boolean> {
    checkTicket(ticket);
    const removed = await this.#eval<number>(DELETE, [this.#callKey(ticket), this.#indexKey()], [ticket]);
    return removed === 1;
  }

  #callKey(ticket: string): string {
    return `${this.#settings.keyPrefix}parked:${ticket}`;
  }

  #tombstoneKey(ticket: string): string {
    return `${this.#settings.keyPrefix}parked-claimed:${ticket}`;
  }

  #indexKey(): string {
    return `${this.#settings.keyPrefix}parked`;
  }

  #eval<T>(script: string, keys: readonly string[], args: readonly string[]): Promise<T> {
    return runCommand<T>(this.#client, this.#settings, [
      "EVAL",
      script,
      String(keys.length),
      ...keys,
      ...args,
    ]);
  }
}

/** The parked call a stored JSON text holds, or `undefined` for anything else. */
function parseCall(json: string): ParkedCall | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return isParkedCall(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
