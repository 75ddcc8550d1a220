/**
 * The in-memory {@link EventStore}: one process's SSE events, bounded per stream and expiring.
 */
import { type Clock, checkClock, systemClock } from "../protocol/clock.js";
import type { JSONRPCMessage } from "../protocol/jsonrpc.js";
import { checkInteger } from "../protocol/options.js";
import { type EventStore, type EventsAfter, type StoredEvent, splitEventId } from "./event-store.js";

/** Events kept per stream by default: 100. */
export const DEFAULT_MAX_EVENTS_PER_STREAM = 100;
/** Milliseconds a stream is kept after its last event by default: 30 minutes. */
export const DEFAULT_EVENT_TTL_MS = 30 * 60 * 1000;

/** Options of a {@link MemoryEventStore}. */
export interface MemoryEventStoreOptions {
  /** Events kept per stream, from 1 (the oldest go first). Default {@link DEFAULT_MAX_EVENTS_PER_STREAM}. */
  maxEventsPerStream?: number;
  /** Milliseconds a stream is kept after its last append, from 1. Default {@link DEFAULT_EVENT_TTL_MS}. */
  ttlMs?: number;
  /** The time streams expire against. Default the system clock. */
  clock?: Clock;
}

interface StreamEvents {
  next: number;
  /** The `appendOnce` keys used on this stream. */
  onceKeys: Set<string>;
  expiresAtMs: number;
  events: { sequence: number; event: StoredEvent }[];
}

/**
 * A bounded, expiring {@link EventStore} in memory. Positions are decimal sequence numbers from 0.
 * Expired streams are swept on access to their session.
 *
 * @throws TypeError for options of the wrong type; RangeError for a bound below 1.
 */
export class MemoryEventStore implements EventStore {
  /** Events kept per stream. */
  readonly maxEventsPerStream: number;
  /** Milliseconds a stream is kept after its last append. */
  readonly ttlMs: number;
  readonly #clock: Clock;
  /** Session id -> stream id -> events. */
  readonly #sessions = new Map<string, Map<string, StreamEvents>>();

  constructor(options: MemoryEventStoreOptions = {}) {
    if (typeof options !== "object" || options === null) {
      throw new TypeError("MemoryEventStore options must be an object");
    }
    checkInteger("MemoryEventStore", "maxEventsPerStream", options.maxEventsPerStream, {
      min: 1,
      unit: "events",
    });
    checkInteger("MemoryEventStore", "ttlMs", options.ttlMs, { min: 1, unit: "milliseconds" });
    checkClock("MemoryEventStore", options.clock);
    this.maxEventsPerStream = options.maxEventsPerStream ?? DEFAULT_MAX_EVENTS_PER_STREAM;
    this.ttlMs = options.ttlMs ?? DEFAULT_EVENT_TTL_MS;
    this.#clock = options.clock ?? systemClock;
  }

  async append(sessionId: string, streamId: string, message: JSONRPCMessage | undefined): Promise<string> {
    return this.appendNow(sessionId, streamId, message);
  }

  /** {@link append}, synchronously: the in-memory store needs no wait. */
  appendNow(sessionId: string, streamId: string, message: JSONRPCMessage | undefined): string {
    let streams = this.#sessions.get(sessionId);
    if (streams === undefined) {
      streams = new Map();
      this.#sessions.set(sessionId, streams);
    }
    let stream = streams.get(streamId);
    if (stream === undefined) {
      stream = { next: 0, onceKeys: new Set(), expiresAtMs: 0, events: [] };
      streams.set(streamId, stream);
    }
    const now = this.#clock.now();
    // A stream forgotten at its expiry starts afresh, its events and appendOnce keys gone; its
    // counter goes on, so ids stay unique.
    if (stream.expiresAtMs <= now) {
      stream.events = [];
      stream.onceKeys.clear();
    }
    stream.expiresAtMs = now + this.ttlMs;
    const sequence = stream.next++;
    const event: StoredEvent = {
      id: `${streamId}_${sequence}`,
      message: message === undefined ? undefined : structuredClone(message),
    };
    stream.events.push({ sequence, event });
    if (stream.events.length > this.maxEventsPerStream) stream.events.shift();
    return event.id;
  }

  async appendOnce(
    sessionId: string,
    streamId: string,
    onceKey: string,
    message: JSONRPCMessage,
  ): Promise<string | undefined> {
    const stream = this.#sweep(sessionId)?.get(streamId);
    if (stream?.onceKeys.has(onceKey)) return undefined;
    const id = this.appendNow(sessionId, streamId, message);
    const keys = this.#sessions.get(sessionId)?.get(streamId)?.onceKeys;
    keys?.add(onceKey);
    // Bounded like the events: a key older than every kept event guards nothing a replica still sends.
    if (keys !== undefined && keys.size > this.maxEventsPerStream) {
      keys.delete(keys.values().next().value as string);
    }
    return id;
  }

  async after(sessionId: string, lastEventId: string): Promise<EventsAfter | undefined> {
    const split = splitEventId(lastEventId);
    if (split === undefined || !/^\d{1,15}$/.test(split.position)) return undefined;
    const streams = this.#sweep(sessionId);
    const stream = streams?.get(split.streamId);
    if (stream === undefined) return undefined;
    const sequence = Number(split.position);
    // An id the stream never handed out is no place in it.
    if (sequence >= stream.next) return undefined;
    return {
      streamId: split.streamId,
      events: stream.events
        .filter((entry) => entry.sequence > sequence)
        .map(({ event }) => ({
          id: event.id,
          message: event.message === undefined ? undefined : structuredClone(event.message),
        })),
    };
  }

  async dropStream(sessionId: string, streamId: string): Promise<void> {
    const streams = this.#sessions.get(sessionId);
    streams?.delete(streamId);
    if (streams?.size === 0) this.#sessions.delete(sessionId);
  }

  async dropSession(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  /** The live streams of a session, the expired ones dropped. */
  #sweep(sessionId: string): Map<string, StreamEvents> | undefined {
    const streams = this.#sessions.get(sessionId);
    if (streams === undefined) return undefined;
    const now = this.#clock.now();
    for (const [id, stream] of streams) if (stream.expiresAtMs <= now) streams.delete(id);
    if (streams.size === 0) this.#sessions.delete(sessionId);
    return streams;
  }
}
