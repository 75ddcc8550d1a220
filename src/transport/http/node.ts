/**
 * The Node.js adapter of the Streamable HTTP server: serves the handler on one path of a `node:http`
 * server through `@hono/node-server`'s request listener, bound to loopback by default. JSON answers
 * are written to the socket directly; SSE answers are streamed by the listener.
 * Spec: basic/transports/streamable-http (one endpoint; bind to 127.0.0.1 when local).
 */
import {
  createServer,
  type IncomingMessage,
  type Server as NodeHttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { internalError, McpError } from "../../protocol/errors.js";
import { errorResponse } from "../../protocol/jsonrpc.js";
import { checkInteger, checkOptionsObject, optionTypeError } from "../../protocol/options.js";
import type { Dispatcher } from "../dispatcher.js";
import { type BodyText, BoundedBody } from "./body.js";
import { DEFAULT_ALLOWED_HOSTS, normalizeHostname } from "./origin-guard.js";
import { isProtectedResourceMetadataPath } from "./resource-metadata.js";
import {
  createExchangeHandler,
  type HttpExchange,
  type HttpExchangeHandler,
  type HttpHandlerOptions,
} from "./server-handler.js";

/** The interface `serve` binds to by default: loopback IPv4. */
export const DEFAULT_HOST = "127.0.0.1";

/** The endpoint path `serve` answers on by default. */
export const DEFAULT_PATH = "/mcp";

/** Options of {@link serve}: the handler's options plus where to listen. */
export interface ServeOptions extends HttpHandlerOptions {
  /**
   * Interface to bind. Default {@link DEFAULT_HOST} ("127.0.0.1"). Any non-loopback host needs
   * an explicit `allowedHosts`.
   */
  host?: string;
  /** TCP port; 0 picks a free one (read it from the handle). Default 0. */
  port?: number;
  /**
   * The MCP endpoint path; other paths get a plain 404, except the protected resource metadata
   * paths (`/.well-known/oauth-protected-resource...`), which the handler answers (404 without
   * `protectedResourceMetadata`). Default {@link DEFAULT_PATH} ("/mcp").
   */
  path?: string;
}

/** A running server. */
export interface HttpServerHandle {
  /** The endpoint URL, with the real port (`http://127.0.0.1:54321/mcp`). */
  readonly url: URL;
  /** The port listened on. */
  readonly port: number;
  /**
   * Stops listening, ends every handshake-era session and every open connection, SSE streams
   * included (their requests are aborted). Resolves once the server is closed. Idempotent.
   */
  close(): Promise<void>;
}

function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function checkServeOptions(options: ServeOptions): { host: string; port: number; path: string } {
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
  if (!isLoopback(host) && options.allowedHosts === undefined) {
    throw new TypeError(
      `serve: binding to ${JSON.stringify(host)} makes the server reachable from other machines, but only ` +
        `loopback Host headers are accepted by default. Pass allowedHosts with the hostnames clients use ` +
        `(for example allowedHosts: ["mcp.example.com"]), or allowedHosts: "*" when a proxy in front ` +
        `checks the Host header.`,
    );
  }
  return { host, port, path };
}

function listen(server: NodeHttpServer, port: number, host: string): Promise<void> {
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
 * await handle.close();
 * ```
 *
 * Bound to loopback (the default), the allowed hosts are `localhost`, `127.0.0.1`, `[::1]` and the
 * bound host.
 *
 * @throws TypeError for a bad option, or a non-loopback `host` without `allowedHosts`; RangeError
 *   for a bad `port`, `maxBodyBytes` or `keepAliveMs`: synchronously, before listening. The
 *   promise rejects when the port cannot be bound (e.g. `EADDRINUSE`).
 */
export function serve(dispatcher: Dispatcher, options: ServeOptions = {}): Promise<HttpServerHandle> {
  const { host, port, path } = checkServeOptions(options);
  const { host: _host, port: _port, path: _path, ...handlerOptions } = options;
  const allowedHosts = options.allowedHosts ?? [
    ...new Set([...DEFAULT_ALLOWED_HOSTS, normalizeHostname(host, "host", "serve")]),
  ];
  const handler = createExchangeHandler(dispatcher, { ...handlerOptions, allowedHosts }, "serve");
  return start(handler, host, port, path);
}

/**
 * Reads a `node:http` request body as UTF-8 text, at most `maxBodyBytes` bytes: the outcomes of
 * `readBodyText`, straight from the Node stream (no web stream in between). On `too-large` it stops
 * reading and leaves the rest to the caller (the adapter drains or closes the connection);
 * `aborted` when the stream errors or closes before its end. Never rejects.
 */
function readIncomingText(incoming: IncomingMessage, maxBodyBytes: number): Promise<BodyText> {
  const body = new BoundedBody(maxBodyBytes);
  if (body.declaresTooMuch(incoming.headers["content-length"])) return Promise.resolve({ kind: "too-large" });
  return new Promise((resolve) => {
    const cleanup = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onAborted);
      incoming.off("close", onAborted);
    };
    const onData = (chunk: Buffer) => {
      if (body.push(chunk)) return;
      cleanup();
      incoming.pause();
      resolve({ kind: "too-large" });
    };
    const onEnd = () => {
      cleanup();
      resolve(body.text());
    };
    const onAborted = () => {
      cleanup();
      resolve({ kind: "aborted" });
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onAborted);
    incoming.on("close", onAborted);
  });
}

/**
 * Serves one request straight from the `node:http` objects: the body is read from the Node stream
 * and a JSON (or empty) answer is written to the socket, so the common exchange never builds a web
 * `Request` body or `Response` (on Node 20 those cost several times the dispatch itself). Only an
 * SSE answer goes back to `@hono/node-server` as a `Response`, to be streamed.
 */
async function serveExchange(
  handler: HttpExchangeHandler,
  request: Request,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<Response> {
  let controller: AbortController | undefined;
  const exchange: HttpExchange = {
    method: request.method,
    url: request.url,
    headers: request.headers,
    get signal() {
      if (controller === undefined) {
        const created = new AbortController();
        controller = created;
        outgoing.once("close", () => {
          if (!outgoing.writableFinished) created.abort(new Error("the client closed the connection"));
        });
      }
      return controller.signal;
    },
    readBody: (maxBodyBytes) => readIncomingText(incoming, maxBodyBytes),
  };
  const answer = await handler(exchange);
  switch (answer.kind) {
    case "response":
      if (answer.response.body === null) return answer.response;
      outgoing.writeHead(answer.response.status, Object.fromEntries(answer.response.headers));
      outgoing.flushHeaders();
      void writeStream(answer.response.body, outgoing);
      return RESPONSE_ALREADY_SENT;
    case "empty":
      outgoing.writeHead(answer.status).end();
      return RESPONSE_ALREADY_SENT;
    case "json":
      outgoing
        .writeHead(answer.status, {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(answer.text),
          ...answer.headers,
        })
        .end(answer.text);
      return RESPONSE_ALREADY_SENT;
  }
}

/**
 * Writes a streamed body (SSE) to the socket as the client reads it. The connection is destroyed
 * when the stream errors, even while a write waits for the socket to drain: that is how a stream
 * that gave up on a client that stopped reading (or whose session ended) lets go of the socket.
 * The client closing the connection cancels the stream. Never rejects.
 */
async function writeStream(body: ReadableStream<Uint8Array>, outgoing: ServerResponse): Promise<void> {
  const reader = body.getReader();
  const closed = new Promise<void>((resolve) => outgoing.once("close", resolve));
  void closed.then(() => reader.cancel(new Error("the client closed the connection")).catch(() => {}));
  // `closed` rejects as soon as the stream errors, even while no read is in progress.
  const errored = reader.closed.then(() => new Promise<never>(() => {}));
  errored.catch(() => {});
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (outgoing.write(value)) continue;
      await Promise.race([new Promise((resolve) => outgoing.once("drain", resolve)), closed, errored]);
      if (outgoing.destroyed) return;
    }
    outgoing.end();
  } catch (error) {
    outgoing.destroy(error instanceof Error ? error : undefined);
  }
}

/** A JSON-RPC error answer built without the handler, for a request it never got to see. */
function jsonRefusal(error: McpError): Response {
  return new Response(JSON.stringify(errorResponse(undefined, error)), {
    status: error.httpStatus,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * The answer when `@hono/node-server` cannot build a `Request` at all: a malformed `Host`
 * (`localhost:99999`), a missing one, or a malformed request target. Like every other refusal it
 * is a JSON-RPC error (-32600, HTTP 400), never the listener's empty `text/plain` 400. Anything
 * else escaping the listener is -32603 (HTTP 500).
 */
function listenerError(error: unknown): Response {
  if (error instanceof Error && error.name === "RequestError") {
    return jsonRefusal(
      McpError.of("INVALID_REQUEST", "Invalid Request: malformed Host header or request target"),
    );
  }
  return jsonRefusal(internalError());
}

async function start(
  handler: HttpExchangeHandler,
  host: string,
  port: number,
  path: string,
): Promise<HttpServerHandle> {
  const listener = getRequestListener(
    (request, env) => {
      const { pathname } = new URL(request.url);
      if (pathname !== path && !isProtectedResourceMetadataPath(pathname)) {
        return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
      }
      // The server below is a node:http (HTTP/1.1) server, so the bindings are always node:http's.
      const { incoming, outgoing } = env as HttpBindings;
      return serveExchange(handler, request, incoming, outgoing);
    },
    { overrideGlobalObjects: false, errorHandler: listenerError },
  );
  const server = createServer((incoming, outgoing) => {
    void listener(incoming, outgoing);
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
      handler.close();
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
