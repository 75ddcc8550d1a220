/**
 * The 2025-era session of an in-memory connection: what a `Server` keeps for a client that opened
 * with `initialize` (handshake, log level, subscriptions), and its back-channel, which hands each
 * server -> client request to the client's `Transport.onRequest` directly, copied through JSON as a
 * wire would. Spec (2025-11-25): basic/lifecycle, client/elicitation, client/sampling, client/roots.
 */
import { linkSignal } from "../protocol/async.js";
import { McpError, methodNotFound } from "../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest } from "../protocol/jsonrpc.js";
import type { LoggingLevel } from "../protocol/schema/base.js";
import { JSONRPC_VERSION } from "../protocol/versions.js";
import type {
  BackChannelRequest,
  BackChannelSendOptions,
  LegacyHandshake,
  LegacySession,
} from "./dispatcher.js";
import type { Transport } from "./transport.js";

/** How long a server -> client request waits for the client by default: 60 000 ms. */
export const IN_MEMORY_BACK_CHANNEL_TIMEOUT_MS = 60_000;

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** What the session needs of its transport. */
export interface InMemoryLegacyHooks {
  /** The client's answerer of server -> client requests (read at each request). */
  onRequest(): Transport["onRequest"];
  /** Delivers a notification that belongs to no request. */
  notify(notification: JSONRPCNotification): void;
}

/** The one 2025-era session of an `InMemoryTransport` after `initialize`. */
export class InMemoryLegacySession implements LegacySession {
  /** An in-memory connection has no session id. */
  readonly id = undefined;
  handshake: LegacyHandshake | undefined = undefined;
  initialized = false;
  logLevel: LoggingLevel | undefined = undefined;
  readonly resourceSubscriptions = new Set<string>();
  readonly #lifetime = new AbortController();
  readonly #hooks: InMemoryLegacyHooks;
  #nextId = 1;

  constructor(hooks: InMemoryLegacyHooks) {
    this.#hooks = hooks;
  }

  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  notify(notification: JSONRPCNotification): void {
    if (!this.#lifetime.signal.aborted) this.#hooks.notify(copy(notification));
  }

  readonly request: BackChannelRequest = (method, params, options) => this.#ask(method, params, options);

  /** The back-channel of one client request: also cancelled when `scope` (its signal) aborts. */
  requestWithin(scope: AbortSignal): BackChannelRequest {
    return (method, params, options) => this.#ask(method, params, options, scope);
  }

  /** Ends the session: waiting requests reject with McpError -32600, `signal` aborts. Idempotent. */
  end(reason: unknown): void {
    if (!this.#lifetime.signal.aborted) this.#lifetime.abort(reason);
  }

  async #ask(
    method: string,
    params: Record<string, unknown> | undefined,
    options: BackChannelSendOptions = {},
    scope?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (this.#lifetime.signal.aborted) throw sessionEnded();
    const answer = this.#hooks.onRequest();
    if (answer === undefined) throw methodNotFound(method);
    const controller = new AbortController();
    const unlink = [linkSignal(options.signal, controller), linkSignal(scope, controller)];
    const unlinkLifetime = linkSignal(this.#lifetime.signal, controller);
    const timeoutMs = options.timeoutMs ?? IN_MEMORY_BACK_CHANNEL_TIMEOUT_MS;
    const timer = setTimeout(
      () => controller.abort(McpError.of("REQUEST_TIMEOUT", "Request timed out", { timeout: timeoutMs })),
      timeoutMs,
    );
    const id = `s${this.#nextId++}`;
    options.onRequestId?.(id);
    const request: JSONRPCRequest = {
      jsonrpc: JSONRPC_VERSION,
      id,
      method,
      ...(params === undefined ? {} : { params: copy(params) }),
    };
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(this.#lifetime.signal.aborted ? sessionEnded() : controller.signal.reason);
      if (controller.signal.aborted) fail();
      else controller.signal.addEventListener("abort", fail, { once: true });
    });
    try {
      const result = await Promise.race([answer(request, { signal: controller.signal }), aborted]);
      return copy(result);
    } catch (error) {
      if (controller.signal.aborted) throw error;
      if (error instanceof McpError) throw McpError.fromObject(copy(error.toObject()));
      throw McpError.of("INTERNAL_ERROR", error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
      unlinkLifetime();
      for (const undo of unlink) undo();
    }
  }
}

function sessionEnded(): McpError {
  return McpError.of("INVALID_REQUEST", "The session ended before the client answered");
}
