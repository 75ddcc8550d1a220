/**
 * The options of the Streamable HTTP handler (every entry: the web handler, `serve`, the Node
 * listener, the framework adapters) and their validation when the handler is built. Spec:
 * basic/transports/streamable-http.
 */
import { DEFAULT_MAX_JSON_DEPTH } from "../../../protocol/jsonrpc.js";
import { checkLogger, type Logger, stderrLogger } from "../../../protocol/logger.js";
import { checkInteger, checkOptionsObject } from "../../../protocol/options.js";
import { withTraceFields } from "../../../telemetry/log-fields.js";
import { type CheckedSessionOptions, checkSessionOptions, type SessionOptions } from "../session/options.js";
import { type Authenticate, checkAuthenticate } from "./authenticate.js";
import { DEFAULT_MAX_BODY_BYTES } from "./body.js";
import { type Cors, type CorsOptions, checkCors } from "./cors.js";
import type { OriginGuardOptions } from "./origin-guard.js";
import { type CheckedMetadata, checkMetadata, type ProtectedResourceMetadata } from "./resource-metadata.js";
import { DEFAULT_MAX_STREAM_BUFFER_BYTES } from "./sse.js";

/** Milliseconds between keep-alive comments on an open SSE stream, by default. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** The longest keep-alive interval a timer can hold (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** Options of {@link createHttpHandler}; all validated when the handler is built. */
export interface HttpHandlerOptions extends OriginGuardOptions, SessionOptions {
  /**
   * Hostnames the `Host` header may name, on any port, or `"*"` for any (behind a proxy that
   * checks it). Default: loopback only, `["localhost", "127.0.0.1", "[::1]"]`. A request for any
   * other host is refused with 403 (DNS-rebinding defence).
   */
  allowedHosts?: readonly string[] | "*";
  /**
   * Origins (`https://app.example.com`) a browser may call from, or `"*"`. Default: any http(s)
   * origin whose hostname is an allowed host. A request with another `Origin` gets 403; requests
   * without `Origin` (non-browser clients) are not affected.
   */
  allowedOrigins?: readonly string[] | "*";
  /** Largest request body in bytes; larger ones get 413. Default {@link DEFAULT_MAX_BODY_BYTES} (4 MiB). */
  maxBodyBytes?: number;
  /**
   * Deepest nesting of objects and arrays a message may have, the message itself counting as 1;
   * a deeper one is answered -32600 (HTTP 400, the request id echoed) before any middleware or
   * handler sees it. Default {@link DEFAULT_MAX_JSON_DEPTH} (64).
   */
  maxJsonDepth?: number;
  /**
   * Milliseconds between `: keep-alive` comment lines on an open SSE stream; 0 sends none.
   * Default {@link DEFAULT_KEEP_ALIVE_MS} (15000).
   */
  keepAliveMs?: number;
  /**
   * Bytes each SSE response stream (a POST's stream, the GET stream) may hold that its client has
   * not read yet. A client that falls further behind (what it has not read reaches this bound when
   * the next event is written; one event larger than the bound still goes to a client that reads
   * it) is treated as gone: its connection is closed
   * and what was waiting dropped (on the 2026 path the request is cancelled; on a session the
   * events stay in the event store, so the client can resume with `Last-Event-ID`). Default
   * {@link DEFAULT_MAX_STREAM_BUFFER_BYTES} (1048576, 1 MiB).
   */
  maxStreamBufferBytes?: number;
  /**
   * Receives unexpected failures (a dispatcher that rejects or answers a request with nothing) as
   * `error("Streamable HTTP handler failed", { error })`; the client only ever sees -32603
   * "Internal error"; a request refused for its `Host` or `Origin` goes to `warn`, when the logger
   * has it, and so does one `authenticate` refused after a credential was presented, with the
   * hook's reason (`bearerAuth`: why the token was refused; never the token); one refused without a
   * credential goes to `debug`. Default: the dispatcher's `logger` (a `Server`'s or `MCPServer`'s),
   * else `stderrLogger`.
   */
  logger?: Pick<Logger, "error">;
  /**
   * The auth hook, run on every MCP request after the Host and Origin checks and before the body is
   * read (both eras, every HTTP method): its `AuthInfo` is handed to the dispatcher with the
   * request (`ctx.auth` in handlers, the principal a sealed requestState and a handshake-era session
   * are bound to); a `Response` it returns is sent instead; `undefined` serves the request without
   * an identity. A session opened by one principal refuses requests of any other (404, as for an
   * unknown session). Default: none (no request carries an identity). Build one with `bearerAuth()`
   * from tsmcp/server. Spec: basic/authorization.
   */
  authenticate?: Authenticate;
  /**
   * The protected resource metadata document (RFC 9728) to serve, to any origin, at
   * `/.well-known/oauth-protected-resource` and at the path-suffixed form of its `resource` (e.g.
   * `/.well-known/oauth-protected-resource/mcp`), before `authenticate` runs. Default: none. Build one with
   * `protectedResourceMetadata()` from tsmcp/server. Other paths under that prefix get 404. Spec: basic/authorization §Protected
   * Resource Metadata Discovery Requirements.
   */
  protectedResourceMetadata?: ProtectedResourceMetadata;
  /**
   * Lets web pages call the server (CORS): `true` for the defaults, an object to add headers, set
   * the preflight cache or allow credentials. Which pages may call is `allowedOrigins`: a request
   * from an allowed `Origin` gets `Access-Control-Allow-Origin` (its origin, `Vary: Origin`) and
   * `Access-Control-Expose-Headers` on every answer, and a preflight (`OPTIONS`) is answered 204
   * with the allowed methods and headers (varying on the ones it asked for) before `authenticate` runs (a preflight carries no
   * credentials); any other `Origin` gets no CORS headers and 403, as without this option.
   * Default: off (`OPTIONS` gets 405). See {@link CorsOptions}.
   */
  cors?: boolean | CorsOptions;
}

/** The handler options, validated, with defaults applied. */
export interface CheckedOptions {
  maxBodyBytes: number;
  maxJsonDepth: number;
  keepAliveMs: number;
  maxStreamBufferBytes: number;
  logger: Pick<Logger, "error">;
  sessions: CheckedSessionOptions;
  authenticate: Authenticate | undefined;
  metadata: CheckedMetadata | undefined;
  cors: Cors | undefined;
}

/** Validates `options` (TypeError/RangeError naming `owner`) and applies the defaults. */
export function checkOptions(
  owner: string,
  options: HttpHandlerOptions,
  fallbackLogger: Pick<Logger, "error"> = stderrLogger,
): CheckedOptions {
  const { maxBodyBytes, maxJsonDepth, keepAliveMs, maxStreamBufferBytes, logger } = checkOptionsObject(
    owner,
    options,
  );
  checkInteger(owner, "maxBodyBytes", maxBodyBytes, { min: 1, unit: "bytes" });
  checkInteger(owner, "maxJsonDepth", maxJsonDepth, { min: 1, unit: "levels" });
  checkInteger(owner, "maxStreamBufferBytes", maxStreamBufferBytes, { min: 1, unit: "bytes" });
  checkInteger(owner, "keepAliveMs", keepAliveMs, { max: MAX_TIMER_MS, unit: "milliseconds" });
  const sessions = checkSessionOptions(owner, options);
  return {
    sessions,
    maxBodyBytes: maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxJsonDepth: maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
    keepAliveMs: keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
    maxStreamBufferBytes: maxStreamBufferBytes ?? DEFAULT_MAX_STREAM_BUFFER_BYTES,
    logger: withTraceFields(
      logger === undefined ? fallbackLogger : checkLogger(logger, owner, "logger", ["error"]),
    ),
    authenticate: checkAuthenticate(owner, options.authenticate),
    metadata: checkMetadata(owner, options.protectedResourceMetadata),
    cors: checkCors(owner, options.cors, options.allowedOrigins),
  };
}
