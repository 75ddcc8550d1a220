/**
 * Canonical unpadded base64url: the only spelling of bytes a requestState token or claim accepts.
 * Node's decoder is lenient (it skips junk, stops at padding, and reads `+`/`/` like `-`/`_`), so a
 * decoded value counts only when the text is exactly what encoding those bytes gives back: ASCII
 * only, every character a digit that decoded to six bits, no `+` or `/`, and zero bits past the
 * last byte (RFC 4648 §3.5, §5).
 */

/** Encodes bytes as unpadded base64url (RFC 4648 §5). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/** The value of a base64url digit, by character code; -1 for anything else. */
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (const [index, digit] of [
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
].entries()) {
  DIGIT_VALUE[digit.charCodeAt(0)] = index;
}

/** Bits of the last digit that must be zero, by the text's length modulo 4 (a remainder of 1 is never valid). */
const UNUSED_BITS = [0, 0, 0b1111, 0b11];

/**
 * Decodes `text` when it is the canonical unpadded base64url spelling of some bytes; `undefined`
 * for padding, whitespace, `+`/`/`, junk, or non-zero trailing bits.
 */
export function decodeCanonicalBase64Url(text: string): Buffer | undefined {
  const remainder = text.length & 3;
  if (remainder === 1) return undefined;
  // Only ASCII: the decoder reads a character beyond U+00FF by its low byte (U+012B as "+").
  if (Buffer.byteLength(text, "utf8") !== text.length) return undefined;
  const bytes = Buffer.from(text, "base64url");
  // A skipped or terminating character leaves fewer than six bits per character decoded.
  if (bytes.length !== (text.length >> 2) * 3 + (remainder === 0 ? 0 : remainder - 1)) return undefined;
  if (text.includes("+") || text.includes("/")) return undefined;
  if (remainder !== 0) {
    const last = DIGIT_VALUE[text.charCodeAt(text.length - 1)] ?? -1;
    if (last < 0 || (last & UNUSED_BITS[remainder]!) !== 0) return undefined;
  }
  return bytes;
}
