/**
 * tsmcp/stdio: both sides of the stdio transport, which needs Node.js (child processes and
 * streams). The client side spawns a server as a child process (`StdioClientTransport`, which
 * `Client.connect({ command, args })` loads on demand); the server side serves a `Server` or an
 * `MCPServer` on this process's stdin and stdout (`serveStdio`), for clients of both eras: the first
 * request decides between the 2026-07-28 core and a 2025-11-25 handshake session.
 * Its timeouts and limits default to the constants exported here; the back-channel's default and the
 * bound on concurrent server requests are shared with HTTP and live in tsmcp/transport
 * (`DEFAULT_BACK_CHANNEL_TIMEOUT_MS`, `DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS`); the logger is
 * tsmcp/types' `Logger` (`stderrLogger` by default). Spec: basic/transports/stdio.
 */

export {
  ServerProcessExitedError,
  StdioClientTransport,
  type StdioClientTransportParams,
  type StdioStderrMode,
} from "../transport/stdio/client.js";
export { DEFAULT_INHERITED_ENV_VARS, defaultInheritedEnvironment } from "../transport/stdio/environment.js";
export {
  DEFAULT_MAX_LINE_BYTES,
  LineDecoder,
  type LineDecoderOptions,
  LineTooLongError,
  serializeMessage,
} from "../transport/stdio/framing.js";
export {
  type ServeStdioOptions,
  type StdioLogger,
  type StdioServerHandle,
  serveStdio,
} from "../transport/stdio/server.js";
export {
  DEFAULT_CLOSE_GRACE_PERIOD_MS,
  DEFAULT_TERMINATE_GRACE_PERIOD_MS,
  type ProcessExit,
} from "../transport/stdio/terminate.js";
