/**
 * The in-memory {@link ReplayCache}: one process's single-use state ids, bounded and expiring. A
 * fleet shares a store instead (a retry may reach another instance).
 */
import { type Clock, checkClock, systemClock } from "../protocol/clock.js";
import { checkInteger } from "../protocol/options.js";
import { ReplayCacheFullError } from "./errors.js";
import type { ReplayCache } from "./replay-cache.js";

/** The default bound of a {@link MemoryReplayCache}: 10 000 live entries. */
export const DEFAULT_REPLAY_CACHE_MAX_ENTRIES = 10_000;

/** Options of a {@link MemoryReplayCache}. */
export interface MemoryReplayCacheOptions {
  /** The most entries held at once, from 1. Default {@link DEFAULT_REPLAY_CACHE_MAX_ENTRIES}. */
  maxEntries?: number;
  /** The time entries expire against. Default the system clock. */
  clock?: Clock;
}

/**
 * A bounded, expiring {@link ReplayCache} in memory. `markUsed` checks and sets in one synchronous
 * step, so first use is atomic within the process. An entry is forgotten once the clock reaches its
 * `expiresAtMs`. When `maxEntries` entries are held, expired ones are dropped first; if every entry
 * is still live, `markUsed` rejects with {@link ReplayCacheFullError} (the state is refused) rather
 * than evict a live entry and let its state run again. Size it for the single-use rounds minted
 * within one state lifetime (`RequestStateSecurity` `ttlMs`, default 10 minutes).
 *
 * @throws TypeError for options of the wrong type; RangeError for a `maxEntries` below 1.
 */
export class MemoryReplayCache implements ReplayCache {
  /** The bound, in entries. */
  readonly maxEntries: number;
  readonly #clock: Clock;
  /** Id -> expiry (epoch milliseconds). */
  readonly #entries = new Map<string, number>();

  constructor(options: MemoryReplayCacheOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError("MemoryReplayCache options must be an object");
    }
    checkInteger("MemoryReplayCache", "maxEntries", options.maxEntries, { min: 1, unit: "entries" });
    checkClock("MemoryReplayCache", options.clock);
    this.maxEntries = options.maxEntries ?? DEFAULT_REPLAY_CACHE_MAX_ENTRIES;
    this.#clock = options.clock ?? systemClock;
  }

  /** How many entries are held (expired ones included until they are swept). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * {@inheritDoc ReplayCache.markUsed}
   *
   * @throws (rejects) TypeError for an empty or non-string `id` or a non-finite `expiresAtMs`;
   *   {@link ReplayCacheFullError} when every one of `maxEntries` entries is live.
   */
  async markUsed(id: string, expiresAtMs: number): Promise<boolean> {
    return this.#markUsedNow(id, expiresAtMs);
  }

  #markUsedNow(id: string, expiresAtMs: number): boolean {
    if (typeof id !== "string" || id === "") throw new TypeError("markUsed: id must be a non-empty string");
    if (typeof expiresAtMs !== "number" || !Number.isFinite(expiresAtMs)) {
      throw new TypeError("markUsed: expiresAtMs must be a finite number of epoch milliseconds");
    }
    const now = this.#clock.now();
    const known = this.#entries.get(id);
    if (known !== undefined) {
      if (now < known) return false;
      this.#entries.delete(id);
    }
    if (expiresAtMs <= now) return true;
    if (this.#entries.size >= this.maxEntries) {
      this.#sweep(now);
      if (this.#entries.size >= this.maxEntries) throw new ReplayCacheFullError(this.maxEntries);
    }
    this.#entries.set(id, expiresAtMs);
    return true;
  }

  /** Drops every entry whose expiry has passed. */
  #sweep(now: number): void {
    for (const [id, expiresAtMs] of this.#entries) {
      if (expiresAtMs <= now) this.#entries.delete(id);
    }
  }
}
