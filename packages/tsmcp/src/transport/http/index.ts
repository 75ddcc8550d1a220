/**
 * Streamable HTTP, both sides, in web-standard code: the server handler, the client transport, and
 * the request-metadata header codec. The `node:http` adapter (`node.ts`) is exported from
 * tsmcp/node instead. Spec: basic/transports/streamable-http.
 */

export {
  DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS,
  DEFAULT_MAX_RECONNECT_ATTEMPTS,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_MAX_SERVICE_UNAVAILABLE_RETRIES,
  DEFAULT_RECONNECT_DELAY_MS,
  type HttpAuthChallenge,
  type HttpAuthRequest,
  type HttpClientAuth,
  HttpClientTransport,
  type HttpClientTransportOptions,
  MAX_AUTH_RETRIES,
  MAX_SERVER_RETRY_MS,
  MIN_SERVER_RETRY_MS,
} from "./client/client.js";
export { AuthorizationRefusedError } from "./client/refusal.js";
export {
  type DecodedHeaderValue,
  decodeHeaderValue,
  encodeHeaderValue,
  MCP_HEADERS,
  mcpNameOf,
  protocolVersionOf,
  requestMetadataHeaders,
} from "./headers.js";
export {
  encodeParamValue,
  paramHeaderName,
  paramHeadersFor,
  validateParamHeaders,
} from "./param-headers.js";
export type { Authenticate, AuthenticateRequest, AuthenticateResult } from "./server/authenticate.js";
export { DEFAULT_MAX_BODY_BYTES } from "./server/body.js";
export {
  CORS_ALLOWED_METHODS,
  type CorsOptions,
  DEFAULT_CORS_ALLOWED_HEADERS,
  DEFAULT_CORS_EXPOSED_HEADERS,
  DEFAULT_CORS_MAX_AGE_MS,
} from "./server/cors.js";
export { DEFAULT_ALLOWED_HOSTS } from "./server/origin-guard.js";
export {
  PROTECTED_RESOURCE_METADATA_PATH,
  type ProtectedResourceMetadata,
  resourceMetadataUrl,
} from "./server/resource-metadata.js";
export {
  createHttpHandler,
  DEFAULT_KEEP_ALIVE_MS,
  type HttpHandler,
  type HttpHandlerOptions,
} from "./server/server-handler.js";
export { DEFAULT_MAX_STREAM_BUFFER_BYTES } from "./server/sse.js";
export { SESSION_ID_HEADER } from "./session/legacy.js";
export {
  DEFAULT_LEGACY_MODE,
  DEFAULT_MAX_QUEUED_EVENTS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_RETRY_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  type LegacyMode,
  type SessionOptions,
  WORKERS_LEGACY_MODE,
} from "./session/options.js";
export { validateRequestHeaders } from "./validate-headers.js";
