/**
 * Reading a `WWW-Authenticate` challenge from a 401 or 403 answer: the `Bearer` (or `DPoP`)
 * challenge's `error`, `error_description`, `scope` and `resource_metadata`, parsed by
 * oauth4webapi's RFC 9110 parser, loaded on the first challenge read so a client that never meets
 * one never loads the OAuth library.
 * Spec: basic/authorization/authorization-server-discovery §Protected Resource Metadata Discovery
 * Requirements, basic/authorization §Scope Challenge Handling; RFC 6750 §3, RFC 9728 §5.1.
 */
import type { WWWAuthenticateChallenge } from "oauth4webapi";

/** What a resource server's challenge says. */
export interface AuthChallenge {
  /** The auth scheme, in lower case (`bearer`, `dpop`). */
  readonly scheme: string;
  /** `invalid_token`, `insufficient_scope`, `use_dpop_nonce`, ...; absent for a bare "log in". */
  readonly error?: string;
  /** The server's words on the error, for the developer (RFC 6750 §3 `error_description`). */
  readonly errorDescription?: string;
  /** The scopes the request needs, space-separated. */
  readonly scope?: string;
  /** The URL of the protected resource metadata (RFC 9728). */
  readonly resourceMetadata?: string;
}

/** A placeholder URL the parser is run against (no request leaves the process). */
const PARSE_URL = new URL("https://challenge.invalid/");

/**
 * The challenges of a `WWW-Authenticate` header value, in order; [] for none or an unparsable one.
 * oauth4webapi exposes its parser through a protected resource request that met a challenge, so
 * the header is handed to it as the answer of a request that never leaves the process.
 */
export async function parseChallenges(
  status: number,
  header: string | null,
): Promise<WWWAuthenticateChallenge[]> {
  if (header === null || header.trim() === "") return [];
  const oauth = await import("oauth4webapi");
  const answer = async () => new Response(null, { status, headers: { "www-authenticate": header } });
  try {
    await oauth.protectedResourceRequest("-", "GET", PARSE_URL, undefined, undefined, {
      [oauth.customFetch]: answer,
    });
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError) return [...error.cause];
  }
  return [];
}

/** The `Bearer` (else `DPoP`) challenge of a 401/403 answer, or undefined when it sent neither. */
export async function authChallengeOf(
  status: number,
  header: string | null,
): Promise<AuthChallenge | undefined> {
  const challenges = await parseChallenges(status, header);
  const chosen = challenges.find((c) => c.scheme === "bearer") ?? challenges.find((c) => c.scheme === "dpop");
  if (chosen === undefined) return undefined;
  const {
    error,
    error_description: errorDescription,
    scope,
    resource_metadata: resourceMetadata,
  } = chosen.parameters;
  return {
    scheme: chosen.scheme,
    ...(error === undefined ? {} : { error }),
    ...(errorDescription === undefined || errorDescription === "" ? {} : { errorDescription }),
    ...(scope === undefined || scope.trim() === "" ? {} : { scope }),
    ...(resourceMetadata === undefined ? {} : { resourceMetadata }),
  };
}
