/**
 * The one seam between the HTTP client transport and whatever carries its requests: a sender
 * takes a method, headers and a body and resolves with an {@link HttpClientAnswer}, which the transport
 * reads as text within a size bound, chunk by chunk (SSE), or not at all. Two senders exist: one
 * over `fetch` (any runtime, or the user's own `fetch`) and one over Node's `node:http` (no web
 * streams; chosen on Node.js when no `fetch` is given). Neither follows redirects.
 */

/** The HTTP methods the client transport sends. */
export type HttpMethod = "GET" | "POST" | "DELETE";

/** One HTTP answer as the client transport reads it, whatever sent the request. */
export interface HttpClientAnswer {
  /**
   * The status code; 0 for the opaque answer of a redirect a browser's `fetch` did not follow
   * (`redirect: "manual"`).
   */
  readonly status: number;
  /** A header's value, or null when absent; `name` in lower case. */
  header(name: string): string | null;
  /**
   * Reads the body to its end as UTF-8 text, at most `maxBytes` bytes (a leading byte order mark
   * dropped). Resolves with undefined when the body is longer: the rest is not read and the
   * connection is released.
   *
   * @throws the connection's failure.
   */
  text(maxBytes: number): Promise<string | undefined>;
  /**
   * Reads the body as UTF-8 text, one decoded chunk at a time, until it ends (resolves true) or
   * `onText` returns true (the rest is not read and the connection is released; resolves false).
   *
   * @throws the connection's failure; whatever `onText` throws (the body is released first).
   */
  read(onText: (text: string) => boolean): Promise<boolean>;
  /** Releases a body that is not read. Never throws. */
  discard(): Promise<void>;
}

/** Sends HTTP requests to one URL. */
export interface HttpSender {
  /**
   * Sends one request: `headers` names in lower case, `body` sent as UTF-8. Resolves with the
   * answer once its headers have arrived; a redirect is answered as it is, never followed.
   *
   * @throws the network failure (a `fetch` TypeError, or a Node system error with its `code`); the
   *   signal's reason, or an AbortError, when `signal` aborts.
   */
  send(
    method: HttpMethod,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal,
  ): Promise<HttpClientAnswer>;
  /** Releases idle connections. Requests still in flight are ended by their signals. */
  close(): void;
}

/** True for a redirect answer (3xx, or the opaque answer of an unfollowed redirect). */
export function isRedirect(answer: HttpClientAnswer): boolean {
  return answer.status === 0 || (answer.status >= 300 && answer.status < 400);
}

/** True for a 2xx answer. */
export function isOk(answer: HttpClientAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}
