/**
 * tsmcp/node: what serves MCP on Node.js. `serve(server, options)` binds the Streamable HTTP
 * handler to a `node:http` server (loopback by default, endpoint `/mcp`); `createNodeListener` is
 * the same handler as a `(req, res)` listener for a server of your own, `mcpExpress` an Express
 * route handler, `mcpFastify` a Fastify plugin. Any `Dispatcher` goes in: a `Server` or an
 * `MCPServer`. Every other runtime, and Hono, uses the web-standard handler from tsmcp/transport
 * (`createHttpHandler`, or `MCPServer.httpHandler()`). Spec: basic/transports/streamable-http.
 */

export { mcpExpress } from "../transport/http/node/express.js";
export {
  type FastifyInstanceLike,
  type FastifyReplyLike,
  type FastifyRequestLike,
  type McpFastifyOptions,
  type McpFastifyPlugin,
  mcpFastify,
} from "../transport/http/node/fastify.js";
export {
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_PATH,
  DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS,
  type HttpServerHandle,
  type ServeOptions,
  serve,
} from "../transport/http/node/node.js";
export { createNodeListener, type NodeListener } from "../transport/http/node/node-listener.js";
export { FilePendingCallStore, type FilePendingCallStoreOptions } from "./file-pending-calls.js";
export { skillsFromDirectory } from "./skills.js";
