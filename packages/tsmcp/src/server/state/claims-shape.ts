/**
 * The shapes of the request-state claims: which request a state belongs to, and what a fresh
 * envelope holds. A leaf, so the envelope codec and the claim checks can both use them.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 */
import type { Carried } from "../request-trace.js";

/** Which request a state belongs to; recomputed from every retry and compared. */
export interface RequestBinding {
  /** The JSON-RPC method. */
  readonly method: string;
  /** The tool or prompt name, or the resource URI; `""` when missing. */
  readonly target: string;
  /** {@link argumentsDigest} of the arguments; resources bind by URI, so `{}`. */
  readonly argumentsDigest: string;
}

/** What a fresh envelope holds. */
export interface RequestStateClaims {
  /** Mint time, milliseconds since the epoch (`iat`). */
  readonly issuedAtMs: number;
  /** Expiry, milliseconds since the epoch (`exp`); the token is refused from this instant on. */
  readonly expiresAtMs: number;
  /** The request the state belongs to. */
  readonly binding: RequestBinding;
  /** The handler's plaintext state. */
  readonly state: string;
  /** The audience, or `null` for none. */
  readonly audience: string | null;
  /** The salted principal claim, or `undefined` when the state is not principal-bound. */
  readonly principalClaim: string | undefined;
  /**
   * The state's unique id (random, URL-safe), minted for a single-use target to key the replay
   * cache; absent otherwise.
   */
  readonly stateId?: string | undefined;
  /**
   * The first leg's trace context and the round the state is minted in (or the round alone when the
   * first leg had no valid span context), so the next leg, on any server sharing the keys, joins the
   * call's trace and counts its round; absent when nothing records the request.
   */
  readonly trace?: Carried | undefined;
}
