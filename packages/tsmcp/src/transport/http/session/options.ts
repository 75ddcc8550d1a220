/**
 * How the Streamable HTTP server serves clients of the 2025 handshake era (`initialize`,
 * `Mcp-Session-Id`, the GET stream), and the bounds of its sessions. Checked when the handler is
 * built. Spec (2025-11-25): basic/transports §Session Management, §Resumability and Redelivery.
 */
import { checkInteger, optionTypeError } from "../../../protocol/options.js";
import type { StateStores } from "../../../state/stores.js";
import { DEFAULT_BACK_CHANNEL_TIMEOUT_MS } from "../../dispatcher.js";
import { resolveState, type SessionState } from "./state.js";

/**
 * How a handshake-era client is served:
 * - `"session"`: `initialize` mints an `Mcp-Session-Id`; the session has the GET stream, the
 *   back-channel (elicitation, sampling, roots), resumable SSE streams and DELETE.
 * - `"stateless"`: `initialize` is answered without a session id and every later request is served
 *   on its own, with no back-channel and no GET stream (like the official SDKs' stateless mode);
 *   for deployments that cannot keep state between requests, or cannot write to one request's
 *   response while serving another (Cloudflare Workers). A tool that asks the client something
 *   (a resolver, `ctx.elicit`, `ctx.createMessage`, `ctx.listRoots`) fails with -32600 naming the
 *   limitation and advising revision 2026-07-28 or a stateful deployment.
 * - `"reject"`: only the 2026-07-28 wire; `initialize` gets -32022 naming the versions served.
 */
export type LegacyMode = "session" | "stateless" | "reject";

/**
 * The handshake-era mode by default, except on Cloudflare Workers (see
 * {@link WORKERS_LEGACY_MODE}).
 */
export const DEFAULT_LEGACY_MODE: LegacyMode = "session";

/**
 * The handshake-era mode by default on Cloudflare Workers (workerd, recognised by its
 * `navigator.userAgent`, `"Cloudflare-Workers"`): a Worker may not write to one request's response
 * while serving another, so a session's GET stream and back-channel cannot work there, and its next
 * request may reach another isolate that does not know the session.
 */
export const WORKERS_LEGACY_MODE: LegacyMode = "stateless";

/** True on Cloudflare Workers (workerd), by the `navigator.userAgent` it documents. */
export function isCloudflareWorkers(): boolean {
  const { navigator } = globalThis as { navigator?: { userAgent?: unknown } };
  return navigator?.userAgent === "Cloudflare-Workers";
}
/** Live sessions at most, by default; one more evicts an idle one. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** Milliseconds a session may stay idle (no request, no open stream) before it ends, by default: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** SSE events kept per stream for resumption (and queued for an absent GET stream), by default. */
export const DEFAULT_MAX_QUEUED_EVENTS = 100;
/** The `retry:` milliseconds sent to a client before the server closes a stream, by default. */
export const DEFAULT_RETRY_MS = 1000;

/**
 * Milliseconds, by default, the replica serving a request has to answer a ping when its stream is
 * resumed on another replica of a fleet: 2000.
 */
export const DEFAULT_OWNER_PING_TIMEOUT_MS = 2000;

/** The longest delay a timer can hold (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** The session options of the HTTP handler (part of `HttpHandlerOptions`). */
export interface SessionOptions {
  /**
   * How a handshake-era (2025) client is served. Default {@link DEFAULT_LEGACY_MODE} (`"session"`),
   * or {@link WORKERS_LEGACY_MODE} (`"stateless"`) on Cloudflare Workers, decided when the handler
   * is built. A `legacy` given is always honoured.
   */
  legacy?: LegacyMode;
  /**
   * Live sessions at most. Minting one more ends an idle one (no request in flight, no stream
   * open), those that never sent a request after `initialize` first, then the least recently
   * used; failing that, the least recently used whose only activity is an open stream. Its id then
   * gets 404 (the client re-initializes). A session serving a request is never ended for room:
   * when every one is, `initialize` gets 503 with `Retry-After`. Default
   * {@link DEFAULT_MAX_SESSIONS} (1000).
   */
  maxSessions?: number;
  /**
   * Milliseconds without a request or an open stream after which a session ends (404 afterwards).
   * Default {@link DEFAULT_SESSION_IDLE_TIMEOUT_MS} (1800000, 30 minutes).
   */
  sessionIdleTimeoutMs?: number;
  /**
   * SSE events kept per stream for `Last-Event-ID` resumption, and the most session-wide messages
   * queued while no GET stream is open (the oldest are dropped first). Default
   * {@link DEFAULT_MAX_QUEUED_EVENTS} (100).
   */
  maxQueuedEvents?: number;
  /**
   * The `retry:` field, in milliseconds, of the priming event that opens every session SSE stream:
   * how long a client waits before reconnecting to a stream the server closed. Default
   * {@link DEFAULT_RETRY_MS} (1000).
   */
  retryMs?: number;
  /**
   * Milliseconds a server -> client request (`ctx.elicit`, `ctx.createMessage`, ...) waits for the
   * client's answer unless the call gives its own `timeoutMs`. Default
   * {@link DEFAULT_BACK_CHANNEL_TIMEOUT_MS} (60000).
   */
  backChannelTimeoutMs?: number;
  /**
   * In a fleet (a `state.bus`), milliseconds the replica serving a request has to answer a ping
   * when a client resumes that request's stream on another replica; one that does not has
   * stopped, and the stream ends with a JSON-RPC error (-32603) asking the client to send the
   * request again. Default {@link DEFAULT_OWNER_PING_TIMEOUT_MS} (2000).
   */
  ownerPingTimeoutMs?: number;
  /**
   * Where sessions, their SSE events and the messages between replicas are kept. Default: in
   * memory, private to this handler. Give shared stores (all three) to serve any session from
   * any replica of a fleet. See {@link StateStores}.
   */
  state?: StateStores;
}

/** {@link SessionOptions} with every default filled in. */
export interface CheckedSessionOptions {
  legacy: LegacyMode;
  maxSessions: number;
  sessionIdleTimeoutMs: number;
  maxQueuedEvents: number;
  retryMs: number;
  backChannelTimeoutMs: number;
  ownerPingTimeoutMs: number;
  /** The stores, defaults filled in, and this handler's instance id. */
  state: SessionState;
}

/**
 * Checks and completes the session options.
 *
 * @throws TypeError for a `legacy` other than the three modes, a non-number bound or a
 *   `state` whose stores lack a method; RangeError for
 *   a bound that is not an integer in range (`maxSessions`, `maxQueuedEvents` >= 1; the
 *   millisecond options >= 1 and at most 2^31 - 1; `retryMs` >= 0).
 */
export function checkSessionOptions(owner: string, options: SessionOptions): CheckedSessionOptions {
  const {
    legacy,
    maxSessions,
    sessionIdleTimeoutMs,
    maxQueuedEvents,
    retryMs,
    backChannelTimeoutMs,
    ownerPingTimeoutMs,
  } = options;
  if (legacy !== undefined && legacy !== "session" && legacy !== "stateless" && legacy !== "reject") {
    throw optionTypeError(
      owner,
      "legacy",
      `"session", "stateless" or "reject", got ${JSON.stringify(legacy)}`,
    );
  }
  checkInteger(owner, "maxSessions", maxSessions, { min: 1 });
  checkInteger(owner, "sessionIdleTimeoutMs", sessionIdleTimeoutMs, {
    min: 1,
    max: MAX_TIMER_MS,
    unit: "milliseconds",
  });
  checkInteger(owner, "maxQueuedEvents", maxQueuedEvents, { min: 1 });
  checkInteger(owner, "retryMs", retryMs, { max: MAX_TIMER_MS, unit: "milliseconds" });
  checkInteger(owner, "backChannelTimeoutMs", backChannelTimeoutMs, {
    min: 1,
    max: MAX_TIMER_MS,
    unit: "milliseconds",
  });
  checkInteger(owner, "ownerPingTimeoutMs", ownerPingTimeoutMs, {
    min: 1,
    max: MAX_TIMER_MS,
    unit: "milliseconds",
  });
  const bounds = {
    maxSessions: maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxQueuedEvents: maxQueuedEvents ?? DEFAULT_MAX_QUEUED_EVENTS,
    sessionIdleTimeoutMs: sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  };
  return {
    legacy: legacy ?? (isCloudflareWorkers() ? WORKERS_LEGACY_MODE : DEFAULT_LEGACY_MODE),
    maxSessions: maxSessions ?? DEFAULT_MAX_SESSIONS,
    sessionIdleTimeoutMs: sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    maxQueuedEvents: maxQueuedEvents ?? DEFAULT_MAX_QUEUED_EVENTS,
    retryMs: retryMs ?? DEFAULT_RETRY_MS,
    backChannelTimeoutMs: backChannelTimeoutMs ?? DEFAULT_BACK_CHANNEL_TIMEOUT_MS,
    ownerPingTimeoutMs: ownerPingTimeoutMs ?? DEFAULT_OWNER_PING_TIMEOUT_MS,
    state: resolveState(owner, options.state, bounds),
  };
}
