/**
 * The graceful close of the Node.js adapter: stop accepting connections, close idle keep-alive
 * connections, end the streams that never finish on their own, let in-flight requests finish up to
 * a drain timeout, then abort the rest through their `AbortSignal` and destroy what is left.
 */
import type { Server as NodeHttpServer } from "node:http";
import type { NodeExchange } from "./node-exchange.js";

/**
 * Milliseconds requests aborted at the drain deadline get to write their (cancelled) answer before
 * their connections are destroyed.
 */
const ABORT_GRACE_MS = 1_000;

/** One request being served: its exchange, and how to end its SSE stream once one is open. */
export interface InFlight {
  readonly exchange: NodeExchange;
  /** Ends the SSE stream after what was written; set once the answer is a stream. */
  endStream?: () => void;
}

/**
 * True for a request whose answer never ends on its own: a GET (a session's standalone or resumed
 * SSE stream) or `subscriptions/listen` (its `Mcp-Method` header names it).
 */
function isLongLived({ exchange }: InFlight): boolean {
  return exchange.method === "GET" || exchange.headers.get("mcp-method") === "subscriptions/listen";
}

function delay(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** The requests a server is serving, and its graceful close. */
export class Drain {
  readonly #server: NodeHttpServer;
  readonly #inFlight = new Set<InFlight>();
  #closing = false;
  #idle: (() => void) | undefined;

  constructor(server: NodeHttpServer) {
    this.#server = server;
  }

  /** True once {@link close} began: answers then close their connection. */
  get closing(): boolean {
    return this.#closing;
  }

  /** Tracks one request until its response closes. */
  track(exchange: NodeExchange): InFlight {
    const entry: InFlight = { exchange };
    this.#inFlight.add(entry);
    exchange.outgoing.once("close", () => {
      this.#inFlight.delete(entry);
      if (!this.#closing) return;
      // Its connection may now be idle (kept alive before the close began).
      setImmediate(() => this.#server.closeIdleConnections());
      if (this.#inFlight.size === 0) this.#idle?.();
    });
    return entry;
  }

  /**
   * Closes the server: stops accepting, closes idle connections, ends long-lived streams at once
   * (a GET stream ends gracefully, its client may resume elsewhere; `subscriptions/listen` is
   * cancelled, answered, and ends), waits up to `drainTimeoutMs` for the rest, then calls
   * `beforeAbort` (the handler ends its sessions), aborts what is left through its signal, gives it
   * a moment to answer, and destroys every remaining connection. Resolves once the server closed.
   */
  async close(drainTimeoutMs: number, beforeAbort: () => void): Promise<void> {
    this.#closing = true;
    const server = this.#server;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    for (const entry of this.#inFlight) {
      if (!entry.exchange.outgoing.headersSent) entry.exchange.outgoing.shouldKeepAlive = false;
      if (!isLongLived(entry)) continue;
      if (entry.endStream !== undefined && entry.exchange.method === "GET") entry.endStream();
      else entry.exchange.abort(new Error("the server is shutting down"));
    }
    await this.#settle(drainTimeoutMs);
    beforeAbort();
    if (this.#inFlight.size > 0) {
      for (const entry of this.#inFlight) entry.exchange.abort(new Error("the server is shutting down"));
      await this.#settle(ABORT_GRACE_MS);
    }
    server.closeIdleConnections();
    const grace = delay(ABORT_GRACE_MS);
    await Promise.race([closed, grace.promise]);
    grace.cancel();
    server.closeAllConnections();
    await closed;
  }

  /** Resolves when nothing is in flight, or after `ms`. */
  async #settle(ms: number): Promise<void> {
    if (this.#inFlight.size === 0) return;
    const timer = delay(ms);
    const idle = new Promise<void>((resolve) => {
      this.#idle = resolve;
    });
    await Promise.race([idle, timer.promise]);
    timer.cancel();
    this.#idle = undefined;
  }
}
