/**
 * The one handshake-era session of a stdio connection that opened with `initialize`: the state the
 * server keeps for it (handshake, log level, subscriptions), its lifetime, and its two ways to
 * reach the client unasked: notifications to stdout and server -> client requests whose answers
 * come back on stdin. Spec (2025-11-25): basic/lifecycle, basic/transports §stdio.
 */
import type { JSONRPCNotification, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import type { LoggingLevel } from "../../protocol/schema/base.js";
import type {
  BackChannelRequest,
  BackChannelSendOptions,
  LegacyHandshake,
  LegacySession,
} from "../dispatcher.js";
import { BackChannel, type BackChannelHooks } from "./back-channel.js";

/** The session of one stdio connection; the loop owns it and ends it when the loop stops. */
export class StdioLegacySession implements LegacySession {
  /** Stdio has no session id. */
  readonly id = undefined;
  handshake: LegacyHandshake | undefined = undefined;
  initialized = false;
  logLevel: LoggingLevel | undefined = undefined;
  readonly resourceSubscriptions = new Set<string>();
  readonly #lifetime = new AbortController();
  readonly #channel: BackChannel;
  readonly #send: BackChannelHooks["send"];

  /**
   * @param hooks how to write to stdout and where to report.
   * @param timeoutMs how long a server -> client request waits by default, in milliseconds.
   */
  constructor(hooks: BackChannelHooks, timeoutMs?: number) {
    this.#channel = new BackChannel(hooks, timeoutMs);
    this.#send = hooks.send;
  }

  get signal(): AbortSignal {
    return this.#lifetime.signal;
  }

  notify(notification: JSONRPCNotification): void {
    if (!this.#lifetime.signal.aborted) this.#send(notification);
  }

  readonly request: BackChannelRequest = (method, params, options) =>
    this.#channel.request(method, params, options);

  /**
   * The back-channel of one client request: like {@link request}, and also cancelled when
   * `scope` (that request's signal) aborts.
   */
  requestWithin(scope: AbortSignal): BackChannelRequest {
    return (method: string, params: Record<string, unknown> | undefined, options?: BackChannelSendOptions) =>
      this.#channel.request(method, params, options, scope);
  }

  /** Settles the server -> client request `response` answers; false when none waits for it. */
  resolve(response: JSONRPCResponse): boolean {
    return this.#channel.resolve(response);
  }

  /**
   * Ends the session: requests still waiting for the client reject with McpError -32600, then
   * `signal` aborts with `reason`. Idempotent.
   */
  end(reason: unknown): void {
    if (this.#lifetime.signal.aborted) return;
    this.#channel.close();
    this.#lifetime.abort(reason);
  }
}
