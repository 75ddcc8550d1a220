/**
 * What a `ClientSession` and each of its requests can be given: the session's options, per-request
 * options, the retry fields of a carrier call, and the shape of an open `subscriptions/listen`
 * stream, with the session's defaults. Spec: basic/index §Request metadata, basic/patterns/mrtr
 * §Client obligations, basic/patterns/subscriptions.
 */
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../protocol/schema/base.js";
import type { InputResponses } from "../protocol/schema/input.js";
import type {
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  SubscriptionFilter,
} from "../protocol/schema/methods.js";
import type { ClientLogger, stderrClientLogger } from "./logger.js";

/** The default per-request timeout: 60 000 ms. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** The `clientInfo` sent when none is configured. */
export const DEFAULT_CLIENT_INFO: Readonly<Implementation> = Object.freeze({
  name: "tsmcp-client",
  version: "0.1.0",
});

/** Options of a `ClientSession`. */
export interface ClientSessionOptions {
  /** Sent as `io.modelcontextprotocol/clientInfo` on every request; `false` sends none. */
  clientInfo?: Implementation | false;
  /** Sent as `io.modelcontextprotocol/clientCapabilities` on every request. Default `{}`. */
  capabilities?: ClientCapabilities;
  /** The protocol revision stamped on requests. Default "2026-07-28". */
  protocolVersion?: string;
  /** Per-request timeout in milliseconds; default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Apply the `x-mcp-header` rules (spec: basic/transports §Streamable HTTP): drop tools whose
   * annotations break them from `listTools`, and mirror annotated arguments into `Mcp-Param-*`
   * headers on `callTool`. Default: the transport's `sendsHttpHeaders` (true for
   * `HttpClientTransport` and any wrapper that declares it, false elsewhere).
   */
  mirrorParamHeaders?: boolean;
  /** Receives the session's warnings (a dropped tool, ...). Default: {@link stderrClientLogger}. */
  logger?: ClientLogger;
}

/** Options of one request. */
export interface RequestOptions {
  /** Cancels the request (HTTP: closes the stream; stdio: sends `notifications/cancelled`). */
  signal?: AbortSignal;
  /** Overrides the session's timeout for this request, in milliseconds. */
  timeoutMs?: number;
  /** Opts into progress: a `progressToken` is sent and each `notifications/progress` reported here. */
  onProgress?: (progress: ProgressNotificationParams) => void;
  /**
   * Opts into log messages at or above this level (`io.modelcontextprotocol/logLevel`).
   *
   * @deprecated Logging is deprecated in MCP 2026-07-28 (SEP-2577, SEP-2596) and may be removed in
   *   the first revision on or after 2027-07-28; log to stderr or OpenTelemetry instead.
   */
  logLevel?: LoggingLevel;
  /**
   * Receives the request's `notifications/message` when `logLevel` is set.
   *
   * @deprecated Logging is deprecated in MCP 2026-07-28 (SEP-2577, SEP-2596) and may be removed in
   *   the first revision on or after 2027-07-28; log to stderr or OpenTelemetry instead.
   */
  onLog?: (message: LoggingMessageNotificationParams) => void;
  /** Extra `_meta` entries (reserved keys are always the session's). */
  meta?: Record<string, unknown>;
  /** Extra HTTP headers for this request (Streamable HTTP only). */
  headers?: Record<string, string>;
}

/** The retry fields of a carrier call, for a caller who drives the loop. */
export interface InputRequiredOptions extends RequestOptions {
  /** Answers to the previous round's `inputRequests`, under the same keys. */
  inputResponses?: InputResponses;
  /** The previous round's `requestState`, echoed byte for byte. */
  requestState?: string;
}

/** With `allowInputRequired: true` a carrier call returns the `InputRequiredResult` instead of throwing. */
export interface AllowInputRequired {
  /** Return an `InputRequiredResult` to the caller instead of throwing `UnexpectedInputRequiredError`. */
  allowInputRequired: true;
}

/** A notification on a `subscriptions/listen` stream. */
export type ListenNotification = JSONRPCNotification;

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** The subscription id (the listen request's id). */
  readonly id: RequestId;
  /** Resolves with the filter the server honours (its acknowledgement). */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /** Settles when the stream ends: resolves when the server ends it or it is closed here. */
  readonly closed: Promise<void>;
  /** Ends the subscription. */
  close(): void;
}
