/**
 * Cutting text that came from the other side before it is quoted back in an error: a long value
 * must never make a long answer.
 */

/**
 * How many characters of a value the other side sent an error message quotes (a tool name, a
 * method, a URI, a header value) before cutting it with `truncate`.
 */
export const MAX_QUOTED_LENGTH = 200;

/**
 * `text` cut to `limit` UTF-16 code units plus "…" when it is longer, never splitting a surrogate
 * pair (the cut moves one unit earlier instead). `text` itself when it fits.
 */
export function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}…`;
}
