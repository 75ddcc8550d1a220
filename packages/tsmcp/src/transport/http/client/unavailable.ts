/**
 * A server that cannot serve a request for a short while (its shared state briefly unreachable)
 * answers 503 Service Unavailable with `Retry-After` before running anything; the client sends the
 * same request again once that delay has passed, a bounded number of times and only for a bounded
 * wait. Spec: RFC 9110 §15.6.4 (503 Service Unavailable), §10.2.3 (Retry-After).
 */
import type { HttpSender } from "./http-answer.js";
import { sleep } from "./reconnect.js";
import { retryAfterMs } from "./retry-after.js";

/** Times an `HttpClientTransport` sends a request again after a 503 with `Retry-After`, by default: 3. */
export const DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES = 3;
/**
 * The longest `Retry-After` an `HttpClientTransport` waits out before sending a request again, by
 * default, in milliseconds: 5000. A 503 asking for a longer wait is not retried.
 */
export const DEFAULT_MAX_RETRY_AFTER_MS = 5000;
/** The longest wait a timer can make, in milliseconds (about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** How a transport answers a 503 with `Retry-After`. */
export interface ServiceUnavailablePolicy {
  /** Re-sends of one request at most; 0 for none. */
  readonly maxRetries: number;
  /** The longest `Retry-After` waited out, in milliseconds. */
  readonly maxRetryAfterMs: number;
}

/**
 * A sender that sends a POST or a GET through `inner` again, with the same headers and body, when
 * it is answered 503 with a `Retry-After` of at most `policy.maxRetryAfterMs`, after that delay and
 * at most `policy.maxRetries` times. Any other answer, a 503 without a usable `Retry-After` or
 * asking for a longer wait, and the 503 after the last re-send are returned as they are. A DELETE
 * is never sent again (it ends a session that ends anyway). `inner` itself when `maxRetries` is 0.
 * The wait ends, rejecting with the signal's reason, as soon as the request's signal aborts.
 */
export function retryingSender(inner: HttpSender, policy: ServiceUnavailablePolicy): HttpSender {
  if (policy.maxRetries === 0) return inner;
  return {
    async send(method, headers, body, signal) {
      for (let retries = 0; ; retries++) {
        const answer = await inner.send(method, headers, body, signal);
        if (answer.status !== 503 || method === "DELETE" || retries >= policy.maxRetries) return answer;
        const waitMs = retryAfterMs(answer.header("retry-after"), answer.header("date"));
        if (waitMs === undefined || waitMs > policy.maxRetryAfterMs) return answer;
        await answer.discard();
        await sleep(waitMs, signal);
      }
    },
    close() {
      inner.close();
    },
  };
}
