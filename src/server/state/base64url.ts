/**
 * Canonical unpadded base64url: the only spelling of bytes a requestState token or claim accepts.
 * Node's decoder is lenient (it skips junk, accepts padding and `+/`), so a decoded value counts only
 * when re-encoding it gives back the exact input.
 */

/** Encodes bytes as unpadded base64url (RFC 4648 §5). */
export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/**
 * Decodes `text` when it is the canonical unpadded base64url spelling of some bytes; `undefined`
 * for padding, whitespace, `+`/`/`, junk, or non-zero trailing bits.
 */
export function decodeCanonicalBase64Url(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}
