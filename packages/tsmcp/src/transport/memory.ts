/**
 * The in-memory transport: each request is a direct call into a dispatcher (a `Server` or
 * `MCPServer`) in the same process. Messages are copied through JSON both ways, exactly as a wire
 * would, so neither side can see or mutate the other's objects. An `initialize` opens a 2025-era
 * session (server/legacy path): later messages carry it once `setProtocolEra` says the handshake
 * succeeded, and the server's requests on it reach `onRequest`.
 */

import { linkSignal } from "../protocol/async.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../protocol/jsonrpc.js";
import { type Dispatcher, isDispatcher } from "./dispatcher.js";
import { InMemoryLegacySession } from "./memory-legacy.js";
import {
  type IncomingRequestOptions,
  type ProtocolEra,
  type Transport,
  TransportError,
  type TransportRequestOptions,
} from "./transport.js";

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A transport that calls a dispatcher directly. */
export class InMemoryTransport implements Transport {
  /** An in-memory call has no HTTP headers. */
  readonly sendsHttpHeaders = false;
  /**
   * Receives the server's notifications for a request sent without its own `onNotification`. Set by
   * the session.
   */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** Answers the server's requests on a 2025-era session. Set by the session. */
  onRequest?: (request: JSONRPCRequest, options: IncomingRequestOptions) => Promise<Record<string, unknown>>;
  readonly #dispatcher: Dispatcher;
  /** The session the last `initialize` opened; used for every message once the era is legacy. */
  #legacy: InMemoryLegacySession | undefined;
  #isLegacy = false;
  readonly #inFlight = new Set<AbortController>();
  #closed = false;

  /**
   * Connects to `dispatcher` (a `Server`, an `MCPServer` or any {@link Dispatcher}) in this process.
   *
   * @throws TypeError when `dispatcher` has no `handle` method.
   */
  constructor(dispatcher: Dispatcher) {
    if (!isDispatcher(dispatcher)) {
      throw new TypeError("InMemoryTransport: dispatcher must have a handle(message, env) method");
    }
    this.#dispatcher = dispatcher;
  }

  /**
   * Dispatches a JSON copy of `request` and resolves with a JSON copy of its response. Notifications
   * the handler emits go to `options.onNotification`, else to {@link InMemoryTransport.onNotification},
   * and stop once the request is aborted.
   *
   * @throws TransportError when the transport is closed, or the dispatcher answers with no response.
   *   Rejects with the signal's reason when `options.signal` aborts, and with a `TransportError`
   *   ("transport closed") when {@link InMemoryTransport.close} cuts it off.
   */
  async request(request: JSONRPCRequest, options: TransportRequestOptions = {}): Promise<JSONRPCResponse> {
    if (this.#closed) throw new TransportError("transport is closed");
    if (request.method === "initialize") this.#openLegacySession();
    const session = request.method === "initialize" || this.#isLegacy ? this.#legacy : undefined;
    const controller = new AbortController();
    const { signal, onNotification } = options;
    if (signal?.aborted) throw signal.reason;
    const unlink = linkSignal(signal, controller);
    this.#inFlight.add(controller);
    try {
      const handled = this.#dispatcher.handle(copy(request), {
        signal: controller.signal,
        ...(session === undefined ? {} : { session, request: session.requestWithin(controller.signal) }),
        notify: (notification) => {
          if (controller.signal.aborted) return;
          const delivered = copy(notification);
          if (onNotification !== undefined) onNotification(delivered);
          else this.onNotification?.(delivered);
        },
      });
      const aborted = new Promise<never>((_, reject) => {
        const fail = () => reject(controller.signal.reason ?? new TransportError("request cancelled"));
        if (controller.signal.aborted) fail();
        else controller.signal.addEventListener("abort", fail, { once: true });
      });
      const response = await Promise.race([handled, aborted]);
      if (response === undefined) throw new TransportError("the server sent no response to a request");
      return copy(response);
    } finally {
      unlink();
      this.#inFlight.delete(controller);
    }
  }

  /**
   * Dispatches a JSON copy of `notification` and resolves once the dispatcher has handled it; nothing
   * comes back.
   *
   * @throws TransportError when the transport is closed.
   */
  async notify(notification: JSONRPCNotification): Promise<void> {
    if (this.#closed) throw new TransportError("transport is closed");
    const session = this.#isLegacy ? this.#legacy : undefined;
    await this.#dispatcher.handle(copy(notification), {
      signal: new AbortController().signal,
      ...(session === undefined ? {} : { session }),
    });
  }

  /**
   * Switches to the 2025-era session the last `initialize` opened (`legacy`), or back to
   * self-contained 2026-07-28 requests (`modern`, which ends that session).
   */
  setProtocolEra(era: ProtocolEra): void {
    this.#isLegacy = era.kind === "legacy";
    if (!this.#isLegacy) {
      this.#legacy?.end(new TransportError("the connection left the 2025 era"));
      this.#legacy = undefined;
    }
  }

  #openLegacySession(): void {
    this.#legacy?.end(new TransportError("a new initialize replaced the session"));
    this.#legacy = new InMemoryLegacySession({
      onRequest: () => this.onRequest,
      notify: (notification) => this.onNotification?.(notification),
    });
  }

  /**
   * Closes the transport: every in-flight request is aborted (its handler's signal fires, its promise
   * rejects with a `TransportError`) and later calls throw. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const controller of this.#inFlight) controller.abort(new TransportError("transport closed"));
    this.#legacy?.end(new TransportError("transport closed"));
    this.#inFlight.clear();
  }
}
