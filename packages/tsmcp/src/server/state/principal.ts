/**
 * Who a requestState belongs to: the default principal derived from the request's authenticated
 * identity, and the salted claim that binds a token to it without revealing it (two tokens for one
 * principal are unlinkable).
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow) (bind the principal).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { principalOf } from "../../transport/dispatcher.js";
import type { RequestContext } from "../context.js";
import { decodeCanonicalBase64Url, encodeBase64Url } from "./base64url.js";
import { exactUtf8Bytes } from "./exact-utf8.js";
import { pooledRandomBytes } from "./random-pool.js";

const PRINCIPAL_LABEL = Buffer.from("mcp/request-state/principal:", "ascii");
const SALT_BYTES = 8;
const TAG_BYTES = 16;

/**
 * The default principal binding: the authenticated identity of the request, as the compact JSON
 * `[clientId, issuer, subject]` (each `null` when the auth layer did not supply it), e.g.
 * `["client-123","https://as.example","alice"]`; with none of the three, the token itself
 * (`principalOf`); `undefined` when the request carries no `ctx.auth` (the state is then not
 * principal-bound). Two users of one OAuth client are distinct
 * when the verifier supplies subjects. An auth layer must supply the components consistently, or
 * flows in progress fail ("principal drift").
 */
export function authenticatedPrincipal(ctx: RequestContext): string | undefined {
  return ctx.auth === undefined ? undefined : principalOf(ctx.auth);
}

function principalTag(salt: Uint8Array, principal: string): Buffer {
  return createHash("sha256")
    .update(PRINCIPAL_LABEL)
    .update(salt)
    .update(exactUtf8Bytes(principal))
    .digest()
    .subarray(0, TAG_BYTES);
}

/**
 * The salted principal claim `p`: `base64url(salt(8) || SHA-256("mcp/request-state/principal:" ||
 * salt || principal)[:16])`, with a fresh random salt on every call.
 */
export function principalClaim(principal: string): string {
  const salt = pooledRandomBytes(SALT_BYTES);
  return encodeBase64Url(Buffer.concat([salt, principalTag(salt, principal)]));
}

/**
 * True when `claim` (from a token) was made by {@link principalClaim} for `principal`; the tags are
 * compared in constant time. False for anything that is not a canonical claim.
 */
export function principalClaimMatches(claim: string, principal: string): boolean {
  const bytes = decodeCanonicalBase64Url(claim);
  if (bytes === undefined || bytes.length !== SALT_BYTES + TAG_BYTES) return false;
  const expected = principalTag(bytes.subarray(0, SALT_BYTES), principal);
  return timingSafeEqual(bytes.subarray(SALT_BYTES), expected);
}
