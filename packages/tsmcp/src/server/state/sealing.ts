/**
 * Sealing and opening one round's `requestState` under a policy: the claims envelope around the
 * plaintext, stamped with the policy's clock and sealed by its codec; and the reverse, with every
 * claim checked against the retry. Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow).
 */
import type { Carried } from "../request-trace.js";
import { encodeBase64Url } from "./base64url.js";
import {
  type ClaimsExpectation,
  encodeClaims,
  type OpenedClaims,
  openClaims,
  type RequestBinding,
} from "./claims.js";
import { InvalidRequestState } from "./errors.js";
import type { RequestStateSecurity } from "./policy.js";
import { principalClaim } from "./principal.js";
import { pooledRandomBytes } from "./random-pool.js";

/** The request a state is sealed for, or opened by. */
export interface RequestStateScope {
  /** Method, target and arguments digest of the request. */
  readonly binding: RequestBinding;
  /** The effective audience, or `null` for none. */
  readonly audience: string | null;
  /** The request's principal, or `undefined`; may throw `InvalidRequestState` with its own reason. */
  readonly principal: ClaimsExpectation["principal"];
  /** Sealing only: mint a unique state id (a single-use target's, to key the replay cache). */
  readonly singleUse?: boolean;
  /** Sealing only: the trace context or round to carry to the next leg (a valid one; see `isCarriable`). */
  readonly trace?: Carried | undefined;
}

/** Bytes of randomness in a state id (22 base64url characters). */
const STATE_ID_BYTES = 16;

/**
 * Seals `state` for `scope`: a fresh envelope (`iat` = now, `exp` = now + `ttlMs`, a fresh
 * principal salt, for `singleUse` a fresh random state id, and `scope.trace` when given) sealed by
 * the policy's codec.
 *
 * @throws InvalidRequestState (here a log-only reason for refusing to seal) when the principal
 *   cannot be derived, the codec throws (`"codec error"`, the error kept as `cause`) or returns a
 *   non-string; TypeError when `scope.trace` is not a valid carried trace or round.
 */
export function sealRequestState(
  policy: RequestStateSecurity,
  state: string,
  scope: RequestStateScope,
): string {
  const principal = scope.principal();
  const issuedAtMs = policy.clock.now();
  const payload = encodeClaims({
    issuedAtMs,
    expiresAtMs: issuedAtMs + policy.ttlMs,
    binding: scope.binding,
    state,
    audience: scope.audience,
    principalClaim: principal === undefined ? undefined : principalClaim(principal),
    ...(scope.singleUse === true ? { stateId: encodeBase64Url(pooledRandomBytes(STATE_ID_BYTES)) } : {}),
    ...(scope.trace === undefined ? {} : { trace: scope.trace }),
  });
  let token: unknown;
  try {
    token = policy.codec.seal(payload);
  } catch (error) {
    throw new InvalidRequestState("codec error", { cause: error });
  }
  if (typeof token !== "string") {
    throw new InvalidRequestState("codec error", {
      detail: `codec.seal returned ${typeof token}, expected a string`,
    });
  }
  return token;
}

/**
 * Opens `token` for `scope` and returns the plaintext state.
 *
 * @throws InvalidRequestState with the codec's reason, `"codec error"` (the codec threw anything
 *   else, kept as `cause`, or returned something other than bytes), or a claims reason (see
 *   `checkClaims`).
 */
export function openRequestState(
  policy: RequestStateSecurity,
  token: string,
  scope: RequestStateScope,
): string {
  return openRequestStateClaims(policy, token, scope).state;
}

/**
 * {@link openRequestState}, returning the state's id and expiry beside the plaintext.
 *
 * @throws InvalidRequestState as {@link openRequestState}.
 */
export function openRequestStateClaims(
  policy: RequestStateSecurity,
  token: string,
  scope: RequestStateScope,
): OpenedClaims {
  let payload: unknown;
  try {
    payload = policy.codec.unseal(token);
  } catch (error) {
    if (error instanceof InvalidRequestState) throw error;
    throw new InvalidRequestState("codec error", { cause: error });
  }
  if (!(payload instanceof Uint8Array)) throw new InvalidRequestState("codec error");
  return openClaims(payload, {
    nowMs: policy.clock.now(),
    binding: scope.binding,
    audience: scope.audience,
    principal: scope.principal,
  });
}
