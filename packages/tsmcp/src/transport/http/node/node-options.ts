/**
 * The options of the Node.js adapter (`serve`) beyond the handler's: where to listen, the
 * `node:http` server's timeouts and caps, and the drain timeout of a graceful close; their
 * defaults and their validation, done once when `serve` is called.
 */
import { checkInteger, checkOptionsObject, optionTypeError } from "../../../protocol/options.js";
import type { HttpHandlerOptions } from "../server/server-handler.js";

/** The interface `serve` binds to by default: loopback IPv4. */
export const DEFAULT_HOST = "127.0.0.1";

/** The endpoint path `serve` answers on by default. */
export const DEFAULT_PATH = "/mcp";

/** Milliseconds `close()` lets in-flight requests run before aborting them, by default: 10 s. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 10_000;

/** Milliseconds a client has to send the request headers, by default: 30 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000;

/**
 * Milliseconds a client has to send a whole request (headers and body) to `serve`, by default:
 * 60 s (the `requestTimeoutMs` option). Not a client's wait for a response.
 */
export const DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS = 60_000;

/** Milliseconds an idle keep-alive connection stays open, by default: 5 s. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** Connections served at once, by default; more are dropped as they arrive. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;

/** Bytes the request line and headers may take, by default: 16 KiB (Node's own default). */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

/** The longest delay a timer can hold (2^31 - 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

/** Options of `serve`: the handler's options plus where to listen and how the server behaves. */
export interface ServeOptions extends HttpHandlerOptions {
  /**
   * Interface to bind. Default {@link DEFAULT_HOST} ("127.0.0.1"). Any non-loopback host needs
   * an explicit `allowedHosts`.
   */
  host?: string;
  /** TCP port; 0 picks a free one (read it from the handle). Default 0. */
  port?: number;
  /**
   * The MCP endpoint path, compared with the request target's path as sent; other paths get a
   * plain 404, except the protected resource metadata paths (`/.well-known/oauth-protected-resource...`),
   * which the handler answers (404 without `protectedResourceMetadata`). Default {@link DEFAULT_PATH} ("/mcp").
   */
  path?: string;
  /**
   * Milliseconds `close()` lets in-flight requests finish before aborting them through their
   * `AbortSignal`; 0 aborts them at once. Default {@link DEFAULT_DRAIN_TIMEOUT_MS} (10000).
   */
  drainTimeoutMs?: number;
  /**
   * Milliseconds a client has to send the request headers before its connection is closed
   * (slow-header clients); at most `requestTimeoutMs`. Default {@link DEFAULT_HEADERS_TIMEOUT_MS} (30000).
   */
  headersTimeoutMs?: number;
  /**
   * Milliseconds a client has to send a whole request, body included, before it gets 408 and
   * its connection closes; 0 for no limit. Does not bound the answer (SSE streams stay open).
   * Default {@link DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS} (60000).
   */
  requestTimeoutMs?: number;
  /**
   * Milliseconds an idle keep-alive connection stays open waiting for the next request. Default {@link DEFAULT_KEEP_ALIVE_TIMEOUT_MS} (5000).
   */
  keepAliveTimeoutMs?: number;
  /**
   * Connections served at once; a connection past it is closed as it arrives. Default
   * {@link DEFAULT_MAX_CONNECTIONS} (1000).
   */
  maxConnections?: number;
  /**
   * Bytes the request line and headers may take; a larger head gets 431. Default
   * {@link DEFAULT_MAX_HEADER_BYTES} (16384).
   */
  maxHeaderBytes?: number;
}

/** The adapter's own options, checked and defaulted. */
export interface CheckedServeOptions {
  host: string;
  port: number;
  path: string;
  drainTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  maxHeaderBytes: number;
}

/** The names of the adapter's own options, which the handler does not take. */
export const SERVE_ONLY_OPTIONS = [
  "host",
  "port",
  "path",
  "drainTimeoutMs",
  "headersTimeoutMs",
  "requestTimeoutMs",
  "keepAliveTimeoutMs",
  "maxConnections",
  "maxHeaderBytes",
] as const;

/** True for `localhost`, `::1` and `127.x.x.x`. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/**
 * Checks and defaults the adapter's own options.
 *
 * @throws TypeError for a wrong type, or a non-loopback `host` without `allowedHosts`; RangeError
 *   for an out-of-range number, or `headersTimeoutMs` above a non-zero `requestTimeoutMs`.
 */
export function checkServeOptions(options: ServeOptions): CheckedServeOptions {
  checkOptionsObject("serve", options);
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? 0;
  const path = options.path ?? DEFAULT_PATH;
  if (typeof host !== "string" || host.length === 0)
    throw optionTypeError("serve", "host", "a non-empty string");
  checkInteger("serve", "port", port, { max: 65535 });
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw optionTypeError("serve", "path", `a string starting with "/", got ${JSON.stringify(path)}`);
  }
  const ms = { max: MAX_TIMER_MS, unit: "milliseconds" };
  checkInteger("serve", "drainTimeoutMs", options.drainTimeoutMs, ms);
  checkInteger("serve", "headersTimeoutMs", options.headersTimeoutMs, { ...ms, min: 1 });
  checkInteger("serve", "requestTimeoutMs", options.requestTimeoutMs, ms);
  checkInteger("serve", "keepAliveTimeoutMs", options.keepAliveTimeoutMs, { ...ms, min: 1 });
  checkInteger("serve", "maxConnections", options.maxConnections, { min: 1, unit: "connections" });
  checkInteger("serve", "maxHeaderBytes", options.maxHeaderBytes, { min: 1, unit: "bytes" });
  const checked = {
    host,
    port,
    path,
    drainTimeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
    headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS,
    keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    maxHeaderBytes: options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES,
  };
  if (checked.requestTimeoutMs > 0 && checked.headersTimeoutMs > checked.requestTimeoutMs) {
    throw new RangeError(
      `serve option "headersTimeoutMs" (${checked.headersTimeoutMs}) must not exceed ` +
        `"requestTimeoutMs" (${checked.requestTimeoutMs})`,
    );
  }
  if (!isLoopback(host) && options.allowedHosts === undefined) {
    throw new TypeError(
      `serve: binding to ${JSON.stringify(host)} makes the server reachable from other machines, but only ` +
        `loopback Host headers are accepted by default. Pass allowedHosts with the hostnames clients use ` +
        `(for example allowedHosts: ["mcp.example.com"]), or allowedHosts: "*" when a proxy in front ` +
        `checks the Host header.`,
    );
  }
  return checked;
}
