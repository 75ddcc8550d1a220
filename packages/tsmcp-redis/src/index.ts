/**
 * `tsmcp-redis`: Redis implementations of the state seams of `tsmcp/state`, so that every replica
 * of a fleet shares the handshake-era sessions, their SSE events, a message bus, the
 * single-use `requestState` ids and the tasks; and, on the client side, parked calls
 * ({@link RedisPendingCallStore}). {@link createRedisState} builds all five on two
 * connections.
 *
 * @packageDocumentation
 */
export type { RedisClientLike } from "./client.js";
export {
  DEFAULT_REDIS_EVENT_TTL_MS,
  DEFAULT_REDIS_MAX_EVENTS_PER_STREAM,
  RedisEventStore,
  type RedisEventStoreOptions,
} from "./event-store.js";
export {
  DEFAULT_REDIS_BUS_MAX_PENDING,
  RedisMessageBus,
  type RedisMessageBusOptions,
} from "./message-bus.js";
export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KEY_PREFIX,
  DEFAULT_MAX_RECONNECT_DELAY_MS,
  type RedisStoreOptions,
} from "./options.js";
export {
  REDIS_EXPIRED_CALL_GRACE_MS,
  RedisPendingCallStore,
  type RedisPendingCallStoreOptions,
} from "./pending-calls.js";
export { RedisReplayCache, type RedisReplayCacheOptions } from "./replay-cache.js";
export { RedisSessionStore, type RedisSessionStoreOptions } from "./session-store.js";
export {
  createRedisState,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REDIS_URL,
  type RedisState,
  type RedisStateOptions,
} from "./state.js";
export { RedisTaskStore, type RedisTaskStoreOptions } from "./task-store.js";
