/**
 * Discovery: from a server's URL (and its challenge's `resource_metadata`) to its Protected
 * Resource Metadata (RFC 9728), checked to describe that server, and from the authorization server
 * it names to that server's metadata (RFC 8414 or OpenID Connect Discovery), checked to come from
 * that issuer. Spec: basic/authorization/authorization-server-discovery.
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";
import { endpointProblem, getMetadata, type OAuthHttp } from "./http.js";

/** The fields of Protected Resource Metadata the client uses (RFC 9728 §2). */
export interface ResourceMetadata {
  /** The resource identifier: the `resource` parameter of authorization and token requests. */
  readonly resource: string;
  /** The issuers of the authorization servers that grant tokens for it (the first is used). */
  readonly authorization_servers: readonly string[];
  /** The scopes the resource knows; requested when the challenge names none. */
  readonly scopes_supported?: readonly string[];
  readonly [field: string]: unknown;
}

const PRM_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/**
 * Where to look for a server's Protected Resource Metadata, in order: the challenge's
 * `resource_metadata` when given; else the path-suffixed well-known URL (for a server with a path),
 * then the root one.
 */
export function resourceMetadataUrls(serverUrl: URL, fromChallenge: string | undefined): URL[] {
  if (fromChallenge !== undefined) return [new URL(fromChallenge, serverUrl)];
  const path = serverUrl.pathname.replace(/\/$/, "");
  const root = new URL(PRM_WELL_KNOWN, serverUrl.origin);
  return path === "" ? [root] : [new URL(`${PRM_WELL_KNOWN}${path}`, serverUrl.origin), root];
}

/**
 * Whether `resource` (a PRM `resource`) may stand for `serverUrl`: the same origin, and a path that
 * is the server's path or one of its parents (a metadata document at the root describes the whole
 * origin). Spec: RFC 9728 §3.3 (the resource must match the URL the client used), RFC 8707 §2.
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== serverUrl.origin || url.hash !== "" || url.search !== "") return false;
  const base = url.pathname.replace(/\/$/, "");
  const path = serverUrl.pathname.replace(/\/$/, "");
  return path === base || path.startsWith(`${base}/`);
}

/**
 * Fetches the server's Protected Resource Metadata and checks it describes the server.
 *
 * @throws OAuthError "discovery" when no candidate URL serves a usable document, or a request for
 *   one fails on the network (naming it and its URL);
 *   "resource_mismatch" when the document's `resource` is not the server's; "timeout" when the
 *   MCP request times out meanwhile. OAuthResponseTooLargeError for a document over
 *   `http.maxResponseBytes`.
 */
export async function discoverResource(
  http: OAuthHttp,
  serverUrl: URL,
  fromChallenge: string | undefined,
): Promise<ResourceMetadata> {
  const tried: string[] = [];
  for (const url of resourceMetadataUrls(serverUrl, fromChallenge)) {
    tried.push(url.href);
    const response = await getMetadata(http, url, "protected resource metadata");
    if (response.status !== 200) continue;
    const metadata = await readResourceMetadata(response, url);
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new OAuthError(
        "resource_mismatch",
        `the protected resource metadata at ${url.href} is for ${JSON.stringify(metadata.resource)}, not for ${serverUrl.href}`,
      );
    }
    return metadata;
  }
  throw new OAuthError("discovery", `no protected resource metadata found (tried ${tried.join(", ")})`);
}

async function readResourceMetadata(response: Response, url: URL): Promise<ResourceMetadata> {
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new OAuthError("discovery", `the protected resource metadata at ${url.href} is not JSON`, {
      cause: error,
    });
  }
  const metadata = body as Partial<ResourceMetadata> | null;
  const servers = metadata?.authorization_servers;
  if (
    typeof metadata !== "object" ||
    metadata === null ||
    typeof metadata.resource !== "string" ||
    !Array.isArray(servers) ||
    servers.length === 0 ||
    !servers.every((s) => typeof s === "string")
  ) {
    throw new OAuthError(
      "discovery",
      `the protected resource metadata at ${url.href} has no "resource" or no "authorization_servers"`,
    );
  }
  const scopes = metadata.scopes_supported;
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every((s) => typeof s === "string"))) {
    throw new OAuthError(
      "discovery",
      `the protected resource metadata at ${url.href} has a bad "scopes_supported"`,
    );
  }
  return metadata as ResourceMetadata;
}

/**
 * The well-known URLs of an issuer's metadata, in the order the spec gives: for an issuer with a
 * path, OAuth path insertion, OpenID Connect path insertion, OpenID Connect path appending; for one
 * without, OAuth then OpenID Connect.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, "");
  const at = (p: string) => new URL(p, issuer.origin);
  if (path === "") {
    return [at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")];
  }
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * Fetches an authorization server's metadata from the first well-known URL that serves it, and
 * checks (with oauth4webapi) that its `issuer` is the issuer it was looked up for; a document with
 * another issuer is never used.
 *
 * @throws OAuthError "discovery" when no URL serves usable metadata, or a request for it fails on
 *   the network (naming it and its URL); "timeout" when the MCP
 *   request times out meanwhile. OAuthResponseTooLargeError for metadata over
 *   `http.maxResponseBytes`.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
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
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const response = await getMetadata(http, url, "authorization server metadata");
    if (response.status !== 200) {
      problems.push(`${url.href}: HTTP ${response.status}`);
      continue;
    }
    let metadata: oauth.AuthorizationServer;
    try {
      metadata = await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      problems.push(`${url.href}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    checkEndpoints(metadata, url);
    return metadata;
  }
  throw new OAuthError(
    "discovery",
    `no usable authorization server metadata for ${issuer} (${problems.join("; ")})`,
  );
}

/**
 * Refuses metadata naming an endpoint (`authorization_endpoint`, `token_endpoint`,
 * `registration_endpoint`, `device_authorization_endpoint`, any other `*_endpoint`, `jwks_uri`)
 * that is not `https:` or loopback `http:`.
 *
 * @throws OAuthError "discovery" naming the endpoint and its scheme.
 */
function checkEndpoints(metadata: oauth.AuthorizationServer, url: URL): void {
  for (const [name, value] of Object.entries(metadata)) {
    if (!(name.endsWith("_endpoint") || name === "jwks_uri") || typeof value !== "string") continue;
    const problem = endpointProblem(name, value);
    if (problem !== undefined) {
      throw new OAuthError(
        "discovery",
        `the authorization server metadata at ${url.href} is refused: ${problem}`,
      );
    }
  }
}
