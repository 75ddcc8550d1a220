/**
 * The live sessions of one HTTP handler: minting ids with a CSPRNG, finding a session by its
 * `Mcp-Session-Id`, eviction of an idle session beyond `maxSessions` (never one serving a request
 * or holding a stream open), the idle timeout, and
 * ending them all when the handler closes. An id that was never minted, or whose session ended
 * (DELETE, eviction, idle timeout, close), is unknown: the request gets 404 and the client
 * re-initializes. With stores shared by a fleet (the `state` option), a session is what the
 * `SessionStore` holds and the registry keeps local views of it: any replica serves any session,
 * and dropping a view (eviction, idle timeout) does not end the session; DELETE does, everywhere. Spec (2025-11-25): basic/transports §Session Management.
 */

import type { JSONRPCNotification, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { MemoryEventStore } from "../../../state/memory-event-store.js";
import type { SessionRecord } from "../../../state/session-store.js";
import { FleetRouting, ownerOfRequestId } from "./fleet-routing.js";
import type { CheckedSessionOptions } from "./options.js";
import { applyRecord, changedFacts, factsOf, principalDigest, recordOf } from "./records.js";
import { HttpSession, type HttpSessionOptions } from "./session.js";
import type { SessionState } from "./state.js";
import { guardState } from "./state-guard.js";

/**
 * A new session id: a random UUID (122 bits from the platform CSPRNG), visible ASCII only as the
 * spec requires.
 */
export function mintSessionId(): string {
  return crypto.randomUUID();
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * The idle clock of one session view, and its place in the order of use. Requests and streams
 * start and stop the clock often, so that moves only `idleSince`; its one timer, when it fires
 * early, waits out the rest.
 */
interface IdleClock {
  /** True once the session is registered (and until it is forgotten); the clock runs only then. */
  registered: boolean;
  /** `performance.now()` when the session last became idle, or was last used while idle; undefined while busy. */
  idleSince: number | undefined;
  /** Fires at the earliest moment the session may have been idle for the timeout. */
  timer: Timer | undefined;
  /** When the session was last registered or found, in the registry's count of uses. */
  lastUsed: number;
}

/** The sessions of one handler. */
export class SessionRegistry {
  readonly #sessions = new Map<string, HttpSession>();
  /** The idle clock of each session view this registry made. */
  readonly #clocks = new WeakMap<HttpSession, IdleClock>();
  /** Registrations and finds so far: the order of use (the least recently used is evicted first). */
  #uses = 0;
  readonly #options: CheckedSessionOptions;
  readonly #report: (error: unknown) => void;
  /** The stores and bus, each failure a `StateFailure`. */
  readonly #state: SessionState;
  readonly #sessionOptions: Omit<HttpSessionOptions, "id" | "onBusy" | "dropEventsOnEnd">;
  /** The bus side of this replica; undefined without a bus (one process). */
  readonly routing: FleetRouting | undefined;
  /** Called with each view materialized from the store (to tell the server about it). */
  onMaterialized: ((session: HttpSession) => void) | undefined;
  #closed = false;

  constructor(
    options: CheckedSessionOptions,
    streams: { keepAliveMs: number; maxStreamBufferBytes: number },
    report: (error: unknown) => void,
  ) {
    this.#options = options;
    this.#report = report;
    this.#state = guardState(options.state);
    this.#sessionOptions = {
      keepAliveMs: streams.keepAliveMs,
      maxStreamBufferBytes: streams.maxStreamBufferBytes,
      maxQueuedEvents: options.maxQueuedEvents,
      retryMs: options.retryMs,
      backChannelTimeoutMs: options.backChannelTimeoutMs,
      backChannel: true,
      ownerPingTimeoutMs: options.ownerPingTimeoutMs,
      events: this.#state.events,
      report,
    };
    const { bus, instanceId } = this.#state;
    if (bus !== undefined) {
      this.routing = new FleetRouting(
        bus,
        instanceId,
        {
          settle: (id, response) => this.#sessions.get(id)?.settle(response),
          ended: (id) => this.delete(id, "the client ended the session"),
          cancel: (id, notification) => this.#sessions.get(id)?.cancelIncoming(notification),
          refresh: (id) => void this.#refresh(id),
        },
        report,
      );
      this.#sessionOptions = { ...this.#sessionOptions, instanceId, routing: this.routing };
    } else {
      this.routing = undefined;
    }
  }

  /** True when sessions live in stores shared with other replicas (the `state` option). */
  get shared(): boolean {
    return this.#state.shared;
  }

  /** How many sessions are live. */
  get size(): number {
    return this.#sessions.size;
  }

  /** A session with a fresh id, not yet registered (it is once its `initialize` succeeds). */
  create(): HttpSession {
    return this.#view(mintSessionId(), undefined);
  }

  #view(id: string, standaloneCursor: string | undefined): HttpSession {
    const clock: IdleClock = { registered: false, idleSince: undefined, timer: undefined, lastUsed: 0 };
    const session = new HttpSession({
      ...this.#sessionOptions,
      id,
      standaloneCursor,
      onStandaloneCursor: (cursor) => {
        if (!this.shared) return;
        this.#state.sessions
          .update(id, { standaloneCursor: cursor }, this.#options.sessionIdleTimeoutMs)
          .catch(this.#report);
      },
      dropEventsOnEnd: !this.#state.shared,
      onBusy: (busy) => {
        if (busy) clock.idleSince = undefined;
        else this.#startIdle(id, clock);
      },
    });
    this.#clocks.set(session, clock);
    return session;
  }

  /**
   * With shared stores, stores the record of a session whose `initialize` succeeded (its facts
   * and the place of its standalone stream). Rejects when the store does.
   */
  async store(session: HttpSession): Promise<void> {
    if (!this.shared) return;
    const record = await recordOf(session, await session.standaloneCursor());
    await this.#state.sessions.create(session.id as string, record, this.#options.sessionIdleTimeoutMs);
    session.persisted = factsOf(session);
    session.recordPrincipal = { digest: record.principal };
  }

  /**
   * Without shared stores: the session `id` names for a request from `principal` (`principalOf`
   * of its identity), marked most recently used; undefined when it is unknown, ended or was
   * opened by another principal.
   */
  findLocal(id: string, principal: string | undefined): HttpSession | undefined {
    const session = this.get(id);
    return session === undefined || session.principal !== principal ? undefined : session;
  }

  /**
   * The session `id` names for a request from `principal` (`principalOf` of its identity), or
   * undefined when it is unknown, ended or was opened by another principal. With shared stores the
   * store decides: its record is read (restarting its idle clock), a local view is refreshed from
   * it or materialized, and a session the store no longer has ends here too. Rejects when the
   * store does.
   */
  async find(id: string, principal: string | undefined): Promise<HttpSession | undefined> {
    if (!this.shared) return this.findLocal(id, principal);
    const record = await this.#state.sessions.get(id, this.#options.sessionIdleTimeoutMs);
    const digest = await principalDigest(principal);
    if (record === undefined) {
      this.delete(id, "the session ended");
      return undefined;
    }
    if (record.principal !== digest) return undefined;
    const local = this.get(id);
    if (local !== undefined) {
      rebase(local, record);
      local.refreshStandalone(record.standaloneCursor);
      local.recordPrincipal = { digest };
      return local;
    }
    const view = this.#materialize(id, record);
    if (view !== undefined) view.recordPrincipal = { digest };
    return view;
  }

  /**
   * The session `id` names for a client's answer (a response to a server -> client request) from
   * `principal`: as {@link SessionRegistry.find}, but while the store cannot be reached, the local
   * view of the session, when this replica holds one whose record it read or wrote for the same
   * principal: the answer then still reaches the request awaiting it (here, or over the bus once
   * it is back), rather than being refused and lost with a client that does not send it again.
   * Rejects as `find` does otherwise.
   */
  async findForAnswer(id: string, principal: string | undefined): Promise<HttpSession | undefined> {
    try {
      return await this.find(id, principal);
    } catch (error) {
      const local = this.shared ? this.get(id) : undefined;
      const known = local?.recordPrincipal;
      if (local === undefined || local.ended || known === undefined) throw error;
      if (known.digest !== (await principalDigest(principal))) throw error;
      this.#report(error);
      return local;
    }
  }

  /** A local view of a session another replica began, registered; undefined when closed or full. */
  #materialize(id: string, record: SessionRecord): HttpSession | undefined {
    if (this.#closed) return undefined;
    const view = this.#view(id, record.standaloneCursor);
    applyRecord(view, record);
    view.persisted = factsOf(view);
    if (!this.add(view)) return undefined;
    this.onMaterialized?.(view);
    return view;
  }

  /**
   * With shared stores, writes back the facts a dispatch changed on `session` (initialized, log
   * level, subscriptions). Rejects when the store does.
   */
  async persist(session: HttpSession): Promise<void> {
    if (!this.shared || session.id === undefined || session.persisted === undefined) return;
    const now = factsOf(session);
    const changes = changedFacts(session.persisted, now);
    if (changes === undefined) return;
    session.persisted = now;
    const live = await this.#state.sessions.update(session.id, changes, this.#options.sessionIdleTimeoutMs);
    if (!live) {
      this.delete(session.id, "the session ended");
      return;
    }
    await this.routing?.factsChanged(session.id);
  }

  /**
   * Reads the facts of session `id` again into its local view, if this replica holds one that is
   * not serving a request (another replica changed them: a subscription, the log level). A
   * failure is reported; the view is refreshed at its next request anyway.
   */
  async #refresh(id: string): Promise<void> {
    const local = this.#sessions.get(id);
    if (local === undefined) return;
    try {
      const record = await this.#state.sessions.get(id, this.#options.sessionIdleTimeoutMs);
      if (record === undefined || local.ended) return;
      rebase(local, record);
    } catch (error) {
      this.#report(error);
    }
  }

  /**
   * Settles the server -> client request a client's `response` answers: here, or, in a fleet, on
   * the replica its id names (over the bus). Rejects when the bus does.
   */
  async settle(session: HttpSession, response: JSONRPCResponse): Promise<void> {
    if (session.settle(response)) return;
    const owner = ownerOfRequestId(response.id);
    if (this.routing === undefined || owner === undefined || owner === this.#state.instanceId) return;
    await this.routing.forwardResponse(
      owner,
      session.id as string,
      response,
      this.#options.backChannelTimeoutMs,
    );
  }

  /**
   * Aborts the request `notifications/cancelled` names: here when it runs here, else, in a fleet,
   * on the replica that runs it (over the bus). Rejects when the bus does.
   */
  async cancel(session: HttpSession, notification: JSONRPCNotification): Promise<void> {
    if (session.cancelIncoming(notification) || this.routing === undefined) return;
    await this.routing.cancel(session.id as string, notification);
  }

  /**
   * Ends the session `id` everywhere (DELETE): its record and events are forgotten and, in a
   * fleet, every replica ends its view. Rejects when a store or the bus does.
   */
  async end(id: string): Promise<void> {
    this.delete(id);
    if (!this.shared) return;
    await this.#state.sessions.delete(id);
    await this.#state.events.dropSession(id);
    await this.routing?.sessionEnded(id);
  }

  /** A one-request session of the stateless mode: no id, no back-channel. */
  createStateless(): HttpSession {
    return new HttpSession({
      ...this.#sessionOptions,
      id: undefined,
      backChannel: false,
      // Its events outlive no request: they stay in this process, whatever the shared stores.
      events: new MemoryEventStore({ maxEventsPerStream: this.#options.maxQueuedEvents }),
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
    const clock = this.#clockOf(session);
    clock.registered = true;
    clock.lastUsed = ++this.#uses;
    if (!session.busy) this.#startIdle(id, clock);
    return true;
  }

  /**
   * The id of the session to evict first, if any: an idle one (one that never got going before
   * the others, then the least recently used), else the least recently used whose only activity
   * is an open stream (its client can reconnect and re-initialize). A session serving a request
   * is never evicted.
   */
  #evictable(): string | undefined {
    const unused = new LeastRecent();
    const idle = new LeastRecent();
    const streaming = new LeastRecent();
    for (const [id, session] of this.#sessions) {
      if (session.serving) continue;
      const { lastUsed } = this.#clockOf(session);
      if (session.busy) streaming.offer(id, lastUsed);
      else if (!session.initialized || !session.used) unused.offer(id, lastUsed);
      else idle.offer(id, lastUsed);
    }
    return unused.id ?? idle.id ?? streaming.id;
  }

  /** The live session `id` names, marked most recently used; undefined when unknown or ended. */
  get(id: string): HttpSession | undefined {
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    const clock = this.#clockOf(session);
    clock.lastUsed = ++this.#uses;
    if (!session.busy) this.#startIdle(id, clock);
    return session;
  }

  /** Ends and forgets the session `id`; false when there was none. */
  delete(id: string, reason = "the client ended the session"): boolean {
    const session = this.#sessions.get(id);
    if (session === undefined) return false;
    this.#sessions.delete(id);
    this.#dropIdle(session);
    session.end(reason);
    return true;
  }

  /** Ends every session; later `add`s end theirs at once. Idempotent. */
  close(): void {
    this.#closed = true;
    this.routing?.close();
    for (const id of [...this.#sessions.keys()]) this.delete(id, "the server closed");
  }

  #clockOf(session: HttpSession): IdleClock {
    return this.#clocks.get(session) as IdleClock;
  }

  /** Restarts the idle clock of session `id` (when registered): it ends after `sessionIdleTimeoutMs` more. */
  #startIdle(id: string, clock: IdleClock): void {
    if (!clock.registered) return;
    clock.idleSince = performance.now();
    clock.timer ??= this.#armIdle(id, clock, this.#options.sessionIdleTimeoutMs);
  }

  #armIdle(id: string, clock: IdleClock, delayMs: number): Timer {
    const timer = setTimeout(() => this.#idleCheck(id, clock), delayMs);
    // On Node, an idle session must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  /** Ends session `id` when it has been idle for the timeout; else waits out the rest, or for the session to become idle. */
  #idleCheck(id: string, clock: IdleClock): void {
    clock.timer = undefined;
    if (!clock.registered || clock.idleSince === undefined) return;
    const leftMs = clock.idleSince + this.#options.sessionIdleTimeoutMs - performance.now();
    if (leftMs > 0) {
      clock.timer = this.#armIdle(id, clock, Math.ceil(leftMs));
      return;
    }
    this.delete(id, "the session was idle too long");
  }

  /** Stops the idle clock of a session being forgotten. */
  #dropIdle(session: HttpSession): void {
    const clock = this.#clockOf(session);
    clock.registered = false;
    clock.idleSince = undefined;
    if (clock.timer !== undefined) clearTimeout(clock.timer);
    clock.timer = undefined;
  }
}

/** The id offered with the least use count so far. */
class LeastRecent {
  id: string | undefined;
  #lastUsed = Number.POSITIVE_INFINITY;

  offer(id: string, lastUsed: number): void {
    if (lastUsed >= this.#lastUsed) return;
    this.id = id;
    this.#lastUsed = lastUsed;
  }
}

/**
 * Sets a local view's facts from its record, keeping the changes a request made on this replica
 * and not yet wrote back (they are written back after it, as changes from the record's facts), so
 * a refresh in the middle of a request loses nothing on either side.
 */
function rebase(local: HttpSession, record: SessionRecord): void {
  const pending = local.persisted === undefined ? undefined : changedFacts(local.persisted, factsOf(local));
  applyRecord(local, record);
  local.persisted = factsOf(local);
  if (pending === undefined) return;
  if (pending.initialized !== undefined) local.initialized = pending.initialized;
  if ("logLevel" in pending) local.logLevel = pending.logLevel;
  for (const uri of pending.subscribed ?? []) local.resourceSubscriptions.add(uri);
  for (const uri of pending.unsubscribed ?? []) local.resourceSubscriptions.delete(uri);
}
