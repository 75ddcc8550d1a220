/**
 * The state a Streamable HTTP handler keeps for handshake-era sessions, as one option.
 */
import type { EventStore } from "./event-store.js";
import type { MessageBus } from "./message-bus.js";
import type { SessionStore } from "./session-store.js";

/**
 * Where the HTTP handler keeps what outlives one request of a 2025-11-25 session: the `state`
 * option of `createHttpHandler` and `serve`. Each store left out gets its in-memory default,
 * private to the handler (one process: today's behaviour). Give all three, shared by every
 * replica (`tsmcp-redis`, say), and any replica serves any session: a POST, a GET stream, a
 * `Last-Event-ID` resumption or a back-channel answer may land on any of them. The 2026-07-28 path
 * needs none of it (its state rides in the sealed `requestState`).
 */
export interface StateStores {
  /** The sessions' facts. Default a `MemorySessionStore` of the handler's own. */
  readonly sessions?: SessionStore;
  /** The sessions' SSE events, for `Last-Event-ID` resumption. Default a `MemoryEventStore`. */
  readonly events?: EventStore;
  /**
   * The channel between replicas (back-channel answers, stream events, list-changed and
   * resource-updated notifications). Default none: one process needs no bus.
   */
  readonly bus?: MessageBus;
}

/** True when `value` has the methods of a {@link SessionStore}. */
export function isSessionStore(value: unknown): value is SessionStore {
  return hasMethods(value, ["create", "get", "update", "touch", "delete"]);
}

/** True when `value` has the methods of an {@link EventStore}. */
export function isEventStore(value: unknown): value is EventStore {
  return hasMethods(value, ["append", "after", "dropStream", "dropSession"]);
}

/** True when `value` has the methods of a {@link MessageBus}. */
export function isMessageBus(value: unknown): value is MessageBus {
  return hasMethods(value, ["publish", "subscribe"]);
}

function hasMethods(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return names.every((name) => typeof record[name] === "function");
}
