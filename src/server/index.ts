/**
 * tsmcp/server: the low-level `Server` (handlers in, results out), its middleware chain, and the
 * helpers for answering with an `InputRequiredResult`.
 */
export type { AuthInfo, Dispatcher, RequestEnvironment } from "../transport/dispatcher.js";
export type { ProgressUpdate, RequestContext } from "./context.js";
export type { Awaitable, Handler, ServerHandlers } from "./handlers.js";
export {
  elicitationRequest,
  type InputRequiredFields,
  inputRequired,
  rootsRequest,
  samplingRequest,
} from "./input-required.js";
export { type LogFields, type Logger, silentLogger, stderrLogger } from "./logger.js";
export type { Middleware, MiddlewareRequest, Next, WireResult } from "./middleware.js";
export { type CacheOptions, SERVER_PROTOCOL_VERSIONS, Server, type ServerOptions } from "./server.js";
export { type CacheHint, DEFAULT_CACHE_HINT } from "./shaping.js";
export type { ListKind } from "./subscriptions.js";
