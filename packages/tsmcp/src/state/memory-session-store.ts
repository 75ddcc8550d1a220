/**
 * The in-memory {@link SessionStore}: one process's handshake-era sessions, bounded and expiring.
 * A fleet shares a store instead (a request may reach another instance).
 */
import { type Clock, checkClock, systemClock } from "../protocol/clock.js";
import { checkInteger } from "../protocol/options.js";
import type { SessionChanges, SessionRecord, SessionStore } from "./session-store.js";

/** The default bound of a {@link MemorySessionStore}: 10 000 live sessions. */
export const DEFAULT_MEMORY_MAX_SESSIONS = 10_000;

/** Options of a {@link MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /** The most live sessions held at once, from 1. Default {@link DEFAULT_MEMORY_MAX_SESSIONS}. */
  maxSessions?: number;
  /** The time sessions expire against. Default the system clock. */
  clock?: Clock;
}

interface Entry {
  record: SessionRecord;
  expiresAtMs: number;
}

const copy = (record: SessionRecord): SessionRecord => structuredClone(record);

/**
 * A bounded, expiring {@link SessionStore} in memory. A session is gone once the clock reaches its
 * idle deadline (checked on access and when room is needed). With `maxSessions` live, `create`
 * drops expired ones first and otherwise rejects with a `RangeError` (the HTTP handler bounds its
 * sessions before it gets here).
 *
 * @throws TypeError for options of the wrong type; RangeError for a `maxSessions` below 1.
 */
export class MemorySessionStore implements SessionStore {
  /** The bound, in sessions. */
  readonly maxSessions: number;
  readonly #clock: Clock;
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemorySessionStoreOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError("MemorySessionStore options must be an object");
    }
    checkInteger("MemorySessionStore", "maxSessions", options.maxSessions, { min: 1, unit: "sessions" });
    checkClock("MemorySessionStore", options.clock);
    this.maxSessions = options.maxSessions ?? DEFAULT_MEMORY_MAX_SESSIONS;
    this.#clock = options.clock ?? systemClock;
  }

  /** How many sessions are held (expired ones included until they are swept). */
  get size(): number {
    return this.#entries.size;
  }

  async create(id: string, record: SessionRecord, idleTimeoutMs: number): Promise<void> {
    const now = this.#clock.now();
    if (!this.#entries.has(id) && this.#entries.size >= this.maxSessions) {
      for (const [key, entry] of this.#entries) if (entry.expiresAtMs <= now) this.#entries.delete(key);
      if (this.#entries.size >= this.maxSessions) {
        throw new RangeError(`MemorySessionStore holds its maximum of ${this.maxSessions} sessions`);
      }
    }
    this.#entries.set(id, { record: copy(record), expiresAtMs: now + idleTimeoutMs });
  }

  async get(id: string, idleTimeoutMs: number): Promise<SessionRecord | undefined> {
    const entry = this.#live(id);
    if (entry === undefined) return undefined;
    entry.expiresAtMs = this.#clock.now() + idleTimeoutMs;
    return copy(entry.record);
  }

  async update(id: string, changes: SessionChanges, idleTimeoutMs: number): Promise<boolean> {
    const entry = this.#live(id);
    if (entry === undefined) return false;
    const { subscribed = [], unsubscribed = [], ...facts } = changes;
    const subscriptions = new Set(entry.record.resourceSubscriptions);
    for (const uri of subscribed) subscriptions.add(uri);
    for (const uri of unsubscribed) subscriptions.delete(uri);
    entry.record = copy({ ...entry.record, ...facts, resourceSubscriptions: [...subscriptions] });
    entry.expiresAtMs = this.#clock.now() + idleTimeoutMs;
    return true;
  }

  async touch(id: string, idleTimeoutMs: number): Promise<boolean> {
    const entry = this.#live(id);
    if (entry === undefined) return false;
    entry.expiresAtMs = this.#clock.now() + idleTimeoutMs;
    return true;
  }

  async delete(id: string): Promise<boolean> {
    const had = this.#live(id) !== undefined;
    this.#entries.delete(id);
    return had;
  }

  #live(id: string): Entry | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAtMs <= this.#clock.now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry;
  }
}
