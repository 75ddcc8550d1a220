/**
 * The one base of tsmcp's local errors, `TsmcpError`, and the table of their machine-readable
 * codes. A local error happens on this side of the wire (a refused token, a timeout, a broken
 * pipe) and never travels as a JSON-RPC error; the wire error is `McpError`, whose `code` is the
 * numeric JSON-RPC code of `ERRORS`. Branch on `error.code`, which is stable across releases and
 * bundles, rather than on message text or `instanceof` across two copies of the package.
 */

/**
 * Every local error's `code`, by the class that carries it. The codes are stable: a code is never
 * reused for another failure, and a class keeps its code.
 *
 * | code | class | entry | raised when |
 * | --- | --- | --- | --- |
 * | `ERR_INVALID_TOKEN` | `InvalidTokenError` | `tsmcp/server` | a token verifier refuses an access token |
 * | `ERR_INVALID_REQUEST_STATE` | `InvalidRequestState` | `tsmcp/server` | a `requestState` fails verification (its `reason` says why, log-only) |
 * | `ERR_INVALID_HANDLER_RESULT` | `InvalidHandlerResultError` | `tsmcp/server` | a handler's result cannot be sent |
 * | `ERR_RESOLVER` | `ResolverError` | `tsmcp/server` | a resolver cannot produce its value (declined, malformed answer) |
 * | `ERR_NONDETERMINISTIC_HANDLER` | `NonDeterministicHandlerError` | `tsmcp/server` | a replayed handler's `ctx.ask` / `ctx.once` steps differ from the ones recorded |
 * | `ERR_REPLAY_CACHE_FULL` | `ReplayCacheFullError` | `tsmcp/server` | a `MemoryReplayCache` holds its maximum of live entries |
 * | `ERR_STATE_UNAVAILABLE` | `StateUnavailableError` | `tsmcp/state` | a shared state engine (Redis, say) cannot be reached or fails |
 * | `ERR_TRANSPORT` | `TransportError` | `tsmcp/transport` | a transport cannot deliver a request or its response |
 * | `ERR_SESSION_EXPIRED` | `SessionExpiredError` | `tsmcp/transport` | the 2025-era session is gone (HTTP 404, stdio process exited) |
 * | `ERR_AUTHORIZATION_REFUSED` | `AuthorizationRefusedError` | `tsmcp/transport` | the server answers 401 or 403 with a challenge (its `challenge` names the `error` and `errorDescription`) |
 * | `ERR_SERVER_PROCESS_EXITED` | `ServerProcessExitedError` | `tsmcp/stdio` | the stdio server process ended (or never started) |
 * | `ERR_LINE_TOO_LONG` | `LineTooLongError` | `tsmcp/stdio` | a stdio line exceeds the decoder's limit |
 * | `ERR_OAUTH` | `OAuthError` | `tsmcp/client/auth` | authorization with the authorization server fails (its `reason` says which step) |
 * | `ERR_OAUTH_RESPONSE_TOO_LARGE` | `OAuthResponseTooLargeError` | `tsmcp/client/auth` | a metadata document, registration or token response exceeds `maxResponseBytes` |
 * | `ERR_INPUT_REQUIRED_ROUNDS_EXCEEDED` | `InputRequiredRoundsExceededError` | `tsmcp/client` | the server keeps answering `input_required` past the round cap |
 * | `ERR_INPUT_REQUESTS_PER_ROUND_EXCEEDED` | `InputRequestsPerRoundExceededError` | `tsmcp/client` | one round carries more `inputRequests` than the cap |
 * | `ERR_REQUEST_STATE_TOO_LARGE` | `RequestStateTooLargeError` | `tsmcp/client` | a server's `requestState` exceeds the client's `requestStateMaxBytes` |
 * | `ERR_UNEXPECTED_INPUT_REQUIRED` | `UnexpectedInputRequiredError` | `tsmcp/client` | a session call gets an `InputRequiredResult` it did not allow |
 * | `ERR_UNSUPPORTED_INPUT_REQUEST` | `UnsupportedInputRequestError` | `tsmcp/client` | the server asks for input this client cannot give |
 * | `ERR_INVALID_SERVER_RESPONSE` | `InvalidServerResponseError` | `tsmcp/client` | the server's answer does not match the protocol |
 * | `ERR_REQUEST_TIMEOUT` | `RequestTimeoutError` | `tsmcp/client` | a request gets no answer within its `timeoutMs` |
 * | `ERR_PROTOCOL_NEGOTIATION` | `ProtocolNegotiationError` | `tsmcp/client` | client and server share no protocol revision |
 * | `ERR_METHOD_NOT_IN_ERA` | `MethodNotInEraError` | `tsmcp/client` | a method absent from the negotiated revision is called |
 * | `ERR_SERVER_CAPABILITY_MISSING` | `ServerCapabilityMissingError` | `tsmcp/client` | a call needs a capability the server did not declare |
 * | `ERR_EXTENSION_NOT_SUPPORTED` | `ExtensionNotSupportedError` | `tsmcp/client` | an extension's method is called on a server that did not advertise the extension |
 * | `ERR_UNKNOWN_TASK` | `UnknownTaskError` | `tsmcp/client` | the server knows no task by that id (never created, expired, or another caller's) |
 * | `ERR_INPUT_UNAVAILABLE` | `InputUnavailableError` | `tsmcp/client` | a callback says nobody can answer an input request now (the call may be parked) |
 * | `ERR_CALL_PARKED` | `CallParkedError` | `tsmcp/client` | a call with the `park` option was parked: its `ticket` resumes it |
 * | `ERR_PARKED_CALL_REFUSED` | `ParkedCallRefusedError` | `tsmcp/client` | a parked call cannot be resumed (its `reason`: unknown, resumed, expired) or parked |
 * | `ERR_TASK_CANCELLED` | `TaskCancelledError` | `tsmcp/client` | a task whose result is awaited ends `cancelled` |
 * | `ERR_SKILL_VERIFICATION` | `SkillVerificationError` | `tsmcp/skills` | a skill's file fails verification against the entry held (size, digest, front matter, not in the manifest) |
 */
export const ERROR_CODES = Object.freeze({
  InvalidTokenError: "ERR_INVALID_TOKEN",
  InvalidRequestState: "ERR_INVALID_REQUEST_STATE",
  InvalidHandlerResultError: "ERR_INVALID_HANDLER_RESULT",
  ResolverError: "ERR_RESOLVER",
  NonDeterministicHandlerError: "ERR_NONDETERMINISTIC_HANDLER",
  ReplayCacheFullError: "ERR_REPLAY_CACHE_FULL",
  StateUnavailableError: "ERR_STATE_UNAVAILABLE",
  TransportError: "ERR_TRANSPORT",
  SessionExpiredError: "ERR_SESSION_EXPIRED",
  AuthorizationRefusedError: "ERR_AUTHORIZATION_REFUSED",
  ServerProcessExitedError: "ERR_SERVER_PROCESS_EXITED",
  LineTooLongError: "ERR_LINE_TOO_LONG",
  OAuthError: "ERR_OAUTH",
  OAuthResponseTooLargeError: "ERR_OAUTH_RESPONSE_TOO_LARGE",
  InputRequiredRoundsExceededError: "ERR_INPUT_REQUIRED_ROUNDS_EXCEEDED",
  InputRequestsPerRoundExceededError: "ERR_INPUT_REQUESTS_PER_ROUND_EXCEEDED",
  RequestStateTooLargeError: "ERR_REQUEST_STATE_TOO_LARGE",
  UnexpectedInputRequiredError: "ERR_UNEXPECTED_INPUT_REQUIRED",
  UnsupportedInputRequestError: "ERR_UNSUPPORTED_INPUT_REQUEST",
  InvalidServerResponseError: "ERR_INVALID_SERVER_RESPONSE",
  RequestTimeoutError: "ERR_REQUEST_TIMEOUT",
  ProtocolNegotiationError: "ERR_PROTOCOL_NEGOTIATION",
  MethodNotInEraError: "ERR_METHOD_NOT_IN_ERA",
  ServerCapabilityMissingError: "ERR_SERVER_CAPABILITY_MISSING",
  ExtensionNotSupportedError: "ERR_EXTENSION_NOT_SUPPORTED",
  UnknownTaskError: "ERR_UNKNOWN_TASK",
  TaskCancelledError: "ERR_TASK_CANCELLED",
  InputUnavailableError: "ERR_INPUT_UNAVAILABLE",
  CallParkedError: "ERR_CALL_PARKED",
  ParkedCallRefusedError: "ERR_PARKED_CALL_REFUSED",
  SkillVerificationError: "ERR_SKILL_VERIFICATION",
  UiResourceError: "ERR_UI_RESOURCE",
} as const);

/** The code of one of tsmcp's local errors (a value of {@link ERROR_CODES}). */
export type TsmcpErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * The base of every local error tsmcp throws: `code` is a stable machine-readable string (see
 * {@link ERROR_CODES} for the full table), `name` the class's name, `message` for people. Each
 * subclass fixes its code; this class is not constructed directly. Not a wire error: what a server
 * answers with, and what a client receives from one, is an `McpError` (numeric JSON-RPC `code`).
 *
 * @example
 * ```ts
 * try { await client.callTool("deploy", args); }
 * catch (error) {
 *   if (isTsmcpError(error) && error.code === ERROR_CODES.RequestTimeoutError) retryLater();
 * }
 * ```
 */
export abstract class TsmcpError extends Error {
  /**
   * The stable code of this failure. Typed as a string so that packages built on tsmcp (the
   * `tsmcp` command) may extend this class with codes of their own; tsmcp's own are
   * {@link TsmcpErrorCode}.
   */
  abstract readonly code: string;
}

/**
 * True for a tsmcp local error, also one thrown by another copy of the package (another bundle):
 * an `Error` whose `code` is one of {@link ERROR_CODES}.
 */
export function isTsmcpError(value: unknown): value is TsmcpError & { readonly code: TsmcpErrorCode } {
  if (!(value instanceof Error)) return false;
  const code: unknown = (value as { code?: unknown }).code;
  return typeof code === "string" && CODES.has(code);
}

const CODES: ReadonlySet<string> = new Set(Object.values(ERROR_CODES));
