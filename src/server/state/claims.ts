/**
 * The claims envelope sealed around a handler's plaintext `requestState`: when it was minted, when
 * it expires, which request it belongs to (method, target, arguments digest), for which audience and
 * principal. Building it, reading it back, and checking it against the request that echoes it.
 * Spec: basic/patterns/mrtr §Server Requirements (Basic Workflow) (bind principal, expiry,
 * originating request).
 *
 * Wire form: compact JSON with keys in this order — `v` (1), `iat` and `exp` (milliseconds since
 * the epoch), `m` (method), `t` (target), `a` (arguments digest), `s` (plaintext state), then
 * `aud` (omitted when there is no audience) and `p` (salted principal claim, omitted when unbound).
 */
import { createHash } from "node:crypto";
import type { Params } from "../../protocol/jsonrpc.js";
import { encodeBase64Url } from "./base64url.js";
import { InvalidRequestState } from "./errors.js";
import { principalClaimMatches } from "./principal.js";

/** The envelope version every sealed state carries (`"v":1`). */
export const REQUEST_STATE_ENVELOPE_VERSION = 1;

/** How far in the future a mint time (`iat`) may lie before a token is refused, in milliseconds. */
export const REQUEST_STATE_FUTURE_SKEW_MS = 60_000;

/** Which request a state belongs to; recomputed from every retry and compared. */
export interface RequestBinding {
  /** The JSON-RPC method (`m`). */
  readonly method: string;
  /** The tool or prompt name, or the resource URI (`t`); `""` when missing. */
  readonly target: string;
  /** {@link argumentsDigest} of the arguments (`a`); resources bind by URI, so `{}`. */
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
  /** The handler's plaintext state (`s`). */
  readonly state: string;
  /** The audience (`aud`), or `null` for none. */
  readonly audience: string | null;
  /** The salted principal claim (`p`), or `undefined` when the state is not principal-bound. */
  readonly principalClaim: string | undefined;
}

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
 * The arguments digest `a`: `base64url(SHA-256(canonicalJson(args))[:16])`. `undefined` and `null`
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

/** The envelope's bytes: compact UTF-8 JSON in the documented key order. */
export function encodeClaims(claims: RequestStateClaims): Uint8Array {
  const { binding } = claims;
  const envelope: Record<string, unknown> = {
    v: REQUEST_STATE_ENVELOPE_VERSION,
    iat: claims.issuedAtMs,
    exp: claims.expiresAtMs,
    m: binding.method,
    t: binding.target,
    a: binding.argumentsDigest,
    s: claims.state,
  };
  if (claims.audience !== null) envelope.aud = claims.audience;
  if (claims.principalClaim !== undefined) envelope.p = claims.principalClaim;
  return Buffer.from(JSON.stringify(envelope), "utf8");
}

/**
 * Strict UTF-8: invalid bytes throw instead of becoming U+FFFD, and a byte order mark is kept (so
 * JSON.parse refuses it, as it refuses any text before the envelope).
 */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function parseEnvelope(payload: Uint8Array): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(payload));
  } catch {
    throw new InvalidRequestState("malformed");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidRequestState("malformed");
  }
  const envelope = parsed as Record<string, unknown>;
  for (const key of ["v", "iat", "exp", "s"]) {
    if (!Object.hasOwn(envelope, key)) throw new InvalidRequestState("malformed");
  }
  if (envelope.v !== REQUEST_STATE_ENVELOPE_VERSION || typeof envelope.s !== "string") {
    throw new InvalidRequestState("malformed");
  }
  return envelope;
}

/**
 * Reads an opened envelope and checks it against the retry, in this order, returning the plaintext
 * state. Absent and `null` `aud`/`p` count alike.
 *
 * @throws InvalidRequestState with reason `"malformed"` (not UTF-8 JSON, a claim missing, `v` not
 *   1, `s` not a string), `"minted in the future"` (`iat` beyond now + 60 s), `"expired"` (now at or
 *   past `exp`), `"request binding"` (`m`, `t` or `a` differ), `"audience"`, `"principal drift"`
 *   (bound on one side only), `"principal"` (a different principal), or whatever reason
 *   `expected.principal` throws with.
 */
export function checkClaims(payload: Uint8Array, expected: ClaimsExpectation): string {
  const envelope = parseEnvelope(payload);
  const { iat, exp } = envelope;
  if (!(typeof iat === "number" && iat <= expected.nowMs + REQUEST_STATE_FUTURE_SKEW_MS)) {
    throw new InvalidRequestState("minted in the future");
  }
  if (!(typeof exp === "number" && expected.nowMs < exp)) throw new InvalidRequestState("expired");
  const { binding } = expected;
  if (
    envelope.m !== binding.method ||
    envelope.t !== binding.target ||
    envelope.a !== binding.argumentsDigest
  ) {
    throw new InvalidRequestState("request binding");
  }
  if ((envelope.aud ?? null) !== expected.audience) throw new InvalidRequestState("audience");
  const claim = envelope.p ?? undefined;
  const principal = expected.principal();
  if ((claim === undefined) !== (principal === undefined)) throw new InvalidRequestState("principal drift");
  if (
    claim !== undefined &&
    principal !== undefined &&
    !(typeof claim === "string" && principalClaimMatches(claim, principal))
  ) {
    throw new InvalidRequestState("principal");
  }
  return envelope.s as string;
}
