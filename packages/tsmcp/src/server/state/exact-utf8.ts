/**
 * The exact bytes of a JavaScript string: UTF-8, except that a lone surrogate (which UTF-8 cannot
 * carry, and `Buffer.from` would replace with U+FFFD) is encoded as its own three-byte form, as
 * WTF-8 and Python's "surrogatepass" do. Distinct strings always give distinct bytes, so a
 * comparison of bytes is a comparison of strings.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type WellFormedCheck = (this: string) => boolean;
/** `String.prototype.isWellFormed` (ES2024, in every Node >= 20), or a regular-expression fallback. */
const wellFormed: WellFormedCheck =
  (String.prototype as { isWellFormed?: WellFormedCheck }).isWellFormed ??
  function (this: string) {
    return !LONE_SURROGATE.test(this);
  };

/** True when `text` holds no lone surrogate, i.e. its UTF-8 encoding is exact. */
export function isWellFormed(text: string): boolean {
  return wellFormed.call(text);
}

/** UTF-8, except that lone surrogates are encoded as themselves (see the module comment). */
export function exactUtf8Bytes(text: string): Buffer {
  if (isWellFormed(text)) return Buffer.from(text, "utf8");
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    parts.push(
      Buffer.from(text.slice(start, i), "utf8"),
      Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]),
    );
    start = i + 1;
  }
  parts.push(Buffer.from(text.slice(start), "utf8"));
  return Buffer.concat(parts);
}
