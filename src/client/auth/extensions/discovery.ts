/**
 * The little discovery the extension grants need: from the server's URL and its challenge's
 * `resource_metadata` to its Protected Resource Metadata (RFC 9728), and from the first
 * authorization server it names to that server's metadata (RFC 8414, else OpenID Connect
 * Discovery), its `issuer` checked by oauth4webapi. Spec: basic/authorization/
 * authorization-server-discovery.
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "../errors.js";
import type { GrantRequestOptions } from "./grant.js";

/** What the client learns about a protected resource and its authorization server. */
export interface DiscoveredResource {
  /** The resource identifier, exactly as its metadata publishes it (the `resource` parameter). */
  readonly resource: string;
  /** The scopes its metadata lists, space-separated; undefined when it lists none. */
  readonly scopesSupported: string | undefined;
  /** The authorization server's validated metadata. */
  readonly as: oauth.AuthorizationServer;
}

/** How discovery makes its requests: oauth4webapi's options for a request to a URL. */
export type RequestOptionsFor = (url: URL) => GrantRequestOptions;

/** What a `WWW-Authenticate` challenge says, from its `Bearer` (else `DPoP`) challenge. */
export interface ChallengeParameters {
  readonly error?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
}

const PRM_WELL_KNOWN = "/.well-known/oauth-protected-resource";
/** A placeholder URL the challenge parser runs against (no request leaves the process). */
const PARSE_URL = new URL("https://challenge.invalid/");

/**
 * Reads a 401/403 answer's `WWW-Authenticate` with oauth4webapi's parser (RFC 9110 §11.6.1), which
 * it exposes through a resource request that met a challenge: the header is handed to it as the
 * answer of a request that never leaves the process. Undefined when there is no such challenge.
 */
export async function readChallenge(
  status: number,
  header: string | null,
): Promise<ChallengeParameters | undefined> {
  if (header === null || header.trim() === "") return undefined;
  let challenges: oauth.WWWAuthenticateChallenge[] = [];
  try {
    await oauth.protectedResourceRequest("-", "GET", PARSE_URL, undefined, null, {
      [oauth.customFetch]: async () =>
        new Response(null, { status, headers: { "www-authenticate": header } }),
    });
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError) challenges = error.cause;
  }
  const chosen = challenges.find((c) => c.scheme === "bearer") ?? challenges.find((c) => c.scheme === "dpop");
  if (chosen === undefined) return undefined;
  const { error, scope, resource_metadata: resourceMetadata } = chosen.parameters;
  return {
    ...(error === undefined ? {} : { error }),
    ...(scope === undefined || scope.trim() === "" ? {} : { scope }),
    ...(resourceMetadata === undefined ? {} : { resourceMetadata }),
  };
}

/** Whether the metadata's `resource` stands for `serverUrl`: its origin, and its path or a parent of it. */
function covers(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  const base = url.pathname.replace(/\/$/, "");
  const path = serverUrl.pathname.replace(/\/$/, "");
  return (
    url.origin === serverUrl.origin && url.search === "" && (path === base || path.startsWith(`${base}/`))
  );
}

async function fetchResourceMetadata(
  serverUrl: URL,
  fromChallenge: string | undefined,
  optionsFor: RequestOptionsFor,
): Promise<{ resource: string; issuer: string; scopesSupported: string | undefined }> {
  const path = serverUrl.pathname.replace(/\/$/, "");
  const root = new URL(PRM_WELL_KNOWN, serverUrl.origin);
  const candidates =
    fromChallenge !== undefined
      ? [new URL(fromChallenge, serverUrl)]
      : path === ""
        ? [root]
        : [new URL(`${PRM_WELL_KNOWN}${path}`, serverUrl.origin), root];
  for (const url of candidates) {
    const options = optionsFor(url);
    if (url.protocol !== "https:" && options[oauth.allowInsecureRequests] !== true) {
      throw new OAuthError(
        "discovery",
        `refusing to fetch ${url.href} over plain HTTP (only loopback hosts may)`,
      );
    }
    const response = await (options[oauth.customFetch] ?? fetch)(url.href, {
      method: "GET",
      headers: { accept: "application/json" },
      redirect: "manual",
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      continue;
    }
    const metadata = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    const servers = metadata?.authorization_servers;
    if (typeof metadata?.resource !== "string" || !Array.isArray(servers) || typeof servers[0] !== "string") {
      throw new OAuthError(
        "discovery",
        `the protected resource metadata at ${url.href} has no "resource" or no "authorization_servers"`,
      );
    }
    if (!covers(metadata.resource, serverUrl)) {
      throw new OAuthError(
        "resource_mismatch",
        `the protected resource metadata at ${url.href} is for ${JSON.stringify(metadata.resource)}, not for ${serverUrl.href}`,
      );
    }
    const scopes = metadata.scopes_supported;
    const scopesSupported =
      Array.isArray(scopes) && scopes.length > 0 && scopes.every((s) => typeof s === "string")
        ? scopes.join(" ")
        : undefined;
    return { resource: metadata.resource, issuer: servers[0], scopesSupported };
  }
  throw new OAuthError(
    "discovery",
    `no protected resource metadata found (tried ${candidates.map((u) => u.href).join(", ")})`,
  );
}

async function fetchAuthorizationServer(
  issuer: string,
  optionsFor: RequestOptionsFor,
): Promise<oauth.AuthorizationServer> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch (error) {
    throw new OAuthError("discovery", `the authorization server ${JSON.stringify(issuer)} is no URL`, {
      cause: error,
    });
  }
  const problems: string[] = [];
  for (const algorithm of ["oauth2", "oidc"] as const) {
    try {
      const response = await oauth.discoveryRequest(issuerUrl, { ...optionsFor(issuerUrl), algorithm });
      return await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      problems.push(`${algorithm}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw new OAuthError(
    "discovery",
    `no usable authorization server metadata for ${issuer} (${problems.join("; ")})`,
  );
}

/**
 * Discovers the resource at `serverUrl` and its authorization server.
 *
 * @throws OAuthError "discovery" when no usable metadata is found; "resource_mismatch" when the
 *   resource metadata describes another resource.
 */
export async function discoverResource(
  serverUrl: URL,
  fromChallenge: string | undefined,
  optionsFor: RequestOptionsFor,
): Promise<DiscoveredResource> {
  const { resource, issuer, scopesSupported } = await fetchResourceMetadata(
    serverUrl,
    fromChallenge,
    optionsFor,
  );
  return { resource, scopesSupported, as: await fetchAuthorizationServer(issuer, optionsFor) };
}
