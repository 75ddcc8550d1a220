/**
 * The SessionStore seam: what a 2025-11-25 handshake-era session is, kept where every replica of a
 * fleet can read it, so that a request carrying `Mcp-Session-Id` may land on any of them. The
 * in-memory default ({@link MemorySessionStore}) serves one process; a shared engine (Redis, a
 * Durable Object) serves a fleet. The 2026-07-28 path keeps no session. Spec (2025-11-25):
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management
 */
import type { LoggingLevel } from "../protocol/schema/base.js";

/**
 * The facts of one session: everything a replica needs to serve its next request. JSON-serialisable
 * (a shared store writes it as text); a store returns a fresh copy on every read.
 */
export interface SessionRecord {
  /**
   * A digest of the principal that opened the session (never a credential itself); every later
   * request must come from the same one. Undefined when it was opened without an identity.
   */
  readonly principal?: string | undefined;
  /** The revision the `initialize` response named, e.g. `"2025-11-25"`. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` from `initialize` (an `Implementation`). */
  readonly clientInfo: Readonly<Record<string, unknown>>;
  /** The client's `capabilities` from `initialize` (`ClientCapabilities`). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** True once the client sent `notifications/initialized`. */
  readonly initialized: boolean;
  /** The level `logging/setLevel` set; undefined sends no log messages. */
  readonly logLevel?: LoggingLevel | undefined;
  /** The URIs the client subscribed to with `resources/subscribe`. */
  readonly resourceSubscriptions: readonly string[];
  /**
   * The id of the last event the session's standalone GET stream carried to the client, so that a
   * GET without `Last-Event-ID` on another replica starts after it. Undefined before any.
   */
  readonly standaloneCursor?: string | undefined;
}

/**
 * What changes in a {@link SessionRecord} after `initialize`: facts replaced (`initialized`,
 * `logLevel`, `standaloneCursor`; `undefined` clears an optional one), and resource subscriptions
 * added and removed one URI at a time, so that subscriptions made at once on several replicas all
 * stay (a whole list written back would keep only the last writer's).
 */
export type SessionChanges = Partial<Pick<SessionRecord, "initialized" | "logLevel" | "standaloneCursor">> & {
  /** URIs added to `resourceSubscriptions`. */
  readonly subscribed?: readonly string[];
  /** URIs removed from `resourceSubscriptions` (applied after `subscribed`). */
  readonly unsubscribed?: readonly string[];
};

/**
 * Where handshake-era sessions live between requests.
 *
 * Guarantees an implementation gives (the shared contract suite checks them):
 *
 * - **Idle expiry.** A session lives `idleTimeoutMs` after its creation or its last `get`,
 *   `update` or `touch`, then is gone (`get` resolves `undefined`), with no further call.
 * - **No resurrection.** `update` and `touch` never bring back a session that expired or was
 *   deleted (they resolve `false`); only `create` makes one.
 * - **Read your writes.** A `get` that starts after an `update` resolved (on any instance sharing
 *   the store) sees it. Concurrent `update`s of the same fact: the last one wins; concurrent
 *   subscriptions of different URIs all stay.
 * - **Copies.** What `get` returns is the caller's to keep; what `create` and `update` were given is
 *   never held by reference.
 * - **Bounded.** Storage is bounded by the idle timeout (and by a count, in memory).
 * - **Failures reject.** An unreachable engine rejects with `StateUnavailableError`; the HTTP
 *   handler answers 503 with `Retry-After` and serves again once the engine is back.
 */
export interface SessionStore {
  /**
   * Stores a new session `id` (a fresh, unguessable id: it replaces any other of that id).
   *
   * @param idleTimeoutMs milliseconds the session lives without a request, from 1.
   * @throws (rejects) `StateUnavailableError` when the engine cannot be reached; a bounded store
   *   that cannot take one more session rejects with a `RangeError`.
   */
  create(id: string, record: SessionRecord, idleTimeoutMs: number): Promise<void>;
  /**
   * The session `id`, its idle clock restarted (`idleTimeoutMs` from now); `undefined` when it
   * never existed, expired or was deleted.
   */
  get(id: string, idleTimeoutMs: number): Promise<SessionRecord | undefined>;
  /**
   * Applies `changes` to the live session `id` and restarts its idle clock; resolves `false` (and
   * stores nothing) when it is gone.
   */
  update(id: string, changes: SessionChanges, idleTimeoutMs: number): Promise<boolean>;
  /** Restarts the idle clock of the live session `id`; `false` when it is gone. */
  touch(id: string, idleTimeoutMs: number): Promise<boolean>;
  /** Ends the session `id`; `false` when there was none. */
  delete(id: string): Promise<boolean>;
}
