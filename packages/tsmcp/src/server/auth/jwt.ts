/**
 * A {@link TokenVerifier} for JWT access tokens (RFC 9068) on `jose`: the signature against the
 * issuer's JWKS (fetched over HTTP, cached, refetched when a token names an unknown key, at most
 * once per cooldown), the `typ` header (`at+jwt`), the issuer, the audience bound to this resource (RFC 8707), `exp` and `nbf`
 * with a small clock skew, an algorithm allow-list. Spec: basic/authorization §Token Handling,
 * §Token Audience Binding and Validation; RFC 9068 §4. `jose` itself loads on demand (when the
 * first verifier is built), so a server without JWT auth never loads it.
 */
import type { JWTPayload, JWTVerifyGetKey } from "jose";
import { checkInteger, checkOptionsObject, optionTypeError, parseHttpUrl } from "../../protocol/options.js";
import type { AuthInfo } from "../../transport/dispatcher.js";
import { DEFAULT_CLOCK_SKEW_MS, InvalidTokenError, scopesOfClaims, type TokenVerifier } from "./verifier.js";

export { DEFAULT_CLOCK_SKEW_MS };

/** Allowed signature algorithms by default: asymmetric only (RS256, PS256, ES256, EdDSA). */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = Object.freeze(["RS256", "PS256", "ES256", "EdDSA"]);

/**
 * The `typ` header JWT access tokens must carry by default: `at+jwt` (RFC 9068 §4: a resource
 * server MUST check it, so that an ID token or another JWT signed by the same issuer is never taken
 * for an access token). Compared case-insensitively, with or without `application/`.
 */
export const DEFAULT_JWT_TYP = "at+jwt";

/** Milliseconds after a JWKS fetch before an unknown `kid` may trigger another, by default. */
export const DEFAULT_JWKS_COOLDOWN_MS = 30_000;

/** Milliseconds a fetched JWKS is used before it is fetched again, by default. */
export const DEFAULT_JWKS_CACHE_MAX_AGE_MS = 600_000;

/** Milliseconds a JWKS fetch may take, by default. */
export const DEFAULT_JWKS_TIMEOUT_MS = 5_000;

/** Options of {@link jwtVerifier}. */
export interface JwtVerifierOptions {
  /** The exact `iss` tokens must carry: the authorization server's issuer identifier. */
  issuer: string;
  /**
   * This resource's canonical URI (RFC 8707), which the token's `aud` must contain, exactly as
   * written (`https://mcp.example.com/mcp`); the same string as the metadata's `resource`.
   */
  audience: string;
  /** Where the issuer publishes its JWKS (`jwks_uri` of its metadata). Exactly one of this and `jwks`. */
  jwksUri?: string;
  /** A key resolver of your own (`jose`'s `createLocalJWKSet`, ...). Exactly one of this and `jwksUri`. */
  jwks?: JWTVerifyGetKey;
  /** Accepted `alg` values. Default {@link DEFAULT_JWT_ALGORITHMS}; `none` and HMAC are never sensible here. */
  algorithms?: readonly string[];
  /** Clock skew tolerated, in milliseconds. Default {@link DEFAULT_CLOCK_SKEW_MS} (30000). */
  clockSkewMs?: number;
  /**
   * The `typ` header every token must carry. Default {@link DEFAULT_JWT_TYP} (`"at+jwt"`, RFC 9068
   * §4). For an authorization server whose access tokens say `"JWT"` (Microsoft Entra ID, some
   * Auth0 and Keycloak setups) pass `"JWT"`; `null` skips the check, at the risk RFC 9068 §4 names:
   * any other JWT the issuer signs for this audience (an ID token) is accepted as an access token.
   */
  typ?: string | null;
  /** With `jwksUri`: milliseconds between refetches on an unknown `kid`. Default {@link DEFAULT_JWKS_COOLDOWN_MS}. */
  jwksCooldownMs?: number;
  /** With `jwksUri`: milliseconds a fetched JWKS stays fresh. Default {@link DEFAULT_JWKS_CACHE_MAX_AGE_MS}. */
  jwksCacheMaxAgeMs?: number;
  /** With `jwksUri`: milliseconds a JWKS fetch may take. Default {@link DEFAULT_JWKS_TIMEOUT_MS}. */
  jwksTimeoutMs?: number;
}

/**
 * The jose failures that are the token's fault (malformed, bad signature, wrong claims, expired,
 * an algorithm or key it names that is not allowed or not published). Every other failure (the
 * JWKS answered 503 or HTML, timed out, holds an invalid key) says nothing about the token: the
 * authorization server is unavailable, and the request is answered 500, not 401.
 */
type Jose = typeof import("jose");

let joseLoading: Promise<Jose> | undefined;

/** `jose`, imported once, on the first verifier's construction. */
function loadJose(): Promise<Jose> {
  joseLoading ??= import("jose");
  return joseLoading;
}

/** The `jose` error codes that mean "this token is not acceptable" (a 401), not a fault of ours. */
function tokenFaults({ errors }: Jose): ReadonlySet<string> {
  return new Set([
    errors.JWTClaimValidationFailed.code,
    errors.JWTExpired.code,
    errors.JWTInvalid.code,
    errors.JWSInvalid.code,
    errors.JWSSignatureVerificationFailed.code,
    errors.JOSEAlgNotAllowed.code,
    errors.JOSENotSupported.code,
    errors.JWKSNoMatchingKey.code,
    errors.JWKSMultipleMatchingKeys.code,
  ]);
}

/** The `AuthInfo` of verified claims: `client_id` (else `azp`), `iss`, `sub`, scopes, `exp`. */
function authInfoOf(token: string, payload: JWTPayload): AuthInfo {
  const auth: AuthInfo = { token, scopes: scopesOfClaims(payload), extra: { ...payload } };
  const clientId = typeof payload.client_id === "string" ? payload.client_id : payload.azp;
  if (typeof clientId === "string") auth.clientId = clientId;
  if (typeof payload.iss === "string") auth.issuer = payload.iss;
  if (typeof payload.sub === "string") auth.subject = payload.sub;
  if (typeof payload.exp === "number") auth.expiresAtMs = payload.exp * 1000;
  return auth;
}

/**
 * Verifies JWT access tokens. Resolves with `clientId` (`client_id`, else `azp`), `issuer`,
 * `subject` (`sub`), `scopes` (`scope` or `scp`), `expiresAtMs` and every claim in `extra`.
 * Rejects with `InvalidTokenError` for a token that fails any check (its cause says which; the
 * client is never told); with the underlying error when the JWKS cannot be had (unreachable, not
 * 200, not a key set, timed out): `bearerAuth` then answers 500 and the cause is logged, so an
 * authorization-server outage never looks like a bad token to clients. Its `clockSkewMs` is the
 * one `bearerAuth` applies to `expiresAtMs`.
 *
 * @throws TypeError for a missing `issuer` or `audience`, a `typ` that is neither a non-empty
 *   string nor null, not exactly one of `jwksUri` and
 *   `jwks`, a `jwksUri` that is not an absolute http(s) URL, an empty `algorithms`; RangeError
 *   for a negative duration.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const owner = "jwtVerifier";
  checkOptionsObject(owner, options);
  const { issuer, audience, typ } = options;
  if (typeof issuer !== "string" || issuer === "")
    throw optionTypeError(owner, "issuer", "a non-empty string");
  parseHttpUrl(`${owner} option "audience"`, audience);
  if (typ !== undefined && typ !== null && (typeof typ !== "string" || typ === "")) {
    throw optionTypeError(owner, "typ", "a non-empty string or null");
  }
  if ((options.jwksUri === undefined) === (options.jwks === undefined)) {
    throw new TypeError(`${owner} takes exactly one of jwksUri and jwks`);
  }
  if (options.jwks !== undefined && typeof options.jwks !== "function") {
    throw optionTypeError(owner, "jwks", "a key resolver function");
  }
  const algorithms = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
  if (
    !Array.isArray(algorithms) ||
    algorithms.length === 0 ||
    !algorithms.every((alg) => typeof alg === "string")
  ) {
    throw optionTypeError(owner, "algorithms", "a non-empty array of algorithm names");
  }
  for (const name of ["clockSkewMs", "jwksCooldownMs", "jwksCacheMaxAgeMs", "jwksTimeoutMs"] as const) {
    checkInteger(owner, name, options[name], { unit: "milliseconds" });
  }
  const clockSkewMs = options.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
  const jwksUri =
    options.jwks === undefined ? parseHttpUrl(`${owner} option "jwksUri"`, options.jwksUri) : undefined;
  // Every option is checked above, synchronously; what needs jose is built once it has loaded,
  // starting now so that the first request rarely waits for it.
  const ready = loadJose().then((jose) => ({
    jose,
    faults: tokenFaults(jose),
    keys:
      options.jwks ??
      jose.createRemoteJWKSet(jwksUri as URL, {
        cooldownDuration: options.jwksCooldownMs ?? DEFAULT_JWKS_COOLDOWN_MS,
        cacheMaxAge: options.jwksCacheMaxAgeMs ?? DEFAULT_JWKS_CACHE_MAX_AGE_MS,
        timeoutDuration: options.jwksTimeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS,
      }),
  }));
  // A failed import is answered by verify(); it must not also surface as an unhandled rejection.
  ready.catch(() => undefined);
  const verifyOptions = {
    issuer,
    audience,
    algorithms: [...algorithms],
    clockTolerance: clockSkewMs / 1000,
    requiredClaims: ["exp"],
    ...(typ === null ? {} : { typ: typ ?? DEFAULT_JWT_TYP }),
  };
  return {
    clockSkewMs,
    async verify(token: string): Promise<AuthInfo> {
      const { jose, faults, keys } = await ready;
      try {
        const { payload } = await jose.jwtVerify(token, keys, verifyOptions);
        return authInfoOf(token, payload);
      } catch (error) {
        if (error instanceof jose.errors.JOSEError && faults.has(error.code)) {
          throw new InvalidTokenError(`JWT refused: ${error.code}`, { cause: error });
        }
        throw error;
      }
    },
  };
}
