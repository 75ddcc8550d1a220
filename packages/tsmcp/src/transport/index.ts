/**
 * tsmcp/transport: the client `Transport` interface, the server-side `Dispatcher` contract and its
 * request environment (`RequestEnvironment`, `AuthInfo`, the legacy session's back-channel), the
 * in-memory transport, and Streamable HTTP as web-standard code (the server handler
 * `createHttpHandler` with its `Authenticate` hook and session options, the client transport
 * `HttpClientTransport` with its `HttpClientAuth` hook and the `AuthorizationRefusedError` of a
 * refused credential, whose `AuthChallenge` type tsmcp/client exports; the header codecs).
 * Runtime-neutral: the `node:http` adapter and the framework adapters are in tsmcp/node, stdio in
 * tsmcp/stdio.
 */
export {
  type AuthInfo,
  type BackChannelRequest,
  type BackChannelRequestOptions,
  type BackChannelSendOptions,
  DEFAULT_BACK_CHANNEL_TIMEOUT_MS,
  type Dispatcher,
  type HeaderReader,
  isDispatcher,
  type LegacyHandshake,
  type LegacySession,
  principalOf,
  type RequestEnvironment,
} from "./dispatcher.js";
export {
  type Authenticate,
  type AuthenticateRequest,
  type AuthenticateResult,
  AuthorizationRefusedError,
  CORS_ALLOWED_METHODS,
  type CorsOptions,
  createHttpHandler,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_CORS_ALLOWED_HEADERS,
  DEFAULT_CORS_EXPOSED_HEADERS,
  DEFAULT_CORS_MAX_AGE_MS,
  DEFAULT_KEEP_ALIVE_MS,
  DEFAULT_LEGACY_MODE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_STREAM_BUFFER_BYTES,
  DEFAULT_OWNER_PING_TIMEOUT_MS,
  DEFAULT_RECONNECT_DELAY_MS,
  DEFAULT_RETRY_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  type DecodedHeaderValue,
  decodeHeaderValue,
  encodeHeaderValue,
  encodeParamValue,
  type HttpAuthChallenge,
  type HttpAuthRequest,
  type HttpClientAuth,
  HttpClientTransport,
  type HttpClientTransportOptions,
  type HttpHandler,
  type HttpHandlerOptions,
  type LegacyMode,
  MAX_AUTH_RETRIES,
  MAX_SERVER_RETRY_MS,
  MCP_HEADERS,
  MIN_SERVER_RETRY_MS,
  mcpNameOf,
  PROTECTED_RESOURCE_METADATA_PATH,
  type ProtectedResourceMetadata,
  paramHeaderName,
  paramHeadersFor,
  protocolVersionOf,
  requestMetadataHeaders,
  resourceMetadataUrl,
  SESSION_ID_HEADER,
  type SessionOptions,
  validateParamHeaders,
  validateRequestHeaders,
  WORKERS_LEGACY_MODE,
} from "./http/index.js";
export { InMemoryTransport } from "./memory.js";
export { type MessageDirection, type MessageObserver, traceTransport } from "./trace.js";
export {
  type IncomingRequestOptions,
  isTransport,
  type ProtocolEra,
  SessionExpiredError,
  type Transport,
  TransportError,
  type TransportRequestOptions,
} from "./transport.js";
