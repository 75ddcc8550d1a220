/**
 * The EventStore seam: where a session keeps the SSE events it sent, so that a client that lost a
 * stream resumes it with `Last-Event-ID`, on this replica or another, and gets what followed on
 * that stream only. Event ids name their stream, so one id finds the stream and the place in it.
 * The in-memory default ({@link MemoryEventStore}) serves one process; a shared engine (Redis
 * Streams) serves a fleet. Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#resumability-and-redelivery
 * (ids unique across the session's streams; replay only what the disconnected stream would have
 * carried).
 */
import type { JSONRPCMessage } from "../protocol/jsonrpc.js";

/** One stored event: its id and its message (`undefined` for a priming event, which has no data). */
export interface StoredEvent {
  readonly id: string;
  readonly message: JSONRPCMessage | undefined;
}

/** The events a stream kept after a client's `Last-Event-ID`. */
export interface EventsAfter {
  /** The stream the id belongs to. */
  readonly streamId: string;
  /** Its events after that id, oldest first. */
  readonly events: StoredEvent[];
}

/**
 * The SSE events of every session's streams, keyed by session id and stream id.
 *
 * Guarantees an implementation gives (the shared contract suite checks them):
 *
 * - **Ids.** `append` returns an id unique within the session, of the form `{streamId}_{position}`
 *   where `position` is text without `_`; positions grow within a stream.
 * - **Order.** Events of one stream come back in the order their `append`s resolved.
 * - **Bounded.** At most `maxEventsPerStream` events per stream are kept, the oldest dropped
 *   first; a client resuming from before them gets the ones still kept.
 * - **Expiring.** A stream is forgotten `ttlMs` after its last `append` (a session's streams die
 *   with it).
 * - **Unknown ids.** `after` resolves `undefined` for an id that names no stream kept for that
 *   session, or a place beyond the last event appended (an id never given out); an id of another
 *   session is unknown.
 * - **Once per key.** `appendOnce` with a key already used for that session (while its stream
 *   lives) appends nothing, atomically across every instance sharing the store: replicas that each
 *   hold a view of a session can all deliver one broadcast and the client still sees it once.
 * - **Failures reject** (`StateUnavailableError` when the engine cannot be reached).
 */
export interface EventStore {
  /**
   * Stores `message` (or a priming event, `undefined`) as the next event of stream `streamId` of
   * session `sessionId`; resolves with its id.
   */
  append(sessionId: string, streamId: string, message: JSONRPCMessage | undefined): Promise<string>;
  /**
   * {@link append}, unless an `appendOnce` of session `sessionId` already used `onceKey` (while
   * the stream lives): then nothing is stored and the promise resolves `undefined`.
   */
  appendOnce(
    sessionId: string,
    streamId: string,
    onceKey: string,
    message: JSONRPCMessage,
  ): Promise<string | undefined>;
  /** The stream `lastEventId` names in session `sessionId` and its events after it (see above). */
  after(sessionId: string, lastEventId: string): Promise<EventsAfter | undefined>;
  /** Forgets the events of one stream. */
  dropStream(sessionId: string, streamId: string): Promise<void>;
  /** Forgets the events of every stream of a session. */
  dropSession(sessionId: string): Promise<void>;
}

/**
 * Splits an event id `{streamId}_{position}` at its last `_`; undefined when it has no such shape.
 * Shared by the implementations, so they agree on what an id names.
 */
export function splitEventId(eventId: string): { streamId: string; position: string } | undefined {
  const cut = eventId.lastIndexOf("_");
  if (cut <= 0 || cut === eventId.length - 1) return undefined;
  return { streamId: eventId.slice(0, cut), position: eventId.slice(cut + 1) };
}
