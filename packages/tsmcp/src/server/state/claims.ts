/**
 * The claims envelope sealed around a handler's plaintext `requestState`: when it was minted, when
 * it expires, which request it belongs to (method, target, arguments digest), for which audience and
 * principal. Building it, reading it back, and checking it against the request that echoes it.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow) (bind principal, expiry,
 * originating request).
 *
 * Wire form: the binary envelope of `envelope.ts` (version, flags, `iat`, `exp`, method, target,
 * arguments digest, audience and principal claim when present, then the plaintext state).
 */
import { createHash } from "node:crypto";
import type { Params } from "../../protocol/jsonrpc.js";
import type { Carried } from "../request-trace.js";
import { encodeBase64Url } from "./base64url.js";
import type { RequestBinding } from "./claims-shape.js";
import {
  DIGEST_FIELD,
  METHOD_FIELD,
  REQUEST_STATE_ENVELOPE_VERSION,
  type ReadEnvelope,
  readEnvelope,
  TARGET_FIELD,
} from "./envelope.js";
import { InvalidRequestState } from "./errors.js";
import { principalClaimMatches } from "./principal.js";

export type { RequestBinding, RequestStateClaims } from "./claims-shape.js";
export { encodeClaims } from "./envelope.js";
export { REQUEST_STATE_ENVELOPE_VERSION };

/** How far in the future a mint time (`iat`) may lie before a token is refused, in milliseconds. */
export const REQUEST_STATE_FUTURE_SKEW_MS = 60_000;

/** What a retry must match for its state to open. */
export interface ClaimsExpectation {
  /** The verifier's current time, milliseconds since the epoch. */
  readonly nowMs: number;
  /** The binding recomputed from the retry's params. */
  readonly binding: RequestBinding;
  /** The effective audience, or `null` for none. */
  readonly audience: string | null;
  /**
   * The retry's principal, or `undefined` for none; called only once every other check passed.
   * May throw `InvalidRequestState` with its own reason.
   */
  readonly principal: () => string | undefined;
}

/**
 * JSON with object keys sorted (by UTF-16 code unit) at every depth, no whitespace. Values follow
 * `JSON.stringify` (`toJSON` honoured, `undefined` members dropped, non-finite numbers as `null`,
 * lone surrogates escaped).
 *
 * @throws TypeError for a `bigint`; RangeError for a cyclic value.
 */
export function canonicalJson(value: unknown): string {
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (isSkipped(item) ? "null" : canonicalJson(item))).join(",")}]`;
  }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = record[key];
      if (!isSkipped(member)) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
    }
    return `{${members.join(",")}}`;
  }
  return isSkipped(value) ? "null" : JSON.stringify(value);
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/**
 * The arguments digest: `base64url(SHA-256(canonicalJson(args))[:16])`. `undefined` and `null`
 * digest like `{}`; key order never matters.
 */
export function argumentsDigest(args: unknown): string {
  const canonical = canonicalJson(args === undefined || args === null ? {} : args);
  return encodeBase64Url(createHash("sha256").update(canonical, "utf8").digest().subarray(0, 16));
}

function targetOf(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined || value === null ? "" : String(value);
}

/**
 * The binding of a request: `params.name` and `params.arguments` for `tools/call` and
 * `prompts/get`; `params.uri` and `{}` for `resources/read`. Only these fields are read: `_meta`
 * (progress tokens and the like) never enters it, so it may change between rounds.
 *
 * @throws TypeError / RangeError when the arguments cannot be serialised (a `bigint`, a cycle).
 */
export function requestBinding(method: string, params: Params): RequestBinding {
  if (method === "resources/read") {
    return { method, target: targetOf(params.uri), argumentsDigest: argumentsDigest({}) };
  }
  return { method, target: targetOf(params.name), argumentsDigest: argumentsDigest(params.arguments) };
}

/** What an opened envelope yields once every claim matched. */
export interface OpenedClaims {
  /** The handler's plaintext state. */
  readonly state: string;
  /** The state's unique id, when it was minted for a single-use target. */
  readonly stateId: string | undefined;
  /** The state's expiry (`exp`), milliseconds since the epoch. */
  readonly expiresAtMs: number;
  /** The trace context (or the round alone) the state carries from the call's first leg, when it carries one. */
  readonly trace: Carried | undefined;
}

/**
 * {@link checkClaims}, returning the state's id and expiry beside the plaintext state.
 *
 * @throws InvalidRequestState as {@link checkClaims}.
 */
export function openClaims(payload: Uint8Array, expected: ClaimsExpectation): OpenedClaims {
  const envelope = readEnvelope(payload);
  checkEnvelope(envelope, expected);
  const idField = envelope.stateIdField;
  return {
    state: envelope.state,
    stateId: idField < 0 ? undefined : envelope.fieldLatin1(idField),
    expiresAtMs: envelope.expiresAtMs,
    trace: envelope.trace,
  };
}

/**
 * Reads an opened envelope and checks it against the retry, in this order, returning the plaintext
 * state. A missing audience matches only `null`.
 *
 * @throws InvalidRequestState with reason `"malformed"` (not an envelope `encodeClaims` writes: an
 *   unknown version or flag, a field past the end, a state that is not strict UTF-8),
 *   `"minted in the future"` (`iat` beyond now + 60 s), `"expired"` (now at or past `exp`),
 *   `"request binding"` (method, target or arguments digest differ), `"audience"`,
 *   `"principal drift"` (bound on one side only), `"principal"` (a different principal), or
 *   whatever reason `expected.principal` throws with.
 */
export function checkClaims(payload: Uint8Array, expected: ClaimsExpectation): string {
  const envelope = readEnvelope(payload);
  checkEnvelope(envelope, expected);
  return envelope.state;
}

function checkEnvelope(envelope: ReadEnvelope, expected: ClaimsExpectation): void {
  if (!(envelope.issuedAtMs <= expected.nowMs + REQUEST_STATE_FUTURE_SKEW_MS)) {
    throw new InvalidRequestState("minted in the future");
  }
  if (!(expected.nowMs < envelope.expiresAtMs)) throw new InvalidRequestState("expired");
  const { binding } = expected;
  if (
    !envelope.fieldEquals(METHOD_FIELD, binding.method) ||
    !envelope.fieldEquals(TARGET_FIELD, binding.target) ||
    !envelope.fieldEquals(DIGEST_FIELD, binding.argumentsDigest)
  ) {
    throw new InvalidRequestState("request binding");
  }
  const audienceField = envelope.audienceField;
  if (
    audienceField < 0
      ? expected.audience !== null
      : expected.audience === null || !envelope.fieldEquals(audienceField, expected.audience)
  ) {
    throw new InvalidRequestState("audience");
  }
  const principalField = envelope.principalField;
  const principal = expected.principal();
  if (principalField < 0 !== (principal === undefined)) throw new InvalidRequestState("principal drift");
  if (
    principalField >= 0 &&
    principal !== undefined &&
    !principalClaimMatches(envelope.fieldLatin1(principalField), principal)
  ) {
    throw new InvalidRequestState("principal");
  }
}
