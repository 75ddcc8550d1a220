/**
 * `tsmcp/state`: the state seams, the small asynchronous interfaces through which everything a
 * server keeps between requests goes, with their in-memory defaults. One process needs nothing
 * from here; a fleet gives shared implementations (the `tsmcp-redis` package, say) to the HTTP
 * handler's `state` option, and any replica then serves any handshake-era session.
 *
 * - {@link SessionStore}: a 2025-11-25 session's facts;
 * - {@link EventStore}: each session stream's events, for `Last-Event-ID` resumption;
 * - {@link MessageBus}: publish/subscribe between replicas;
 * - {@link ReplayCache}: single-use `requestState` ids;
 * - {@link TaskStore}: tasks, their status, input and results, with a lease per running task;
 * - {@link PendingCallStore} (client side): parked multi-round-trip calls, resumed once in any process.
 *
 * Each interface's TSDoc states the guarantees an implementation gives.
 *
 * @packageDocumentation
 */
export { isStateUnavailable, ReplayCacheFullError, StateUnavailableError } from "./errors.js";
export { type EventStore, type EventsAfter, type StoredEvent, splitEventId } from "./event-store.js";
export {
  DEFAULT_EVENT_TTL_MS,
  DEFAULT_MAX_EVENTS_PER_STREAM,
  MemoryEventStore,
  type MemoryEventStoreOptions,
} from "./memory-event-store.js";
export {
  DEFAULT_MEMORY_BUS_MAX_PENDING,
  MemoryMessageBus,
  type MemoryMessageBusOptions,
} from "./memory-message-bus.js";
export {
  DEFAULT_REPLAY_CACHE_MAX_ENTRIES,
  MemoryReplayCache,
  type MemoryReplayCacheOptions,
} from "./memory-replay-cache.js";
export {
  DEFAULT_MEMORY_MAX_SESSIONS,
  MemorySessionStore,
  type MemorySessionStoreOptions,
} from "./memory-session-store.js";
export {
  DEFAULT_MEMORY_MAX_TASK_BYTES,
  DEFAULT_MEMORY_MAX_TASKS,
  MemoryTaskStore,
  type MemoryTaskStoreOptions,
} from "./memory-task-store.js";
export type { BusMessage, BusSubscribeOptions, BusSubscription, MessageBus } from "./message-bus.js";
export {
  type ClaimResult,
  checkTicket,
  DEFAULT_PARK_TTL_MS,
  isParkedCall,
  isPendingCallStore,
  MemoryPendingCallStore,
  newTicket,
  type ParkedCall,
  type ParkedJson,
  type PendingCallStore,
  TICKET_PATTERN,
} from "./pending-calls.js";
export type { ReplayCache } from "./replay-cache.js";
export type { SessionChanges, SessionRecord, SessionStore } from "./session-store.js";
export { isEventStore, isMessageBus, isSessionStore, type StateStores } from "./stores.js";
export {
  applyTaskChange,
  isTaskStore,
  isTerminalTaskStatus,
  type TaskChange,
  type TaskCreateOutcome,
  type TaskError,
  type TaskExpectation,
  type TaskLease,
  type TaskPage,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
  TERMINAL_TASK_STATUSES,
} from "./task-store.js";
