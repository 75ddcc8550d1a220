/**
 * The Redis `ReplayCache`: one key per used `requestState` id, set once with `SET NX PXAT`.
 */
import type { ReplayCache } from "tsmcp/state";
import { type RedisClientLike, runCommand } from "./client.js";
import {
  checkClient,
  keyPart,
  type RedisStoreOptions,
  type StoreSettings,
  storeSettings,
} from "./options.js";

/** Options of a {@link RedisReplayCache}. */
export type RedisReplayCacheOptions = RedisStoreOptions;

/**
 * A `ReplayCache` on Redis, shared by every replica connected to the same Redis (Redis 6.2 or
 * later, for `PXAT`). `markUsed(id, expiresAtMs)` is the single atomic command
 * `SET {keyPrefix}replay:{id} 1 NX PXAT expiresAtMs`: exactly one call per id succeeds while the
 * key lives, on every replica, and Redis forgets the key at `expiresAtMs` (its own clock). An
 * `expiresAtMs` already past (by this process's clock) is not stored. Storage is bounded by the
 * state lifetime; a Redis that refuses the write (out of memory, unreachable) rejects the call,
 * and the state is refused (fail closed).
 *
 * @throws TypeError for a client that is not a node-redis client or options of the wrong type;
 *   RangeError for a timeout below 1.
 */
export class RedisReplayCache implements ReplayCache {
  readonly #client: RedisClientLike;
  readonly #settings: StoreSettings;

  /**
   * @param client a node-redis client (connected by the caller) whose commands the cache sends.
   * @param options key prefix and command timeout.
   */
  constructor(client: RedisClientLike, options: RedisReplayCacheOptions = {}) {
    checkClient("RedisReplayCache", client);
    this.#client = client;
    this.#settings = storeSettings("RedisReplayCache", options);
  }

  /**
   * Marks `id` as used until `expiresAtMs` (epoch milliseconds), atomically across every replica.
   *
   * @param id the state's unique id (opaque, at most a few dozen URL-safe characters).
   * @param expiresAtMs when the entry may be forgotten: the state's expiry, epoch milliseconds.
   * @returns `true` the first time `id` is marked (while its entry lives), `false` after.
   * @throws (rejects) TypeError for an empty or non-string `id` or a non-finite `expiresAtMs`;
   *   `StateUnavailableError` (from `tsmcp/state`) when Redis cannot be reached or refuses the write.
   */
  async markUsed(id: string, expiresAtMs: number): Promise<boolean> {
    if (typeof id !== "string" || id === "") throw new TypeError("markUsed: id must be a non-empty string");
    if (typeof expiresAtMs !== "number" || !Number.isFinite(expiresAtMs)) {
      throw new TypeError("markUsed: expiresAtMs must be a finite number of epoch milliseconds");
    }
    const at = Math.ceil(expiresAtMs);
    if (at <= Date.now()) return true;
    const key = `${this.#settings.keyPrefix}replay:${keyPart(id)}`;
    const reply = await runCommand<string | null>(this.#client, this.#settings, [
      "SET",
      key,
      "1",
      "NX",
      "PXAT",
      String(at),
    ]);
    return reply === "OK";
  }
}
