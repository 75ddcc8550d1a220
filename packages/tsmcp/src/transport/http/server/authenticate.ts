/**
 * The auth hook of the Streamable HTTP server: run on every request before its body is read, it
 * turns the request into an `AuthInfo` that rides the request environment to middleware, the
 * requestState boundary and `ctx.auth`, or answers it itself (a 401 or 403 challenge).
 * Spec: basic/authorization (the MCP server as an OAuth 2.1 resource server).
 */
import { requiredScopesOf } from "../../../protocol/insufficient-scope.js";
import { isErrorResponse, type JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import type { Logger } from "../../../protocol/logger.js";
import type { AuthInfo, HeaderReader } from "../../dispatcher.js";
import type { HttpExchange, HttpServerAnswer } from "../exchange.js";

/**
 * What the auth hook sees of a request: a web `Request` fits, the body is never read. On the Node
 * adapter `headers` is a light reader over the `node:http` headers (`get` is case-insensitive, as
 * with web `Headers`).
 */
export interface AuthenticateRequest {
  readonly method: string;
  /** The absolute request URL. */
  readonly url: string;
  readonly headers: HeaderReader;
}

/**
 * What the auth hook decides: the verified identity, `undefined` to serve the request without one,
 * or a `Response` to answer the request with instead (typically 401 or 403 with a
 * `WWW-Authenticate` challenge).
 */
export type AuthenticateResult = AuthInfo | undefined | Response;

/**
 * The auth hook (`authenticate` option of the Streamable HTTP handler). It must not read the body.
 * A throw or rejection answers 500 with -32603 "Internal error", the cause going to the handler's
 * logger.
 */
export interface Authenticate {
  (request: AuthenticateRequest): AuthenticateResult | Promise<AuthenticateResult>;
  /**
   * The `WWW-Authenticate` value of a 403 for an operation that needs `requiredScopes` the
   * request's token lacks (a per-tool, per-prompt or per-resource scope). When present, such a
   * refusal answered as JSON goes with status 403 and this header; without it the JSON-RPC error
   * keeps its usual status. `bearerAuth` sets it.
   */
  readonly challenge?: (requiredScopes: readonly string[]) => string;
}

/**
 * Why an auth hook refused a request, for the server's log (never sent to the client): the
 * challenge's `error` code (`invalid_token`, `insufficient_scope`; absent when no credential was
 * presented) and a reason in words, which must hold no token material.
 */
export interface AuthRefusal {
  readonly error?: string;
  readonly reason: string;
}

/** The refusals hooks recorded for the answers they return, by answer. */
const refusals = new WeakMap<Response, AuthRefusal>();

/**
 * Records why `response` refuses a request, for the handler to log when the hook returns it;
 * returns `response`. `bearerAuth` records each of its refusals.
 */
export function recordRefusal(response: Response, refusal: AuthRefusal): Response {
  refusals.set(response, refusal);
  return response;
}

/** True for a value shaped as an {@link AuthInfo} (an object with a string `token`). */
function isAuthInfo(value: unknown): value is AuthInfo {
  return typeof value === "object" && value !== null && typeof (value as AuthInfo).token === "string";
}

/**
 * Runs the hook: resolves with the identity (possibly undefined), or with the answer to send
 * instead and why (the refusal the hook recorded, else one naming the status). Rejects when the
 * hook throws or returns something else (the caller reports it).
 */
export async function authenticateRequest(
  hook: Authenticate,
  request: AuthenticateRequest,
): Promise<{ auth: AuthInfo | undefined } | { answer: HttpServerAnswer; refusal: AuthRefusal }> {
  const result = await hook(request);
  if (result === undefined) return { auth: undefined };
  if (result instanceof Response) {
    const refusal = refusals.get(result) ?? {
      reason: `the authenticate hook answered HTTP ${result.status}`,
    };
    return { answer: { kind: "response", response: result }, refusal };
  }
  if (isAuthInfo(result)) return { auth: result };
  throw new TypeError("authenticate must return an AuthInfo (with a string token), undefined, or a Response");
}

/**
 * The 403 step-up answer of a JSON-RPC error that refuses an operation for want of scopes, when the
 * hook can build the challenge; undefined for any other response.
 */
export function scopeChallengeAnswer(
  response: JSONRPCResponse,
  challenge: Authenticate["challenge"],
): HttpServerAnswer | undefined {
  if (challenge === undefined || !isErrorResponse(response)) return undefined;
  const scopes = requiredScopesOf(response.error);
  if (scopes === undefined) return undefined;
  return {
    kind: "json",
    status: 403,
    text: JSON.stringify(response),
    headers: { "WWW-Authenticate": challenge(scopes) },
  };
}

/** The hook option, checked: a function whose `challenge`, when present, is a function. */
export function checkAuthenticate(owner: string, hook: unknown): Authenticate | undefined {
  if (hook === undefined) return undefined;
  if (typeof hook !== "function") throw new TypeError(`${owner}: authenticate must be a function`);
  const challenge = (hook as Authenticate).challenge;
  if (challenge !== undefined && typeof challenge !== "function") {
    throw new TypeError(`${owner}: authenticate.challenge must be a function when present`);
  }
  return hook as Authenticate;
}

/**
 * Logs a request the auth hook refused: `warn` when it presented a credential (a token refused,
 * expired, or short of a scope), else `debug` (a client's first request before it signs in), each
 * when the logger has the level. The fields are the answer's status, the challenge's `error` and
 * the hook's reason; never the credential.
 */
export function noteAuthRefusal(
  logger: Pick<Logger, "error"> & Partial<Pick<Logger, "warn" | "debug">>,
  outcome: { readonly answer: HttpServerAnswer; readonly refusal: AuthRefusal },
  presented: boolean,
): void {
  const log = presented ? logger.warn : logger.debug;
  if (typeof log !== "function") return;
  const { error, reason } = outcome.refusal;
  const status = outcome.answer.kind === "response" ? outcome.answer.response.status : undefined;
  try {
    log.call(logger, `Streamable HTTP refused a request: ${reason}`, {
      status,
      ...(error === undefined ? {} : { error }),
      reason,
    });
  } catch {
    // a failing logger must not break the answer
  }
}

/** The exchange as served: the same request, with the identity the hook established. */
export function withAuth(exchange: HttpExchange, auth: AuthInfo | undefined): HttpExchange {
  return {
    method: exchange.method,
    url: exchange.url,
    headers: exchange.headers,
    get signal() {
      return exchange.signal;
    },
    readBody: (maxBodyBytes) => exchange.readBody(maxBodyBytes),
    ...(auth === undefined ? {} : { auth }),
  };
}
