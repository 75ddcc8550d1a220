/**
 * Builds the OAuth 2.0 Protected Resource Metadata document (RFC 9728 §2) of an MCP server, checked
 * when it is built, for the `protectedResourceMetadata` option of the Streamable HTTP handler.
 * Spec: basic/authorization §Protected Resource Metadata Discovery Requirements.
 */
import { checkOptionsObject, optionTypeError, parseHttpUrl } from "../../protocol/options.js";
import type { ProtectedResourceMetadata } from "../../transport/http/server/resource-metadata.js";

/** The bearer methods a tsmcp server accepts: the `Authorization` header only (RFC 6750 §2.1). */
export const DEFAULT_BEARER_METHODS: readonly string[] = Object.freeze(["header"]);

/** Options of {@link protectedResourceMetadata}. */
export interface ProtectedResourceMetadataOptions {
  /**
   * The canonical URI of this MCP server (RFC 8707 §2): the endpoint URL clients use, e.g.
   * `https://mcp.example.com/mcp`; no fragment. Tokens must be issued for it (their audience).
   */
  resource: string;
  /** Issuer URLs of the authorization servers that issue tokens for it; at least one. */
  authorizationServers: readonly string[];
  /** Scopes clients may request (`scopes_supported`). Default: omitted. */
  scopesSupported?: readonly string[];
  /** `bearer_methods_supported`. Default {@link DEFAULT_BEARER_METHODS} (`["header"]`). */
  bearerMethodsSupported?: readonly string[];
  /** A human-readable name (`resource_name`). Default: omitted. */
  resourceName?: string;
  /** A URL of documentation for developers (`resource_documentation`). Default: omitted. */
  resourceDocumentation?: string;
}

function stringArray(owner: string, option: string, value: unknown, nonEmpty: boolean): string[] {
  if (
    !Array.isArray(value) ||
    !value.every((item) => typeof item === "string") ||
    (nonEmpty && value.length === 0)
  ) {
    throw optionTypeError(owner, option, nonEmpty ? "a non-empty array of strings" : "an array of strings");
  }
  return [...value];
}

/**
 * The metadata document: `resource`, `authorization_servers`, `bearer_methods_supported`, and
 * `scopes_supported`, `resource_name`, `resource_documentation` when given. Serve it with the
 * handler's `protectedResourceMetadata` option, and point `bearerAuth`'s `resourceMetadataUrl` at
 * `resourceMetadataUrl(resource)`.
 *
 * @throws TypeError when `resource` is not an absolute http(s) URL without a fragment, an
 *   authorization server is not an absolute http(s) URL, or a list is not an array of strings.
 */
export function protectedResourceMetadata(
  options: ProtectedResourceMetadataOptions,
): ProtectedResourceMetadata {
  const owner = "protectedResourceMetadata";
  checkOptionsObject(owner, options);
  const resource = parseHttpUrl(`${owner} option "resource"`, options.resource);
  if (resource.hash !== "" || options.resource.includes("#")) {
    throw optionTypeError(owner, "resource", "a URL without a fragment (RFC 8707 §2)");
  }
  const servers = stringArray(owner, "authorizationServers", options.authorizationServers, true);
  for (const server of servers) parseHttpUrl(`${owner} option "authorizationServers"`, server);
  const document: Record<string, unknown> = {
    resource: options.resource,
    authorization_servers: servers,
    bearer_methods_supported:
      options.bearerMethodsSupported === undefined
        ? [...DEFAULT_BEARER_METHODS]
        : stringArray(owner, "bearerMethodsSupported", options.bearerMethodsSupported, false),
  };
  if (options.scopesSupported !== undefined) {
    document.scopes_supported = stringArray(owner, "scopesSupported", options.scopesSupported, false);
  }
  if (options.resourceName !== undefined) {
    if (typeof options.resourceName !== "string") throw optionTypeError(owner, "resourceName", "a string");
    document.resource_name = options.resourceName;
  }
  if (options.resourceDocumentation !== undefined) {
    document.resource_documentation = parseHttpUrl(
      `${owner} option "resourceDocumentation"`,
      options.resourceDocumentation,
    ).href;
  }
  return Object.freeze(document) as ProtectedResourceMetadata;
}
