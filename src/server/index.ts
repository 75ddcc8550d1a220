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
export {
  AesGcmRequestStateCodec,
  REQUEST_STATE_MIN_KEY_BYTES,
  REQUEST_STATE_TOKEN_PREFIX,
  type RequestStateKey,
} from "./state/aes-gcm-codec.js";
export { type RequestStateBoundaryOptions, requestStateBoundary } from "./state/boundary.js";
export { REQUEST_STATE_ENVELOPE_VERSION, REQUEST_STATE_FUTURE_SKEW_MS } from "./state/claims.js";
export type { RequestStateCodec } from "./state/codec.js";
export {
  INVALID_REQUEST_STATE_ERROR,
  InvalidRequestState,
  type InvalidRequestStateWireError,
} from "./state/errors.js";
export {
  DEFAULT_REQUEST_STATE_TTL_MS,
  type PrincipalBinding,
  RequestStateSecurity,
  type RequestStateSecurityCommonOptions,
  type RequestStateSecurityOptions,
} from "./state/policy.js";
export { authenticatedPrincipal } from "./state/principal.js";
export type { ListKind } from "./subscriptions.js";
