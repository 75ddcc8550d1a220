/**
 * The Streamable HTTP server as an Express route handler: the `node:http` listener with Express's
 * signature, so `app.all("/mcp", mcpExpress(mcp))` serves MCP on one path with every HTTP rule of
 * `serve`. A body `express.json()` (or `express.text()`, `express.raw()`) already read is used as
 * it left it. Spec: basic/transports/streamable-http.
 */
import type { Dispatcher } from "../../dispatcher.js";
import { createExchangeHandler, type HttpHandlerOptions } from "../server/server-handler.js";
import { type NodeListener, nodeListenerOf } from "./node-listener.js";

/**
 * Builds an Express route handler serving `dispatcher` (a `Server` or `MCPServer`):
 *
 * ```ts
 * const app = express();
 * app.all("/mcp", mcpExpress(mcp));   // POST, plus GET and DELETE for handshake-era sessions
 * ```
 *
 * Mount it with `app.all` (or on each of POST, GET, DELETE, and OPTIONS when `cors` is on): it
 * answers every request it is given, the wrong methods with 405. Every request is answered (it
 * never calls `next`). With `express.json()` in front, the parsed `req.body` is served when its
 * length as JSON text is within `maxBodyBytes` (else 413; measured on the value, since the
 * `Content-Length` is absent for a chunked upload and the compressed size for a gzip one; strings
 * count one per UTF-16 code unit, unescaped, so non-ASCII text may pass up to 3 times the limit in
 * bytes) and it nests at most `maxJsonDepth` deep (else -32600 with its id). The parser's own
 * `limit` (100 kB by default) bounds what it reads (after inflating), and its errors (malformed
 * JSON, a body over its limit) are answered by Express's error handler, not as JSON-RPC. Without a body parser,
 * every limit and refusal is the handler's. The request's `AbortSignal` aborts when the response
 * closes before it finished; SSE answers stream as they are written. `handler.close()` ends every
 * handshake-era session. Options and answers as `createHttpHandler` (tsmcp/transport), plus -32600 (HTTP 400)
 * for a missing or malformed `Host`.
 *
 * @throws as `createHttpHandler` (tsmcp/transport) does, when built.
 */
export function mcpExpress(dispatcher: Dispatcher, options: HttpHandlerOptions = {}): NodeListener {
  return nodeListenerOf(createExchangeHandler(dispatcher, options, "mcpExpress"));
}
