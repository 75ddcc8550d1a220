/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) on the Streamable HTTP server: where the
 * document lives (`/.well-known/oauth-protected-resource`, followed by the resource's path), and
 * its answer, readable from any origin (CORS), so a browser client can discover the authorization
 * server. Spec: basic/authorization §Protected Resource Metadata Discovery Requirements, RFC 9728
 * §3.
 */
import type { HttpServerAnswer } from "./answer.js";

/** The well-known path prefix of protected resource metadata (RFC 9728 §3). */
export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * A protected resource metadata document (RFC 9728 §2): `resource` is the resource's canonical URI
 * (the MCP endpoint URL clients use); the other members are optional here and sent as given.
 * Build a checked one with `protectedResourceMetadata()` from tsmcp/server.
 */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers?: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
  readonly [member: string]: unknown;
}

/**
 * True for a path under the well-known prefix (the prefix itself or `prefix/...`): a front end
 * that routes by path hands such requests to the handler, which answers the document or 404.
 */
export function isProtectedResourceMetadataPath(pathname: string): boolean {
  return (
    pathname.startsWith(PROTECTED_RESOURCE_METADATA_PATH) &&
    (pathname.length === PROTECTED_RESOURCE_METADATA_PATH.length ||
      pathname.charCodeAt(PROTECTED_RESOURCE_METADATA_PATH.length) === 47) // "/"
  );
}

/**
 * The URL of the metadata document of `resource`: the well-known prefix inserted between its
 * origin and its path, e.g. `https://mcp.example.com/.well-known/oauth-protected-resource/mcp` for
 * `https://mcp.example.com/mcp` (RFC 9728 §3.1; a bare `/` path adds nothing). Use it as the
 * `resource_metadata` of the `WWW-Authenticate` challenge.
 *
 * @throws TypeError when `resource` is not an absolute URL.
 */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}${PROTECTED_RESOURCE_METADATA_PATH}${path}`;
}

const CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "*",
} as const;

/**
 * The answer to a request for `pathname` under the well-known prefix: the document (GET or HEAD)
 * at the path-suffixed URL of `metadata.resource` or at the bare prefix; 204 to a CORS preflight
 * (OPTIONS); 405 to another method; undefined when the path names another resource (the caller
 * answers 404 or serves it otherwise).
 */
export function answerResourceMetadata(
  method: string,
  pathname: string,
  metadata: ProtectedResourceMetadata,
  resourcePath: string,
): HttpServerAnswer | undefined {
  if (
    pathname !== PROTECTED_RESOURCE_METADATA_PATH &&
    pathname !== PROTECTED_RESOURCE_METADATA_PATH + resourcePath
  ) {
    return undefined;
  }
  if (method === "OPTIONS") {
    return { kind: "response", response: new Response(null, { status: 204, headers: CORS_HEADERS }) };
  }
  if (method !== "GET" && method !== "HEAD") {
    return {
      kind: "json",
      status: 405,
      text: JSON.stringify({ error: "method_not_allowed" }),
      headers: { Allow: "GET, OPTIONS", ...CORS_HEADERS },
    };
  }
  return { kind: "json", status: 200, text: JSON.stringify(metadata), headers: { ...CORS_HEADERS } };
}

/** The path of `metadata.resource` as the path-suffixed well-known URL appends it ("" for `/`). */
export function resourcePathOf(metadata: ProtectedResourceMetadata): string {
  const { pathname } = new URL(metadata.resource);
  return pathname === "/" ? "" : pathname;
}

/** A metadata document checked at construction, with the path its path-suffixed URL appends. */
export interface CheckedMetadata {
  readonly document: ProtectedResourceMetadata;
  readonly resourcePath: string;
}

/**
 * The `protectedResourceMetadata` option, checked.
 *
 * @throws TypeError when `resource` is not an absolute URL without a fragment.
 */
export function checkMetadata(owner: string, document: unknown): CheckedMetadata | undefined {
  if (document === undefined) return undefined;
  const resource = (document as Partial<ProtectedResourceMetadata> | null)?.resource;
  if (typeof resource !== "string" || !URL.canParse(resource) || new URL(resource).hash !== "") {
    throw new TypeError(
      `${owner}: protectedResourceMetadata.resource must be an absolute URL without a fragment`,
    );
  }
  const checked = document as ProtectedResourceMetadata;
  return { document: checked, resourcePath: resourcePathOf(checked) };
}
