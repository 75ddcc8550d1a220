/**
 * The contract between the requestState boundary and whatever encrypts its payloads. The built-in
 * codec is `AesGcmRequestStateCodec`; bring your own (KMS envelope encryption, an HSM) by
 * implementing these two synchronous methods.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 */

/**
 * Encrypts and authenticates opaque payloads into URL-safe tokens, and back.
 *
 * - `unseal(seal(x))` returns bytes equal to `x`.
 * - `unseal` throws `InvalidRequestState` (with a short, log-only reason) for anything it did not
 *   mint unmodified, including any other spelling of a minted token; compare secrets in constant
 *   time.
 * - Both are synchronous and cheap: cache key material at construction, never call a KMS per token.
 * - Tokens should start with a format-version prefix bound under the authentication tag.
 *
 * Expiry, request binding, audience and principal are the boundary's job, for every codec; a codec
 * only keeps payloads confidential and unforgeable. Anything other than `InvalidRequestState` thrown
 * by `unseal` is treated as a failure (reason "codec error"); from `seal`, as an internal error.
 */
export interface RequestStateCodec {
  /** Seals `payload` (the claims envelope) into an opaque, URL-safe token. */
  seal(payload: Uint8Array): string;
  /** Opens a token this codec minted. @throws InvalidRequestState for anything else. */
  unseal(token: string): Uint8Array;
}

/** True when `value` has callable `seal` and `unseal`. */
export function isRequestStateCodec(value: unknown): value is RequestStateCodec {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RequestStateCodec).seal === "function" &&
    typeof (value as RequestStateCodec).unseal === "function"
  );
}
