/**
 * The handler's resolved state: the stores of its sessions (given, or the in-memory defaults), the
 * bus between replicas when there is one, and this handler's instance id. Spec (2025-11-25):
 * basic/transports §Session Management, §Resumability and Redelivery.
 */
import { optionTypeError } from "../../../protocol/options.js";
import type { EventStore } from "../../../state/event-store.js";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import { MemorySessionStore } from "../../../state/memory-session-store.js";
import type { MessageBus } from "../../../state/message-bus.js";
import type { SessionStore } from "../../../state/session-store.js";
import { isEventStore, isMessageBus, isSessionStore, type StateStores } from "../../../state/stores.js";

/** The state one handler serves its sessions from. */
export interface SessionState {
  readonly sessions: SessionStore;
  readonly events: EventStore;
  /** The bus between replicas; undefined when none was given (one process). */
  readonly bus: MessageBus | undefined;
  /**
   * True when the stores are shared with other replicas (the `state` option named one): a session
   * this handler does not hold may be served from the store, and dropping a local view of a
   * session does not end it.
   */
  readonly shared: boolean;
  /** This handler's id among the replicas: random, unique per handler built. */
  readonly instanceId: string;
}

/**
 * Checks the `state` option and fills in the in-memory defaults: a session store holding at least
 * `maxSessions` sessions, an event store keeping `maxQueuedEvents` events per stream for as long
 * as a session may stay idle.
 *
 * @throws TypeError when `state` is not an object or one of its stores lacks a method.
 */
export function resolveState(
  owner: string,
  state: StateStores | undefined,
  bounds: {
    readonly maxSessions: number;
    readonly maxQueuedEvents: number;
    readonly sessionIdleTimeoutMs: number;
  },
): SessionState {
  if (state !== undefined && (typeof state !== "object" || state === null)) {
    throw optionTypeError(owner, "state", "an object of stores ({ sessions, events, bus })");
  }
  const { sessions, events, bus } = state ?? {};
  if (sessions !== undefined && !isSessionStore(sessions)) {
    throw optionTypeError(owner, "state.sessions", "a SessionStore (create, get, update, touch, delete)");
  }
  if (events !== undefined && !isEventStore(events)) {
    throw optionTypeError(owner, "state.events", "an EventStore (append, after, dropStream, dropSession)");
  }
  if (bus !== undefined && !isMessageBus(bus)) {
    throw optionTypeError(owner, "state.bus", "a MessageBus (publish, subscribe)");
  }
  return {
    sessions: sessions ?? new MemorySessionStore({ maxSessions: bounds.maxSessions }),
    events:
      events ??
      new MemoryEventStore({
        maxEventsPerStream: bounds.maxQueuedEvents,
        ttlMs: bounds.sessionIdleTimeoutMs,
      }),
    bus,
    shared: sessions !== undefined || events !== undefined || bus !== undefined,
    instanceId: crypto.randomUUID().slice(0, 8),
  };
}
