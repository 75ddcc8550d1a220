/**
 * Cross-origin resource sharing for the HTTP server, so that a web page can call it: a preflight
 * (`OPTIONS`) answered before any auth, and the response headers a browser needs to read an answer
 * and its MCP headers. Which origins may call is the `allowedOrigins` rule: an origin it refuses
 * gets no CORS headers and the usual 403. Spec: basic/transports/streamable-http §Security Warning
 * (Origin validation); the headers are those of the Fetch standard's CORS protocol.
 */
import {
  checkBoolean,
  checkInteger,
  isObject,
  optionError,
  optionTypeError,
} from "../../../protocol/options.js";
import type { HttpServerAnswer } from "../exchange.js";

/** The methods a preflight allows: the endpoint's, and `OPTIONS` itself. */
export const CORS_ALLOWED_METHODS: readonly string[] = Object.freeze(["POST", "GET", "DELETE", "OPTIONS"]);

/**
 * The request headers a preflight allows by default: what an MCP client sends. Every
 * `Mcp-Param-*` header a preflight asks for (tool arguments mirrored in headers) is allowed too.
 */
export const DEFAULT_CORS_ALLOWED_HEADERS: readonly string[] = Object.freeze([
  "Content-Type",
  "Authorization",
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
  "Last-Event-ID",
]);

/** The response headers a page may read by default: the session id, the revision, the auth challenge. */
export const DEFAULT_CORS_EXPOSED_HEADERS: readonly string[] = Object.freeze([
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "WWW-Authenticate",
]);

/** Milliseconds a browser may cache a preflight answer, by default: 2 hours (the most Chromium keeps). */
export const DEFAULT_CORS_MAX_AGE_MS = 7_200_000;

/** The `cors` option of the HTTP handler; every field is optional. */
export interface CorsOptions {
  /** Request headers allowed on top of {@link DEFAULT_CORS_ALLOWED_HEADERS}. Default none. */
  allowedHeaders?: readonly string[];
  /** Response headers exposed on top of {@link DEFAULT_CORS_EXPOSED_HEADERS}. Default none. */
  exposedHeaders?: readonly string[];
  /**
   * Milliseconds a browser may cache a preflight answer, sent as whole seconds in
   * `Access-Control-Max-Age`. Default {@link DEFAULT_CORS_MAX_AGE_MS} (7200000).
   */
  maxAgeMs?: number;
  /**
   * Let pages send cookies and HTTP authentication (`Access-Control-Allow-Credentials: true`).
   * Requires `allowedOrigins` to be an array of exact origins: with `"*"`, or with the default
   * rule (any http(s) origin on an allowed host, whatever its scheme and port; every origin at all
   * with `allowedHosts: "*"`), other sites could act with the user's credentials. Default false.
   */
  credentials?: boolean;
}

/** The compiled `cors` option: the headers of a preflight and of an answer, per allowed origin. */
export interface Cors {
  /** The 204 answer to a preflight from `origin` (null: no `Origin`, no CORS headers). */
  preflight(origin: string | null, requestedHeaders: string | null): HttpServerAnswer;
  /** `answer` with the CORS headers of `origin` added. */
  answer(answer: HttpServerAnswer, origin: string): HttpServerAnswer;
}

/** A header name (RFC 9110 §5.1 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkNames(owner: string, option: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw optionTypeError(owner, option, "an array of header names");
  for (const name of value) {
    if (typeof name !== "string" || !TOKEN.test(name)) {
      throw optionError(owner, option, `must hold header names, got ${JSON.stringify(name)}`);
    }
  }
  return value as readonly string[];
}

/** The names of `base` and `extra`, each once (compared case-insensitively), joined for a header. */
function joinNames(base: readonly string[], extra: readonly string[]): string {
  const seen = new Set(base.map((name) => name.toLowerCase()));
  const names = [...base];
  for (const name of extra) {
    if (seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    names.push(name);
  }
  return names.join(", ");
}

/** What a preflight answer depends on: the origin, and the method and headers it asks for. */
const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

const PARAM_HEADER = /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Compiles the `cors` option: `undefined` or `false` is off; `true` is on with the defaults.
 *
 * @throws TypeError for a wrong type, a malformed header name, or `credentials: true` without
 *   an `allowedOrigins` array; RangeError for a negative or fractional `maxAgeMs`.
 */
export function checkCors(
  owner: string,
  option: boolean | CorsOptions | undefined,
  allowedOrigins: unknown,
): Cors | undefined {
  if (option === undefined || option === false) return undefined;
  if (option !== true && !isObject(option)) throw optionTypeError(owner, "cors", "a boolean or an object");
  const options: CorsOptions = option === true ? {} : option;
  const allowedHeaders = checkNames(owner, "cors.allowedHeaders", options.allowedHeaders);
  const exposedHeaders = checkNames(owner, "cors.exposedHeaders", options.exposedHeaders);
  checkInteger(owner, "cors.maxAgeMs", options.maxAgeMs, { unit: "milliseconds" });
  checkBoolean(owner, "cors.credentials", options.credentials);
  const credentials = options.credentials === true;
  if (credentials && !Array.isArray(allowedOrigins)) {
    const given = allowedOrigins === undefined ? "the default allowedOrigins" : 'allowedOrigins: "*"';
    throw optionError(
      owner,
      "cors.credentials",
      `cannot be true with ${given} (every origin, or every origin on an allowed host on any ` +
        "scheme and port, could call with the user's credentials); list the exact origins in " +
        'allowedOrigins, such as ["https://app.example.com"]',
    );
  }
  const allowHeaders = joinNames(DEFAULT_CORS_ALLOWED_HEADERS, allowedHeaders);
  const allowHeadersLower = new Set(allowHeaders.toLowerCase().split(", "));
  const exposeHeaders = joinNames(DEFAULT_CORS_EXPOSED_HEADERS, exposedHeaders);
  const maxAge = String(Math.floor((options.maxAgeMs ?? DEFAULT_CORS_MAX_AGE_MS) / 1000));
  const allowMethods = CORS_ALLOWED_METHODS.join(", ");

  const originHeaders = (origin: string): Record<string, string> => {
    const headers: Record<string, string> = { "Access-Control-Allow-Origin": origin, Vary: "Origin" };
    if (credentials) headers["Access-Control-Allow-Credentials"] = "true";
    return headers;
  };

  return {
    preflight(origin, requestedHeaders) {
      if (origin === null) {
        return { kind: "empty", status: 204, headers: { Allow: allowMethods, Vary: PREFLIGHT_VARY } };
      }
      // The tool-argument headers are named by the tools, so the ones asked for are allowed.
      const params = (requestedHeaders ?? "")
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter((name) => PARAM_HEADER.test(name) && !allowHeadersLower.has(name));
      return {
        kind: "empty",
        status: 204,
        headers: {
          ...originHeaders(origin),
          // The allowed headers reflect the requested ones; a cache must not reuse the answer for another request.
          Vary: PREFLIGHT_VARY,
          Allow: allowMethods,
          "Access-Control-Allow-Methods": allowMethods,
          "Access-Control-Allow-Headers":
            params.length === 0 ? allowHeaders : `${allowHeaders}, ${params.join(", ")}`,
          "Access-Control-Max-Age": maxAge,
        },
      };
    },
    answer(answer, origin) {
      const headers = { ...originHeaders(origin), "Access-Control-Expose-Headers": exposeHeaders };
      if (answer.kind !== "response") return { ...answer, headers: { ...answer.headers, ...headers } };
      const { response } = answer;
      const merged = new Headers(response.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return {
        kind: "response",
        response: new Response(response.body, {
          status: response.status,
          statusText: response.statusText,
          headers: merged,
        }),
      };
    },
  };
}
