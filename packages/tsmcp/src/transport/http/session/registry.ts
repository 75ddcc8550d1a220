/**
 * The live sessions of one HTTP handler: minting ids with a CSPRNG, finding a session by its
 * `Mcp-Session-Id`, eviction of an idle session beyond `maxSessions` (never one serving a request
 * or holding a stream open), the idle timeout, and
 * ending them all when the handler closes. An id that was never minted, or whose session ended
 * (DELETE, eviction, idle timeout, close), is unknown: the request gets 404 and the client
 * re-initializes. Spec (2025-11-25): basic/transports §Session Management.
 */
import type { CheckedSessionOptions } from "./options.js";
import { HttpSession, type HttpSessionOptions } from "./session.js";

/**
 * A new session id: a random UUID (122 bits from the platform CSPRNG), visible ASCII only as the
 * spec requires.
 */
export function mintSessionId(): string {
  return crypto.randomUUID();
}

type Timer = ReturnType<typeof setTimeout>;

/** The sessions of one handler. */
export class SessionRegistry {
  /** In least-recently-used order: the first entry is evicted first. */
  readonly #sessions = new Map<string, HttpSession>();
  readonly #idleTimers = new Map<string, Timer>();
  readonly #options: CheckedSessionOptions;
  readonly #sessionOptions: Omit<HttpSessionOptions, "id" | "onBusy" | "dropEventsOnEnd">;
  #closed = false;

  constructor(
    options: CheckedSessionOptions,
    streams: { keepAliveMs: number; maxStreamBufferBytes: number },
    report: (error: unknown) => void,
  ) {
    this.#options = options;
    this.#sessionOptions = {
      keepAliveMs: streams.keepAliveMs,
      maxStreamBufferBytes: streams.maxStreamBufferBytes,
      maxQueuedEvents: options.maxQueuedEvents,
      retryMs: options.retryMs,
      backChannelTimeoutMs: options.backChannelTimeoutMs,
      backChannel: true,
      events: options.state.events,
      report,
    };
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  /** A session with a fresh id, not yet registered (it is once its `initialize` succeeds). */
  create(): HttpSession {
    const id = mintSessionId();
    return new HttpSession({
      ...this.#sessionOptions,
      id,
      dropEventsOnEnd: !this.#options.state.shared,
      onBusy: (busy) => (busy ? this.#stopIdle(id) : this.#startIdle(id)),
    });
  }

  /** A one-request session of the stateless mode: no id, no back-channel. */
  createStateless(): HttpSession {
    return new HttpSession({
      ...this.#sessionOptions,
      id: undefined,
      backChannel: false,
      dropEventsOnEnd: true,
    });
  }

  /** True when one more session can be added: there is room, or an idle session to evict. */
  get hasRoom(): boolean {
    return this.#sessions.size < this.#options.maxSessions || this.#evictable() !== undefined;
  }

  /**
   * Registers a session whose `initialize` succeeded. With `maxSessions` live already, it evicts
   * an idle one first: one that never sent a request after `initialize` (or never sent
   * `notifications/initialized`) before any other, the least recently used first; then one whose
   * only activity is an open stream. A session serving a request is never evicted: when every one
   * is, `session` is ended and false returned. Ends
   * `session` at once when the registry is closed.
   */
  add(session: HttpSession): boolean {
    const id = session.id as string;
    if (this.#closed) {
      session.end("the server closed");
      return false;
    }
    while (this.#sessions.size >= this.#options.maxSessions) {
      const victim = this.#evictable();
      if (victim === undefined) {
        session.end("every session is busy");
        return false;
      }
      this.delete(victim, "the session was evicted");
    }
    this.#sessions.set(id, session);
    if (!session.busy) this.#startIdle(id);
    return true;
  }

  /**
   * The id of the session to evict first, if any: an idle one (one that never got going before
   * the others, then the least recently used), else the least recently used whose only activity
   * is an open stream (its client can reconnect and re-initialize). A session serving a request
   * is never evicted.
   */
  #evictable(): string | undefined {
    let leastRecent: string | undefined;
    let leastRecentStreaming: string | undefined;
    for (const [id, session] of this.#sessions) {
      if (session.serving) continue;
      if (session.busy) {
        leastRecentStreaming ??= id;
        continue;
      }
      if (!session.initialized || !session.used) return id;
      leastRecent ??= id;
    }
    return leastRecent ?? leastRecentStreaming;
  }

  /** The live session `id` names, marked most recently used; undefined when unknown or ended. */
  get(id: string): HttpSession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    if (!session.busy) this.#startIdle(id);
    return session;
  }

  /** Ends and forgets the session `id`; false when there was none. */
  delete(id: string, reason = "the client ended the session"): boolean {
    const session = this.#sessions.get(id);
    if (session === undefined) return false;
    this.#sessions.delete(id);
    this.#stopIdle(id);
    session.end(reason);
    return true;
  }

  /** Ends every session; later `add`s end theirs at once. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const id of [...this.#sessions.keys()]) this.delete(id, "the server closed");
  }

  #startIdle(id: string): void {
    if (!this.#sessions.has(id)) return;
    this.#stopIdle(id);
    const timer = setTimeout(() => {
      this.#idleTimers.delete(id);
      this.delete(id, "the session was idle too long");
    }, this.#options.sessionIdleTimeoutMs);
    // On Node, an idle session must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    this.#idleTimers.set(id, timer);
  }

  #stopIdle(id: string): void {
    const timer = this.#idleTimers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.#idleTimers.delete(id);
  }
}
