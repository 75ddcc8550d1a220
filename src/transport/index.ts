/**
 * tsmcp/transport: the client `Transport` interface, the server-side `Dispatcher` contract, and
 * the in-memory, stdio and Streamable HTTP implementations.
 */
export * from "./dispatcher.js";
export * from "./http/index.js";
export * from "./memory.js";
export {
  ServerProcessExitedError,
  StdioClientTransport,
  type StdioClientTransportParams,
  type StdioStderrMode,
} from "./stdio/client.js";
export { DEFAULT_INHERITED_ENV_VARS, defaultInheritedEnvironment } from "./stdio/environment.js";
export {
  DEFAULT_MAX_LINE_BYTES,
  LineDecoder,
  type LineDecoderOptions,
  LineTooLongError,
  serializeMessage,
} from "./stdio/framing.js";
export {
  type ServeStdioOptions,
  type StdioLogFields,
  type StdioLogger,
  type StdioServerHandle,
  serveStdio,
  stdioStderrLogger,
} from "./stdio/server.js";
export {
  DEFAULT_CLOSE_GRACE_PERIOD_MS,
  DEFAULT_TERMINATE_GRACE_PERIOD_MS,
  type ProcessExit,
} from "./stdio/terminate.js";
export * from "./transport.js";
