/**
 * The options of the Streamable HTTP client transport, their defaults, and their checks (made when
 * the transport is built). Spec: basic/transports/streamable-http.
 */
import {
  checkFunction,
  checkInteger,
  checkObject,
  checkOptionsObject,
  optionTypeError,
} from "../../../protocol/options.js";
import { DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS } from "../../incoming.js";
import type { HttpClientAuth } from "./client-auth.js";
import {
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_RECONNECT_DELAY_MS,
  type ReconnectPolicy,
} from "./reconnect.js";
import {
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES,
  MAX_TIMER_MS,
  type ServiceUnavailablePolicy,
} from "./unavailable.js";

/** The largest response body, or SSE event, an `HttpClientTransport` reads by default: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Options of an `HttpClientTransport`. */
export interface HttpClientTransportOptions {
  /** Headers sent on every POST (for example `Authorization`). The protocol's own headers win. */
  headers?: Record<string, string>;
  /**
   * Authorization for every request (POST, GET stream, DELETE): its headers are added to each, and
   * a 401/403 answer is shown to it, after which the request may be sent again. An
   * `OAuthClientProvider` from tsmcp/client/auth, or any {@link HttpClientAuth}. Default: none.
   */
  auth?: HttpClientAuth;
  /**
   * The `fetch` to send every request with. Default: on Node.js (20.16 and later), `node:http` /
   * `node:https` with a keep-alive Agent per transport (no web streams, about a third of `fetch`'s
   * CPU per call); elsewhere the global `fetch`. Either way redirects are not followed.
   */
  fetch?: typeof fetch;
  /**
   * The largest JSON response body, and the largest single SSE event, in bytes; a larger one ends
   * the request with a `TransportError` (the rest is not read). Default
   * {@link DEFAULT_MAX_RESPONSE_BYTES} (32 MiB). An SSE stream as a whole has no limit
   * (`subscriptions/listen` streams live long); each event does.
   */
  maxResponseBytes?: number;
  /**
   * Reconnections in a row to an SSE stream of a 2025-era session (the GET stream, or a request's
   * stream the server closed before its response) that deliver no JSON-RPC message before giving
   * up: a failed reconnection counts, and so does one that carried only a priming event or
   * comments. Default {@link DEFAULT_MAX_RECONNECT_ATTEMPTS} (5).
   */
  maxReconnectAttempts?: number;
  /**
   * Milliseconds before reconnecting when the server sent no `retry:`. The server's `retry:` wins,
   * brought into 100 ms .. 10 minutes (`MIN_SERVER_RETRY_MS`, `MAX_SERVER_RETRY_MS`). Either delay
   * doubles with each reconnection in a row that delivered no message, up to 30 seconds (or the
   * server's longer `retry:`). Default {@link DEFAULT_RECONNECT_DELAY_MS} (1000).
   */
  reconnectDelayMs?: number;
  /**
   * The most requests from the server (`elicitation/create`, `sampling/createMessage`, `roots/list`,
   * `ping` on a 2025-era session) answered at once; one beyond it is answered at once with -32600
   * "Too many concurrent requests from the server (limit N)" and never reaches the client's
   * callbacks. An integer >= 1. Default {@link DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS} (16).
   */
  maxConcurrentServerRequests?: number;
  /**
   * Times one message is sent again when the server answers 503 Service Unavailable with a
   * `Retry-After` header (the server refused it before running anything: a POST of a request, a
   * notification or an answer to a server request, or the GET that opens an SSE stream), each after
   * the delay `Retry-After` names (delta-seconds or an HTTP-date), with the same body. A 503 without
   * `Retry-After`, or one asking for more than `maxRetryAfterMs`, is not retried; the 503 after the
   * last re-send fails the message as any 503 does. The wait ends when the request's signal aborts
   * or the transport closes. A non-negative integer; 0 turns retrying off. Default
   * {@link DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES} (3).
   */
  maxServiceUnavailableRetries?: number;
  /**
   * The longest `Retry-After` of a 503 the transport waits out before sending again, in
   * milliseconds; a 503 asking for a longer wait fails the message at once. An integer from 0
   * (retry only a `Retry-After: 0`) to 2147483647. Default {@link DEFAULT_MAX_RETRY_AFTER_MS} (5000).
   */
  maxRetryAfterMs?: number;
}

/** {@link HttpClientTransportOptions} checked, with every default filled in. */
export interface CheckedClientOptions {
  /** The user's headers, validated, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The authorization hook; undefined for none. */
  readonly auth: HttpClientAuth | undefined;
  /** The user's `fetch`; undefined for the default. */
  readonly fetch: typeof fetch | undefined;
  readonly maxResponseBytes: number;
  readonly reconnect: ReconnectPolicy;
  readonly maxConcurrentServerRequests: number;
  readonly serviceUnavailable: ServiceUnavailablePolicy;
}

/**
 * Checks and completes the options.
 *
 * @throws TypeError when a header is not a valid HTTP header, `fetch` is not a function, or `auth`
 *   has no `headers` and `onChallenge` methods;
 *   RangeError when `maxResponseBytes` is not a positive integer, or
 *   `maxReconnectAttempts` / `reconnectDelayMs` / `maxServiceUnavailableRetries` is not a
 *   non-negative integer, `maxConcurrentServerRequests` is not a positive integer, or
 *   `maxRetryAfterMs` is not an integer from 0 to 2147483647.
 */
export function checkClientOptions(options: HttpClientTransportOptions): CheckedClientOptions {
  const owner = "HttpClientTransport";
  const {
    headers,
    auth,
    fetch: fetchOption,
    maxResponseBytes,
    maxReconnectAttempts,
    reconnectDelayMs,
    maxConcurrentServerRequests,
    maxServiceUnavailableRetries,
    maxRetryAfterMs,
  } = checkOptionsObject(owner, options);
  checkObject(owner, "headers", headers);
  // `Headers` validates each name and value (TypeError) and lower-cases the names.
  const checkedHeaders = Object.fromEntries(new Headers(headers));
  checkFunction(owner, "fetch", fetchOption);
  checkAuth(owner, auth);
  checkInteger(owner, "maxResponseBytes", maxResponseBytes, { min: 1, unit: "bytes" });
  checkInteger(owner, "maxReconnectAttempts", maxReconnectAttempts);
  checkInteger(owner, "reconnectDelayMs", reconnectDelayMs, { unit: "milliseconds" });
  checkInteger(owner, "maxConcurrentServerRequests", maxConcurrentServerRequests, { min: 1 });
  checkInteger(owner, "maxServiceUnavailableRetries", maxServiceUnavailableRetries);
  checkInteger(owner, "maxRetryAfterMs", maxRetryAfterMs, { max: MAX_TIMER_MS, unit: "milliseconds" });
  return {
    headers: checkedHeaders,
    auth,
    fetch: fetchOption,
    maxResponseBytes: maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    reconnect: {
      maxAttempts: maxReconnectAttempts ?? DEFAULT_MAX_RECONNECT_ATTEMPTS,
      delayMs: reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS,
    },
    maxConcurrentServerRequests: maxConcurrentServerRequests ?? DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS,
    serviceUnavailable: {
      maxRetries: maxServiceUnavailableRetries ?? DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES,
      maxRetryAfterMs: maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    },
  };
}

/**
 * Checks an `auth` option: an object with `headers` and `onChallenge` methods, or undefined.
 *
 * @throws TypeError naming `owner` and the option otherwise.
 */
export function checkAuth(owner: string, auth: unknown): asserts auth is HttpClientAuth | undefined {
  if (auth === undefined) return;
  const hook = auth as Partial<Record<keyof HttpClientAuth, unknown>> | null;
  if (
    typeof hook !== "object" ||
    hook === null ||
    typeof hook.headers !== "function" ||
    typeof hook.onChallenge !== "function"
  ) {
    throw optionTypeError(
      owner,
      "auth",
      "an HttpClientAuth (an object with headers() and onChallenge() methods)",
    );
  }
}
