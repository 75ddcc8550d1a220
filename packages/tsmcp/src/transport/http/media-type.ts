/**
 * Content negotiation for the HTTP server: is a body JSON (`Content-Type`), and may the answer be
 * an SSE stream (`Accept`)? Media types compare case-insensitively, parameters aside (RFC 9110
 * §8.3, §12.5.1). Spec: basic/transports/streamable-http (the client accepts both
 * `application/json` and `text/event-stream`).
 */

/** The bare media type of a `Content-Type` value, lowercased, or `undefined` when absent. */
function mediaTypeOf(value: string | null): string | undefined {
  if (value === null) return undefined;
  return value.split(";", 1)[0]?.trim().toLowerCase();
}

/** True when a `Content-Type` header value is `application/json` (any parameters). */
export function isJsonContentType(contentType: string | null): boolean {
  return contentType === "application/json" || mediaTypeOf(contentType) === "application/json";
}

/** True when a `Content-Type` header value is `text/event-stream` (any parameters). */
export function isEventStreamContentType(contentType: string | null): boolean {
  return mediaTypeOf(contentType) === "text/event-stream";
}

/**
 * True when an `Accept` header value admits `text/event-stream`: it lists it, `text/*` or `*\/*`
 * with a non-zero `q`. An absent `Accept` admits anything (RFC 9110 §12.5.1).
 */
export function acceptsEventStream(accept: string | null): boolean {
  if (accept === null) return true;
  // A client sends the same `Accept` on every request: the last answer is kept.
  if (accept !== lastAccept) {
    lastAccepts = admitsEventStream(accept);
    lastAccept = accept;
  }
  return lastAccepts;
}

let lastAccept: string | undefined;
let lastAccepts = false;

function admitsEventStream(accept: string): boolean {
  for (const range of accept.split(",")) {
    const [type, ...params] = range.split(";").map((part) => part.trim().toLowerCase());
    if (type !== "text/event-stream" && type !== "text/*" && type !== "*/*") continue;
    const q = params.find((param) => param.startsWith("q="));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
