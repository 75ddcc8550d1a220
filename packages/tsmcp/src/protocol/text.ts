/**
 * Text that came from the other side, bounded: cut before it is quoted back in an error (a long
 * value must never make a long answer), and measured in UTF-8 bytes against a limit.
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

const encoder = new TextEncoder();

/**
 * True when `text` takes more than `maxBytes` bytes in UTF-8. Encoded only when its length cannot
 * tell (a UTF-16 code unit is 1 to 3 UTF-8 bytes).
 */
export function exceedsBytes(text: string, maxBytes: number): boolean {
  if (text.length > maxBytes) return true;
  if (text.length * 3 <= maxBytes) return false;
  return encoder.encode(text).byteLength > maxBytes;
}
