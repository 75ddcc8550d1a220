/**
 * The DNS-rebinding and cross-origin guard of the HTTP server: which `Host` and `Origin` header
 * values a server accepts. Secure by default: loopback hosts only, and only origins on an allowed
 * host. Spec: basic/transports/streamable-http §Security Warning (validate `Origin`, 403
 * otherwise); `Host` allowlisting is SDK hardening against DNS rebinding (the specification does
 * not require it).
 */
import { optionError, optionTypeError } from "../../../protocol/options.js";

/** The hosts a server accepts when none are configured: loopback only. */
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = Object.freeze(["localhost", "127.0.0.1", "[::1]"]);

const HOSTNAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * Normalises a configured hostname: lowercase, IPv6 literals bracketed (`::1` -> `[::1]`).
 *
 * @param option the option it came from, and `owner` who took it, as the error names them.
 * @throws TypeError when `entry` is not a bare hostname or IP literal (a port, a scheme or a path
 *   is refused: hosts are matched port-insensitively).
 */
export function normalizeHostname(entry: unknown, option: string, owner?: string): string {
  if (typeof entry !== "string") {
    throw optionError(owner, option, `must hold hostname strings, got ${typeof entry}`);
  }
  let host = entry.trim().toLowerCase();
  if (!host.startsWith("[") && host.includes(":") && /^[0-9a-f:.]+$/.test(host)) host = `[${host}]`;
  if (!(HOSTNAME.test(host) || IPV6_LITERAL.test(host))) {
    throw optionError(
      owner,
      option,
      `must hold bare hostnames such as "mcp.example.com" or "127.0.0.1" (no scheme, port or path: ` +
        `hosts match on any port), got ${JSON.stringify(entry)}`,
    );
  }
  return host;
}

function normalizeOrigin(entry: unknown, owner: string | undefined): string {
  const problem = (got: string) =>
    optionError(
      owner,
      "allowedOrigins",
      `must hold origins (scheme, host and optional port only) such as "https://app.example.com", got ${got}`,
    );
  if (typeof entry !== "string") throw problem(typeof entry);
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw problem(JSON.stringify(entry));
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || entry.replace(/\/$/, "") !== url.origin) {
    throw problem(JSON.stringify(entry));
  }
  return url.origin;
}

/** Which `Host` and `Origin` values to accept; `"*"` accepts any. */
export interface OriginGuardOptions {
  /** Hostnames (any port). Default {@link DEFAULT_ALLOWED_HOSTS}. */
  allowedHosts?: readonly string[] | "*";
  /** Exact origins (`https://app.example.com`). Default: any http(s) origin whose host is allowed. */
  allowedOrigins?: readonly string[] | "*";
}

/** A compiled guard: answers whether a request's `Host` and `Origin` headers are acceptable. */
export interface OriginGuard {
  /** True when the `Host` header value (with or without port) names an allowed host. */
  isHostAllowed(host: string | null): boolean;
  /** True when there is no `Origin` header, or its value is an allowed origin. */
  isOriginAllowed(origin: string | null): boolean;
}

/**
 * Builds the guard once, at construction. `owner` (who took the options, `createHttpHandler`) is
 * named in the errors; without it they read `Option "allowedHosts" ...`.
 *
 * @throws TypeError for a malformed entry or an option that is neither an array nor `"*"`.
 */
export function createOriginGuard(options: OriginGuardOptions = {}, owner?: string): OriginGuard {
  const hostsOption = options.allowedHosts ?? DEFAULT_ALLOWED_HOSTS;
  const originsOption = options.allowedOrigins;
  if (hostsOption !== "*" && !Array.isArray(hostsOption)) {
    throw optionTypeError(owner, "allowedHosts", 'an array of hostnames or "*"');
  }
  if (originsOption !== undefined && originsOption !== "*" && !Array.isArray(originsOption)) {
    throw optionTypeError(owner, "allowedOrigins", 'an array of origins or "*"');
  }
  const hosts =
    hostsOption === "*"
      ? undefined
      : new Set(hostsOption.map((h) => normalizeHostname(h, "allowedHosts", owner)));
  const origins =
    originsOption === undefined || originsOption === "*"
      ? undefined
      : new Set(originsOption.map((o) => normalizeOrigin(o, owner)));
  const hostAllowed = (hostname: string) => hosts === undefined || hosts.has(hostname);
  const checkHost = (host: string): boolean => {
    const match = HOST_HEADER.exec(host.trim().toLowerCase());
    if (match === null) return false;
    const port = match[2];
    if (port !== undefined && Number(port) > 65535) return false;
    return hostAllowed(match[1] as string);
  };
  // A client sends the same `Host` on every request: the last verdict is kept (a pure function of it).
  let lastHost: string | undefined;
  let lastAllowed = false;

  return {
    isHostAllowed(host) {
      if (hosts === undefined) return true;
      if (host === null) return false;
      if (host !== lastHost) {
        lastAllowed = checkHost(host);
        lastHost = host;
      }
      return lastAllowed;
    },
    isOriginAllowed(origin) {
      if (origin === null || originsOption === "*") return true;
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        return false;
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") return false;
      if (origin.trim().toLowerCase() !== url.origin) return false;
      if (origins !== undefined) return origins.has(url.origin);
      return hostAllowed(url.hostname);
    },
  };
}
