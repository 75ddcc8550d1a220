/**
 * tsmcp/client: `Client` (runs the multi-round-trip loop for you), `ClientSession` (single legs,
 * for a caller who drives the loop), the callback types and the client's local errors. OAuth for
 * protected servers (`OAuthClientProvider`, the grants, token stores) has its own entry,
 * tsmcp/client/auth, so a client that signs in to nothing never loads an OAuth library. Each name has one home: wire types, `McpError`, the
 * local errors' base `TsmcpError` and the `Logger` (`stderrLogger`, `silentLogger`) come from
 * tsmcp/types; the `Transport` interface, `HttpClientTransport` and its auth hook
 * (`HttpClientAuth`) from tsmcp/transport; `StdioClientTransport` from tsmcp/stdio.
 */

export type {
  ElicitationCallback,
  InputCallbacks,
  InputRequestContext,
  ListRootsCallback,
  SamplingCallback,
} from "./callbacks.js";
export { type CallOptions, Client, type ClientOptions } from "./client.js";
export type { ConnectTarget, StdioCommand } from "./connect.js";
export type { SessionEra } from "./era.js";
export {
  ExtensionNotSupportedError,
  InputRequestsPerRoundExceededError,
  InputRequiredRoundsExceededError,
  InvalidServerResponseError,
  MethodNotInEraError,
  ProtocolNegotiationError,
  RequestStateTooLargeError,
  RequestTimeoutError,
  ServerCapabilityMissingError,
  TaskCancelledError,
  UnexpectedInputRequiredError,
  UnknownTaskError,
  UnsupportedInputRequestError,
} from "./errors.js";
export type { ClientExtension } from "./extensions.js";
export {
  DEFAULT_INPUT_REQUEST_CONCURRENCY,
  DEFAULT_INPUT_REQUESTS_MAX_PER_ROUND,
  DEFAULT_INPUT_REQUIRED_MAX_ROUNDS,
  DEFAULT_REQUEST_STATE_MAX_BYTES,
  STATE_ONLY_BACKOFF_INITIAL_MS,
  STATE_ONLY_BACKOFF_MAX_MS,
} from "./input-required.js";
export type { ClientLogger } from "./logger.js";
export {
  DISCOVER_PROBE_TIMEOUT_MS,
  PROTOCOL_VERSION_MODES,
  type ProtocolVersionMode,
} from "./negotiate.js";
export {
  CallParkedError,
  InputUnavailableError,
  isInputUnavailable,
  ParkedCallRefusedError,
  type ParkOptions,
  type ParkRefusal,
  type ResumedCall,
} from "./park.js";
export { ClientSession } from "./session.js";
export {
  type AllowInputRequired,
  type ClientSessionOptions,
  DEFAULT_CLIENT_INFO,
  DEFAULT_CLIENT_REQUEST_TIMEOUT_MS,
  type InputRequiredOptions,
  type ListenNotification,
  type RequestOptions,
  type Subscription,
  type TaskAugmented,
} from "./session-options.js";
export {
  DEFAULT_CLIENT_TASK_POLL_INTERVAL_MS,
  TASK_POLL_BACKOFF_FACTOR,
  TASK_POLL_INTERVAL_HINT_MAX_MS,
  TASK_POLL_INTERVAL_MAX_MS,
  TASK_POLL_INTERVAL_MIN_MS,
} from "./task-poll.js";
export type { TaskListPage } from "./task-wire.js";
export type { TaskStatusListener, ToolTask } from "./tool-task.js";
