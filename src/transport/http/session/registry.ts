/**
 * The live sessions of one HTTP handler: minting ids with a CSPRNG, finding a session by its
 * `Mcp-Session-Id`, least-recently-used eviction beyond `maxSessions`, the idle timeout, and
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
  readonly #sessionOptions: Omit<HttpSessionOptions, "id" | "onBusy">;
  #closed = false;

  constructor(
    options: CheckedSessionOptions,
    streams: { keepAliveMs: number; maxStreamBufferBytes: number },
  ) {
    this.#options = options;
    this.#sessionOptions = {
      keepAliveMs: streams.keepAliveMs,
      maxStreamBufferBytes: streams.maxStreamBufferBytes,
      maxQueuedEvents: options.maxQueuedEvents,
      retryMs: options.retryMs,
      backChannelTimeoutMs: options.backChannelTimeoutMs,
      backChannel: true,
      eventStore: options.eventStore,
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
      onBusy: (busy) => (busy ? this.#stopIdle(id) : this.#startIdle(id)),
    });
  }

  /** A one-request session of the stateless mode: no id, no back-channel. */
  createStateless(): HttpSession {
    return new HttpSession({ ...this.#sessionOptions, id: undefined, backChannel: false });
  }

  /**
   * Registers a session whose `initialize` succeeded, evicting the least recently used one when
   * there are `maxSessions` already. Ends `session` at once when the registry is closed.
   */
  add(session: HttpSession): void {
    const id = session.id as string;
    if (this.#closed) {
      session.end("the server closed");
      return;
    }
    while (this.#sessions.size >= this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next().value as string;
      this.delete(oldest, "the session was evicted");
    }
    this.#sessions.set(id, session);
    if (!session.busy) this.#startIdle(id);
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
