/**
 * A {@link TokenVerifier} that asks the authorization server about each token (OAuth 2.0 Token
 * Introspection, RFC 7662), for opaque tokens: the answer is cached, never past the token's `exp`.
 * Spec: basic/authorization §Token Handling, §Token Audience Binding and Validation; RFC 7662 §2.
 */
import { createHash } from "node:crypto";
import {
  checkFunction,
  checkInteger,
  checkOptionsObject,
  optionTypeError,
  parseHttpUrl,
} from "../../protocol/options.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { InvalidTokenError, scopesOfClaims, type TokenVerifier } from "./verifier.js";

/** Milliseconds an active introspection answer is reused at most, by default. */
export const DEFAULT_INTROSPECTION_CACHE_TTL_MS = 60_000;

/** Tokens whose answers are cached at most, by default (the oldest is dropped first). */
export const DEFAULT_INTROSPECTION_CACHE_ENTRIES = 1_000;

/**
 * Milliseconds a refusal (inactive, expired, another audience or issuer) is reused at most, by
 * default: a burst of requests with a revoked or made-up token asks the authorization server once
 * per 5 s, not once per request.
 */
export const DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS = 5_000;

/** Milliseconds an introspection request may take, by default. */
export const DEFAULT_INTROSPECTION_TIMEOUT_MS = 5_000;

/** Options of {@link introspectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's `introspection_endpoint`. */
  endpoint: string;
  /** This resource server's client id at the authorization server (HTTP Basic authentication). */
  clientId: string;
  /** Its client secret. */
  clientSecret: string;
  /**
   * This resource's canonical URI (RFC 8707): the answer's `aud` must contain it. Required: a token
   * issued for another resource must never be accepted.
   */
  audience: string;
  /** The exact `iss` the answer must carry, when it carries one. Default: not checked. */
  issuer?: string;
  /** Longest reuse of an active answer, in milliseconds (never past `exp`); 0 caches nothing. Default {@link DEFAULT_INTROSPECTION_CACHE_TTL_MS}. */
  cacheTtlMs?: number;
  /**
   * Longest reuse of a refusal, in milliseconds; 0 caches none. A token refused once stays refused
   * this long even if the authorization server would accept it now. Default
   * {@link DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS}.
   */
  inactiveCacheTtlMs?: number;
  /** Most answers cached, active and refused together. Default {@link DEFAULT_INTROSPECTION_CACHE_ENTRIES}. */
  maxCacheEntries?: number;
  /** Milliseconds an introspection request may take. Default {@link DEFAULT_INTROSPECTION_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** The `fetch` to use. Default: the global one. */
  fetch?: typeof fetch;
}

/** A cached answer: the identity, or the refusal (with no identity). */
interface Cached {
  auth: AuthInfo | undefined;
  untilMs: number;
}

function audiences(aud: unknown): string[] {
  if (typeof aud === "string") return [aud];
  return Array.isArray(aud) ? aud.filter((item): item is string => typeof item === "string") : [];
}

/**
 * Verifies tokens by introspection. Resolves with `clientId` (`client_id`), `issuer` (`iss`),
 * `subject` (`sub`), `scopes` (`scope`), `expiresAtMs` (`exp`) and the whole answer in `extra`.
 * Rejects with `InvalidTokenError` when the answer is `active: false`, expired, for another
 * audience or issuer; with an `Error` when the endpoint cannot be reached or does not answer 200
 * with JSON (the request is then answered 500; failures are not cached). A refusal is reused for
 * `inactiveCacheTtlMs`. Concurrent verifications of one token share one introspection request
 * (and its answer or failure).
 *
 * @throws TypeError for a missing or malformed option; RangeError for a negative duration or
 *   count.
 */
export function introspectionVerifier(options: IntrospectionVerifierOptions): TokenVerifier {
  const owner = "introspectionVerifier";
  checkOptionsObject(owner, options);
  const endpoint = parseHttpUrl(`${owner} option "endpoint"`, options.endpoint);
  parseHttpUrl(`${owner} option "audience"`, options.audience);
  for (const name of ["clientId", "clientSecret"] as const) {
    if (typeof options[name] !== "string" || options[name] === "")
      throw optionTypeError(owner, name, "a non-empty string");
  }
  if (options.issuer !== undefined && typeof options.issuer !== "string")
    throw optionTypeError(owner, "issuer", "a string");
  checkInteger(owner, "cacheTtlMs", options.cacheTtlMs, { unit: "milliseconds" });
  checkInteger(owner, "inactiveCacheTtlMs", options.inactiveCacheTtlMs, { unit: "milliseconds" });
  checkInteger(owner, "maxCacheEntries", options.maxCacheEntries, { min: 1 });
  checkInteger(owner, "timeoutMs", options.timeoutMs, { min: 1, unit: "milliseconds" });
  checkFunction(owner, "fetch", options.fetch);
  const { audience, issuer } = options;
  const cacheTtlMs = options.cacheTtlMs ?? DEFAULT_INTROSPECTION_CACHE_TTL_MS;
  const inactiveCacheTtlMs = options.inactiveCacheTtlMs ?? DEFAULT_INTROSPECTION_INACTIVE_CACHE_TTL_MS;
  const maxEntries = options.maxCacheEntries ?? DEFAULT_INTROSPECTION_CACHE_ENTRIES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_INTROSPECTION_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? fetch;
  const basic = `Basic ${btoa(`${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`)}`;
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<AuthInfo>>();

  async function introspect(token: string): Promise<Record<string, unknown>> {
    const response = await fetchImpl(endpoint, {
      method: "POST",
      headers: {
        Authorization: basic,
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`token introspection answered HTTP ${response.status}`);
    }
    const answer: unknown = await response.json();
    if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
      throw new Error("token introspection answered something other than a JSON object");
    }
    return answer as Record<string, unknown>;
  }

  function authInfoOf(token: string, answer: Record<string, unknown>): AuthInfo {
    if (answer.active !== true) throw new InvalidTokenError("introspection: inactive token");
    if (typeof answer.exp === "number" && !(answer.exp * 1000 > Date.now())) {
      throw new InvalidTokenError("introspection: expired token");
    }
    if (!audiences(answer.aud).includes(audience)) throw new InvalidTokenError("introspection: audience");
    if (issuer !== undefined && answer.iss !== undefined && answer.iss !== issuer) {
      throw new InvalidTokenError("introspection: issuer");
    }
    const auth: AuthInfo = { token, scopes: scopesOfClaims(answer), extra: { ...answer } };
    if (typeof answer.client_id === "string") auth.clientId = answer.client_id;
    if (typeof answer.iss === "string") auth.issuer = answer.iss;
    if (typeof answer.sub === "string") auth.subject = answer.sub;
    if (typeof answer.exp === "number") auth.expiresAtMs = answer.exp * 1000;
    return auth;
  }

  function remember(key: string, auth: AuthInfo | undefined, untilMs: number): void {
    if (!(untilMs > Date.now())) return;
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
    cache.set(key, { auth, untilMs });
  }

  async function lookUp(key: string, token: string): Promise<AuthInfo> {
    const now = Date.now();
    const answer = await introspect(token);
    let auth: AuthInfo;
    try {
      auth = authInfoOf(token, answer);
    } catch (error) {
      remember(key, undefined, now + inactiveCacheTtlMs);
      throw error;
    }
    remember(key, auth, Math.min(now + cacheTtlMs, auth.expiresAtMs ?? Number.POSITIVE_INFINITY));
    return auth;
  }

  return {
    verify(token: string): Promise<AuthInfo> {
      const key = createHash("sha256").update(token).digest("base64url");
      const hit = cache.get(key);
      if (hit !== undefined) {
        if (hit.untilMs > Date.now()) {
          return hit.auth === undefined
            ? Promise.reject(new InvalidTokenError("introspection: refused recently"))
            : Promise.resolve(hit.auth);
        }
        cache.delete(key);
      }
      // Concurrent first requests with one token share one introspection call.
      let pending = inFlight.get(key);
      if (pending === undefined) {
        pending = lookUp(key, token).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
  };
}
