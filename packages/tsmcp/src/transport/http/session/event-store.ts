/**
 * Where a session keeps the SSE events it sent, so that a client that lost a stream can resume it
 * with `Last-Event-ID` and get what followed on that stream only. Event ids name their stream
 * (`{streamId}_{sequence}`), so one id is enough to find the stream and the place in it. Spec
 * (2025-11-25): basic/transports §Resumability and Redelivery (ids unique across the session's
 * streams, replay only what the disconnected stream would have carried).
 */
import type { JSONRPCMessage } from "../../../protocol/jsonrpc.js";

/** One stored event: its id and its message (`undefined` for a priming event, which has no data). */
export interface StoredEvent {
  readonly id: string;
  readonly message: JSONRPCMessage | undefined;
}

/**
 * The events of one session's SSE streams. Synchronous: a stream writes an event the moment the
 * dispatcher sends it. One store per session; ids only need to be unique within it.
 */
export interface EventStore {
  /** Stores `message` (or a priming event, `undefined`) as the next event of `streamId`; returns its id. */
  append(streamId: string, message: JSONRPCMessage | undefined): string;
  /**
   * The stream `lastEventId` belongs to and the events it kept after that one, oldest first;
   * `undefined` when the id names no stream the store knows, or a place in it beyond the last
   * event appended (an id the store never gave out).
   */
  after(lastEventId: string): { streamId: string; events: StoredEvent[] } | undefined;
  /** Forgets the events of `streamId`. */
  drop(streamId: string): void;
}

interface StreamEvents {
  next: number;
  events: { sequence: number; event: StoredEvent }[];
}

/**
 * The default {@link EventStore}: in memory, at most `maxEventsPerStream` events per stream (the
 * oldest go first; a client resuming from before them gets the ones still kept).
 */
export class InMemoryEventStore implements EventStore {
  readonly #streams = new Map<string, StreamEvents>();
  readonly #max: number;

  constructor(maxEventsPerStream: number) {
    this.#max = maxEventsPerStream;
  }

  append(streamId: string, message: JSONRPCMessage | undefined): string {
    let stream = this.#streams.get(streamId);
    if (stream === undefined) {
      stream = { next: 0, events: [] };
      this.#streams.set(streamId, stream);
    }
    const sequence = stream.next++;
    const event = { id: `${streamId}_${sequence}`, message };
    stream.events.push({ sequence, event });
    if (stream.events.length > this.#max) stream.events.shift();
    return event.id;
  }

  after(lastEventId: string): { streamId: string; events: StoredEvent[] } | undefined {
    const cut = lastEventId.lastIndexOf("_");
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const sequenceText = lastEventId.slice(cut + 1);
    if (!/^\d{1,15}$/.test(sequenceText)) return undefined;
    const stream = this.#streams.get(streamId);
    if (stream === undefined) return undefined;
    const sequence = Number(sequenceText);
    // An id the stream never handed out is no place in it.
    if (sequence >= stream.next) return undefined;
    return {
      streamId,
      events: stream.events.filter((entry) => entry.sequence > sequence).map((entry) => entry.event),
    };
  }

  drop(streamId: string): void {
    this.#streams.delete(streamId);
  }
}
