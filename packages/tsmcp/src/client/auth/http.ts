/**
 * How the OAuth layer makes its own HTTP requests (metadata, registration, token endpoint): through
 * the provider's `fetch`, never following redirects, and over plain HTTP only to a loopback host
 * (every other authorization server endpoint must be HTTPS). Spec: basic/authorization/
 * security-considerations §Communication Security.
 */
import * as oauth from "oauth4webapi";

/** What each OAuth request needs. */
export interface OAuthHttp {
  /** The `fetch` requests go through. */
  readonly fetch: typeof fetch;
  /** Aborts the request (the MCP request that needed authorization). */
  readonly signal: AbortSignal;
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and `[::1]`. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname;
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "[::1]" ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

/**
 * Why `value`, an endpoint URL named by an authorization server's metadata, may not be used, or
 * undefined when it may: it must be an absolute `https:` URL, or `http:` to a loopback host. Any
 * other scheme (`file:`, `smb:`, `javascript:`, an OS handler's) is refused: the authorization
 * endpoint goes to a browser or the platform's opener, which would act on it. Spec:
 * basic/authorization/security-considerations §Communication Security; OAuth 2.1 §1.5.
 */
export function endpointProblem(name: string, value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `its ${name} ${JSON.stringify(value)} is not an absolute URL`;
  }
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopback(url))) return undefined;
  return url.protocol === "http:"
    ? `its ${name} uses plain http: to a host that is not loopback (${url.host})`
    : `its ${name} uses the scheme ${JSON.stringify(url.protocol)}; only https: (or http: to a loopback host) is allowed`;
}

/** oauth4webapi's options for one request: the `fetch`, plain HTTP allowed or not, the signal. */
export interface OAuthRequestOptions {
  /** The `fetch` oauth4webapi sends each request with. */
  readonly [oauth.customFetch]: (url: string, init: RequestInit) => Promise<Response>;
  readonly [oauth.allowInsecureRequests]: boolean;
  readonly signal: AbortSignal;
}

/** oauth4webapi's request options for a request to `url`. */
export function requestOptions(http: OAuthHttp, url: string | URL | undefined): OAuthRequestOptions {
  const target = url === undefined ? undefined : new URL(url);
  return {
    [oauth.customFetch]: http.fetch,
    [oauth.allowInsecureRequests]: target !== undefined && target.protocol === "http:" && isLoopback(target),
    signal: http.signal,
  };
}

/**
 * GETs a JSON metadata document with `accept: application/json`, no redirect followed.
 *
 * @throws the network failure, or the signal's reason.
 */
export async function getMetadata(http: OAuthHttp, url: URL): Promise<Response> {
  if (url.protocol !== "https:" && !isLoopback(url)) {
    throw new TypeError(`refusing to fetch ${url.href} over plain HTTP (only loopback hosts may use http:)`);
  }
  return http.fetch(url.href, {
    headers: { accept: "application/json" },
    redirect: "manual",
    signal: http.signal,
  });
}
