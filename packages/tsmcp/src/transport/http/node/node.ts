/**
 * The Node.js adapter of the Streamable HTTP server: serves the exchange handler on one path of a
 * `node:http` server, bound to loopback by default. Requests are read from `IncomingMessage` and
 * answers written to `ServerResponse` without web `Request`/`Response` objects; `close()` drains.
 * Spec: basic/transports/streamable-http (one endpoint; bind to 127.0.0.1 when local).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Dispatcher } from "../../dispatcher.js";
import { DEFAULT_ALLOWED_HOSTS, normalizeHostname } from "../server/origin-guard.js";
import {
  createExchangeHandler,
  type HttpExchangeHandler,
  type HttpHandlerOptions,
} from "../server/server-handler.js";
import { answerClientError } from "./node-client-error.js";
import {
  isWellFormedHost,
  MALFORMED_REQUEST,
  NodeExchange,
  routeTarget,
  writeAnswer,
  writeNotFound,
} from "./node-exchange.js";
import { writeNodeAnswer } from "./node-listener.js";
import {
  type CheckedServeOptions,
  checkServeOptions,
  SERVE_ONLY_OPTIONS,
  type ServeOptions,
} from "./node-options.js";
import { Drain } from "./node-shutdown.js";

export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_PATH,
  DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS,
  type ServeOptions,
} from "./node-options.js";

/** A running server. */
export interface HttpServerHandle {
  /** The endpoint URL, with the real port (`http://127.0.0.1:54321/mcp`). */
  readonly url: URL;
  /** The port listened on. */
  readonly port: number;
  /**
   * Closes gracefully: stops accepting connections and closes idle keep-alive ones; ends at once
   * the streams that never finish on their own (a session's GET stream; `subscriptions/listen`,
   * whose request is cancelled and answered); lets every other in-flight request finish for up to
   * `drainTimeoutMs` (its answer closes its connection); then ends every handshake-era session,
   * aborts the requests still running through their `AbortSignal` (they answer as cancelled
   * within a second, or their connection is destroyed) and destroys what is left. Resolves once the
   * server is closed. Idempotent.
   */
  close(): Promise<void>;
}

function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

/**
 * Serves `dispatcher` over Streamable HTTP on Node.js.
 *
 * ```ts
 * const handle = await serve(server, { port: 3000 });   // http://127.0.0.1:3000/mcp
 * process.once("SIGTERM", () => void handle.close());  // drains in-flight requests
 * ```
 *
 * Bound to loopback (the default), the allowed hosts are `localhost`, `127.0.0.1`, `[::1]` and the
 * bound host. The endpoint answers as `createHttpHandler` (tsmcp/transport) does; other paths get a plain 404;
 * a missing or malformed `Host`, or a malformed request target, gets -32600 (HTTP 400).
 *
 * @throws TypeError for a bad option, or a non-loopback `host` without `allowedHosts`; RangeError
 *   for an out-of-range number (`port`, `maxBodyBytes`, `keepAliveMs`, a timeout, a cap):
 *   synchronously, before listening. The promise rejects when the port cannot be bound (e.g.
 *   `EADDRINUSE`).
 */
export function serve(dispatcher: Dispatcher, options: ServeOptions = {}): Promise<HttpServerHandle> {
  const checked = checkServeOptions(options);
  const handlerOptions: Record<string, unknown> = { ...options };
  for (const name of SERVE_ONLY_OPTIONS) delete handlerOptions[name];
  const allowedHosts = options.allowedHosts ?? [
    ...new Set([...DEFAULT_ALLOWED_HOSTS, normalizeHostname(checked.host, "host", "serve")]),
  ];
  const handler = createExchangeHandler(
    dispatcher,
    { ...(handlerOptions as HttpHandlerOptions), allowedHosts },
    "serve",
  );
  return start(handler, checked);
}

/**
 * The request listener: routes by path, refuses a malformed `Host` or target, then serves the
 * exchange and writes its answer. Never rejects.
 */
function listenerOf(handler: HttpExchangeHandler, path: string, drain: Drain) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> => {
    if (drain.closing) outgoing.shouldKeepAlive = false;
    const route = routeTarget(incoming.url, path);
    if (route === "not-found") return writeNotFound(outgoing);
    if (route === "malformed" || !isWellFormedHost(incoming.headers.host)) {
      return writeAnswer(outgoing, MALFORMED_REQUEST);
    }
    const exchange = new NodeExchange(incoming, outgoing);
    const inFlight = drain.track(exchange);
    const answer = await handler(exchange);
    if (drain.closing && !outgoing.headersSent) outgoing.shouldKeepAlive = false;
    writeNodeAnswer(answer, outgoing, inFlight);
  };
}

async function start(handler: HttpExchangeHandler, options: CheckedServeOptions): Promise<HttpServerHandle> {
  const { host, port, path } = options;
  const server = createServer({
    // A missing Host is answered by the listener as JSON-RPC, like a malformed one.
    requireHostHeader: false,
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs,
    maxHeaderSize: options.maxHeaderBytes,
    // How often the timeouts above are checked: often enough that they hold within about half.
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(
        30_000,
        Math.floor(Math.min(options.headersTimeoutMs, options.requestTimeoutMs || Infinity) / 2),
      ),
    ),
  });
  server.maxConnections = options.maxConnections;
  server.on("clientError", answerClientError);
  const drain = new Drain(server);
  const listener = listenerOf(handler, path, drain);
  server.on("request", (incoming, outgoing) => {
    void listener(incoming, outgoing).catch((error: unknown) => {
      outgoing.destroy(error instanceof Error ? error : undefined);
    });
  });
  await listen(server, port, host.replace(/^\[|\]$/g, ""));

  const address = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host.replace(/^\[|\]$/g, "")}]` : host;
  const url = new URL(`http://${urlHost}:${address.port}${path}`);
  let closing: Promise<void> | undefined;
  return {
    url,
    port: address.port,
    close() {
      closing ??= drain.close(options.drainTimeoutMs, () => handler.close());
      return closing;
    },
  };
}
