/**
 * The Streamable HTTP server as a plain `node:http` request listener, `(req, res) => void`, for
 * any server or framework that hands over Node's `IncomingMessage` and `ServerResponse` (Express,
 * Connect, Fastify's `raw` objects, `http2`'s compatibility API): the same exchange handler and
 * answer writing as `serve`, without web `Request`/`Response` objects. A body a middleware already
 * parsed (`req.body`) is used instead of the consumed stream; the request's work is aborted when
 * the response closes before it finished (a request's own `close` fires as soon as its body was
 * read, long before an SSE answer ends). Spec: basic/transports/streamable-http.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatcher } from "../../dispatcher.js";
import type { HttpServerAnswer } from "../server/answer.js";
import {
  createExchangeHandler,
  type HttpExchangeHandler,
  type HttpHandlerOptions,
} from "../server/server-handler.js";
import { SSE_HEADERS } from "../server/sse.js";
import {
  closeIfBodyUnread,
  hostOf,
  isWellFormedHost,
  MALFORMED_REQUEST,
  NodeExchange,
  writeAnswer,
  writeStream,
} from "./node-exchange.js";
import type { InFlight } from "./node-shutdown.js";

/**
 * A `node:http` request listener serving MCP, with `close()` to end every handshake-era session.
 * A third argument (Express's `next`) is accepted and never called: every request is answered.
 */
export interface NodeListener {
  (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next?: unknown): void;
  /** Ends every handshake-era session, as `HttpHandler.close` does; the listener keeps answering. */
  close(): void;
}

/**
 * Serves one request: refuses a malformed `Host` (`:authority` on HTTP/2), then runs the exchange and writes its answer.
 * `inFlight` (the `serve` drain) learns how to end an SSE answer early. Never rejects.
 */
export async function answerNodeRequest(
  handler: HttpExchangeHandler,
  exchange: NodeExchange,
  inFlight?: Pick<InFlight, "endStream">,
): Promise<void> {
  const { incoming, outgoing } = exchange;
  if (!isWellFormedHost(hostOf(incoming))) return writeAnswer(outgoing, MALFORMED_REQUEST);
  writeNodeAnswer(await handler(exchange), outgoing, inFlight);
}

/** Writes an answer to `outgoing`; `inFlight` learns how to end a streamed answer early. */
export function writeNodeAnswer(
  answer: HttpServerAnswer,
  outgoing: ServerResponse,
  inFlight?: Pick<InFlight, "endStream">,
): void {
  if (answer.kind === "sse") {
    // A client already gone cancels the stream at once.
    if (!outgoing.destroyed) {
      const head = answer.headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...answer.headers };
      outgoing.writeHead(200, head);
    }
    answer.stream.pipeTo(outgoing);
    // The headers left with the events the stream held (an answer's priming event, whose id a
    // client resumes from) in one write, so a process that dies now has sent both or neither;
    // when it held none, they leave now (after a write, this sends nothing more).
    if (!outgoing.destroyed) outgoing.flushHeaders();
    if (inFlight !== undefined) inFlight.endStream = () => answer.stream.close();
    return;
  }
  if (outgoing.destroyed) return;
  if (answer.kind !== "response") {
    writeAnswer(outgoing, answer);
    return;
  }
  const { response } = answer;
  if (response.body === null) {
    closeIfBodyUnread(outgoing);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers)).end();
    return;
  }
  const endStream = writeStream(response.status, response.headers, response.body, outgoing);
  if (inFlight !== undefined) inFlight.endStream = endStream;
}

/**
 * Builds a `node:http` request listener serving `dispatcher` (a `Server` or `MCPServer`) over
 * Streamable HTTP, for a server you create yourself or a framework that hands over Node's request
 * and response:
 *
 * ```ts
 * const listener = createNodeListener(mcp);
 * createServer(listener).listen(3000, "127.0.0.1");   // every path is the endpoint
 * ```
 *
 * It answers every request it is given as `createHttpHandler` (tsmcp/transport) does (route by path before it,
 * if needed), plus -32600 (HTTP 400) for a missing or malformed `Host`. On `node:http2`'s
 * compatibility API (`http2.createServer(listener)`, or `createSecureServer` with `allowHTTP1`) the
 * authority is read from `:authority` when there is no `Host`, pseudo-headers are left out of the
 * headers a handler sees, and no `Connection` header is written. When something already read
 * the body, a `req.body` it left is used: a string or bytes are checked against `maxBodyBytes` and
 * parsed as usual; a parsed value is served when its declared `Content-Length` and its length as
 * JSON text (strings counted one per UTF-16 code unit, unescaped) are within `maxBodyBytes` (else
 * 413) and it nests at most `maxJsonDepth` deep (else -32600), checked by one walk that stops at
 * the first limit passed, within about `maxBodyBytes` steps even when sub-objects are shared (the
 * parser's own size limit bounded what it read; its errors, such as malformed JSON, are answered
 * by the framework). A body read with nothing left in
 * `req.body` gets 500 (-32603) naming the cause. The request's `AbortSignal` aborts when the
 * response closes before it finished. Server timeouts, connection caps and the graceful drain are
 * the server's: use `serve` to have them set.
 *
 * @throws as `createHttpHandler` (tsmcp/transport) does, when built.
 */
export function createNodeListener(dispatcher: Dispatcher, options: HttpHandlerOptions = {}): NodeListener {
  return nodeListenerOf(createExchangeHandler(dispatcher, options, "createNodeListener"));
}

/** The listener over a built exchange handler (shared by the framework adapters). */
export function nodeListenerOf(handler: HttpExchangeHandler): NodeListener {
  const listener = (req: IncomingMessage & { body?: unknown }, res: ServerResponse): void => {
    answerNodeRequest(handler, new NodeExchange(req, res, req.body)).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : undefined);
    });
  };
  return Object.assign(listener, { close: () => handler.close() });
}
