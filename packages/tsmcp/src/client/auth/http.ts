/**
 * How the OAuth layer makes its own HTTP requests (metadata, registration, token endpoint): through
 * the provider's `fetch`, never following redirects, over plain HTTP only to a loopback host
 * (every other authorization server endpoint must be HTTPS), each answer read within a size bound
 * before anything parses it, and a timeout of the MCP request during one of them, or a request that
 * could not be sent or answered (connection refused, a name that does not resolve), reported as
 * that step's. Spec: basic/authorization/security-considerations §Communication Security.
 */
import * as oauth from "oauth4webapi";
import { ERROR_CODES, isTsmcpError } from "../../protocol/local-errors.js";
import { fetchFailureReason } from "../../transport/http/client/failures.js";
import { fetchAnswer } from "../../transport/http/client/fetch-sender.js";
import { readText } from "../../transport/http/client/response-body.js";
import {
  type OAuthDocument,
  OAuthError,
  type OAuthErrorReason,
  OAuthResponseTooLargeError,
} from "./errors.js";

/**
 * The most bytes of one answer from a protected resource or an authorization server the client
 * reads by default (metadata, registration, token responses): 1 MiB (1 048 576).
 */
export const DEFAULT_OAUTH_MAX_RESPONSE_BYTES = 1024 * 1024;

/** What each OAuth request needs. */
export interface OAuthHttp {
  /** The `fetch` requests go through. */
  readonly fetch: typeof fetch;
  /** Aborts the request (the MCP request that needed authorization). */
  readonly signal: AbortSignal;
  /**
   * The most bytes of one answer read; a larger one fails with `OAuthResponseTooLargeError`.
   * Default {@link DEFAULT_OAUTH_MAX_RESPONSE_BYTES}.
   */
  readonly maxResponseBytes?: number;
}

/** The request each document answers, for messages. */
const REQUEST_FOR: Readonly<Record<OAuthDocument, string>> = {
  "protected resource metadata": "protected resource metadata request",
  "authorization server metadata": "authorization server metadata request",
  "client registration response": "client registration request",
  "token response": "token request",
};

/** The reason of an OAuthError for a request whose answer is each document that could not be had. */
const REASON_FOR: Readonly<Record<OAuthDocument, OAuthErrorReason>> = {
  "protected resource metadata": "discovery",
  "authorization server metadata": "discovery",
  "client registration response": "registration",
  "token response": "token",
};

/** The OAuthErrors {@link boundedFetch} made for requests that failed on the network. */
const networkFailures = new WeakSet<OAuthError>();

/** Statuses whose answers carry no body (a `Response` with one cannot be built). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` through `http.fetch` whose answers are read whole, within `http.maxResponseBytes`,
 * before they are handed on (as a `Response` over the text read); with `bodyWanted` false for an
 * answer's status, its body is released unread. A timeout of the MCP request meanwhile becomes an
 * OAuthError "timeout" naming the request; a request that fails otherwise (connection refused, a
 * name that does not resolve, the connection lost while reading) an OAuthError naming the request
 * and its URL, with the reason of its step (see {@link networkFailure}).
 *
 * @throws OAuthResponseTooLargeError naming `document` when the answer's `Content-Length` or its
 *   body exceeds the bound (the rest is not read); OAuthError "timeout"; OAuthError "discovery",
 *   "registration" or "token" for a network failure, its `cause` the error `fetch` threw; the
 *   signal's reason when it aborts otherwise.
 */
export function boundedFetch(
  http: OAuthHttp,
  document: OAuthDocument,
  bodyWanted: (status: number) => boolean = () => true,
): (url: string, init: RequestInit) => Promise<Response> {
  const maxBytes = http.maxResponseBytes ?? DEFAULT_OAUTH_MAX_RESPONSE_BYTES;
  return async (url, init) => {
    try {
      const response = await http.fetch(url, init);
      if (response.type === "opaqueredirect" || response.body === null) return response;
      const answer = fetchAnswer(response);
      const unread = !bodyWanted(response.status) || NULL_BODY_STATUSES.has(response.status);
      if (unread) await answer.discard();
      const text = unread
        ? null
        : await readText(answer, maxBytes, () => new OAuthResponseTooLargeError(document, url, maxBytes));
      return new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch (error) {
      const step = `the ${REQUEST_FOR[document]} to ${url}`;
      if (http.signal.aborted) throw stepFailure(http, step, error);
      throw networkFailure(document, step, error);
    }
  };
}

/**
 * What to throw for `error`, which a request for `document` failed with before an answer was read
 * whole, its signal not aborted (`step`: "the token request to ..."): an OAuthError naming the step,
 * with the reason of the step ("discovery" for metadata, "registration", "token") and what
 * failed ("connection refused (ECONNREFUSED)"), its `cause` `error`. An OAuthError or OAuthResponseTooLargeError passes unchanged.
 */
function networkFailure(document: OAuthDocument, step: string, error: unknown): unknown {
  if (error instanceof OAuthError || error instanceof OAuthResponseTooLargeError) return error;
  const failure = new OAuthError(REASON_FOR[document], `${step} failed: ${fetchFailureReason(error)}`, {
    cause: error,
  });
  networkFailures.add(failure);
  return failure;
}

/**
 * What to throw for `error`, which ended `step` (a phrase: "the token request to ..."): when the
 * MCP request's signal aborted because it timed out, an OAuthError "timeout" naming the step, its
 * `cause` the timeout error; `error` itself otherwise (a bound error or a timeout already named
 * passes unchanged).
 */
export function stepFailure(http: OAuthHttp, step: string, error: unknown): unknown {
  if (!http.signal.aborted || isNamedFailure(error)) return error;
  const reason: unknown = http.signal.reason;
  let limit: string;
  if (isTsmcpError(reason) && reason.code === ERROR_CODES.RequestTimeoutError) {
    const timeoutMs = (reason as { timeoutMs?: unknown }).timeoutMs;
    limit = typeof timeoutMs === "number" ? ` (${timeoutMs} ms)` : "";
  } else if (reason instanceof Error && reason.name === "TimeoutError") {
    limit = "";
  } else {
    return error;
  }
  return new OAuthError(
    "timeout",
    `${step} timed out: the MCP request that needed authorization reached its timeout${limit}`,
    { cause: reason },
  );
}

/**
 * True for the errors a step passes on as they are, never wrapped in another reason nor taken for
 * a refusal: an answer too large to read, a timeout already named, a request that failed on the
 * network (named by {@link boundedFetch}).
 */
export function isNamedFailure(error: unknown): boolean {
  return (
    error instanceof OAuthResponseTooLargeError ||
    (error instanceof OAuthError && (error.reason === "timeout" || networkFailures.has(error)))
  );
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

/**
 * oauth4webapi's request options for a request to `url`, whose answer is `document` (read within
 * `http.maxResponseBytes`, see {@link boundedFetch}). Default document: a token response.
 */
export function requestOptions(
  http: OAuthHttp,
  url: string | URL | undefined,
  document: OAuthDocument = "token response",
): OAuthRequestOptions {
  const target = url === undefined ? undefined : new URL(url);
  return {
    [oauth.customFetch]: boundedFetch(http, document),
    [oauth.allowInsecureRequests]: target !== undefined && target.protocol === "http:" && isLoopback(target),
    signal: http.signal,
  };
}

/**
 * GETs a JSON metadata document with `accept: application/json`, no redirect followed; the body of
 * a 200 is read within `http.maxResponseBytes`, any other's is released unread.
 *
 * @throws OAuthResponseTooLargeError naming `document`; OAuthError "timeout"; OAuthError
 *   "discovery" naming the request and `url` when it fails on the network; the signal's reason.
 */
export async function getMetadata(http: OAuthHttp, url: URL, document: OAuthDocument): Promise<Response> {
  if (url.protocol !== "https:" && !isLoopback(url)) {
    throw new TypeError(`refusing to fetch ${url.href} over plain HTTP (only loopback hosts may use http:)`);
  }
  return boundedFetch(
    http,
    document,
    (status) => status === 200,
  )(url.href, {
    headers: { accept: "application/json" },
    redirect: "manual",
    signal: http.signal,
  });
}
