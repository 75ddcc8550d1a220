/**
 * The HTTP client transport's sender over `fetch`: the user's own `fetch`, or the global one on a
 * runtime other than Node.js. Redirects are not followed (`redirect: "manual"`); the body is read
 * through the web stream's reader.
 */
import type { HttpClientAnswer, HttpMethod, HttpSender } from "./http-answer.js";

/** A sender to `url` through `fetchImpl`. */
export function fetchSender(url: URL, fetchImpl: typeof fetch): HttpSender {
  return {
    async send(method: HttpMethod, headers: Record<string, string>, body: string | undefined, signal) {
      // A `Headers`, as a `fetch` of the user's may expect to find in `init.headers`.
      const init: RequestInit = { method, headers: new Headers(headers), signal, redirect: "manual" };
      if (body !== undefined) init.body = body;
      return fetchAnswer(await fetchImpl(url, init));
    },
    close() {},
  };
}

/** A `fetch` Response as an {@link HttpClientAnswer}. */
export function fetchAnswer(response: Response): HttpClientAnswer {
  const status = response.type === "opaqueredirect" ? 0 : response.status;
  return {
    status,
    header: (name) => response.headers.get(name),
    async text(maxBytes) {
      if (response.body === null) return "";
      let text = "";
      let size = 0;
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > maxBytes) {
          await reader.cancel().catch(() => {});
          return undefined;
        }
        text += decoder.decode(value, { stream: true });
      }
      return text + decoder.decode();
    },
    async read(onText) {
      if (response.body === null) return true;
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      let ended = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            ended = true;
            return true;
          }
          if (onText(decoder.decode(value, { stream: true }))) return false;
        }
      } finally {
        if (!ended) await reader.cancel().catch(() => {});
        reader.releaseLock();
      }
    },
    async discard() {
      await response.body?.cancel().catch(() => {});
    },
  };
}
