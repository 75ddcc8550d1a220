/**
 * What a `ClientSession` and each of its requests can be given: the session's options, per-request
 * options, the retry fields of a carrier call, and the shape of an open `subscriptions/listen`
 * stream, with the session's defaults. Spec: basic/index §Request metadata, basic/patterns/mrtr
 * §Client Requirements (Basic Workflow), basic/patterns/subscriptions.
 */
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import type { stderrLogger } from "../protocol/logger.js";
import { checkLogger } from "../protocol/logger.js";
import {
  checkBoolean,
  checkFunction,
  checkObject,
  checkOptionsObject,
  checkString,
  isObject,
  optionTypeError,
} from "../protocol/options.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../protocol/schema/base.js";
import type { InputResponses } from "../protocol/schema/input.js";
import type {
  LoggingMessageNotificationParams,
  ProgressNotificationParams,
  SubscriptionFilter,
} from "../protocol/schema/methods.js";
import { checkTelemetryOption, type TelemetryOption } from "../telemetry/options.js";
import type { ClientLogger } from "./logger.js";

/**
 * Milliseconds a client request waits for its response by default (`timeoutMs` of `Client` and
 * `ClientSession`): 60 000 ms. Not the Node server's `requestTimeoutMs`, which bounds receiving a
 * request (`DEFAULT_REQUEST_RECEIVE_TIMEOUT_MS` of tsmcp/node).
 */
export const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 60_000;

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
  /** Per-request timeout in milliseconds; default {@link DEFAULT_CLIENT_REQUEST_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Apply the `x-mcp-header` rules (spec: basic/transports §Streamable HTTP): drop tools whose
   * annotations break them from `listTools`, and mirror annotated arguments into `Mcp-Param-*`
   * headers on `callTool`. Default: the transport's `sendsHttpHeaders` (true for
   * `HttpClientTransport` and any wrapper that declares it, false elsewhere).
   */
  mirrorParamHeaders?: boolean;
  /** Receives the session's warnings (a dropped tool, ...). Default: {@link stderrLogger}. */
  logger?: ClientLogger;
  /**
   * Records OpenTelemetry spans and metrics through `@opentelemetry/api` (an optional peer
   * dependency): `true` (default) through the global providers when the API is present, an object
   * for given providers, `false` for nothing. Without the API, or with no provider registered,
   * nothing is recorded. See docs/telemetry.md. Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
   */
  telemetry?: TelemetryOption;
  /**
   * Receives every `notifications/message` no request's own `onLog` takes: on a 2025-era session
   * the messages `logging/setLevel` asked for, wherever they arrive (stdio, the GET stream).
   * Spec (2025-11-25): server/utilities/logging.
   */
  onLog?: (message: LoggingMessageNotificationParams) => void;
  /**
   * Receives the server's other notifications that belong to no request's `onNotification`
   * (list changes, `notifications/resources/updated`, `notifications/elicitation/complete`, ...).
   */
  onNotification?: (notification: JSONRPCNotification) => void;
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
   * @deprecated Logging is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
   */
  logLevel?: LoggingLevel;
  /**
   * Receives the request's `notifications/message` when `logLevel` is set.
   *
   * @deprecated Logging is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
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

/**
 * With `task`, a `tools/call` may be answered with a task: at 2026-07-28 the request declares the
 * tasks extension (`io.modelcontextprotocol/tasks`) in its per-request capabilities and the server
 * decides; on a 2025-11-25 session it carries `params.task` (with `ttl` when `ttlMs` is given).
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Capability
 * Negotiation); (2025-11-25) basic/utilities/tasks §Creating Tasks.
 */
export interface TaskAugmented {
  /**
   * `true`, or `{ ttlMs }`: the lifetime asked for, in milliseconds (sent as `ttl` on a 2025-11-25
   * session; the extension has no such request field, so it is not sent at 2026-07-28). The
   * server may choose another.
   */
  task: true | { ttlMs?: number };
}

/**
 * A notification a listener receives: `notifications/<kind>/list_changed` or
 * `notifications/resources/updated` (at 2026-07-28 tagged with the subscription id in `_meta`).
 */
export type ListenNotification = JSONRPCNotification;

/**
 * An open listener: a `subscriptions/listen` stream at 2026-07-28, `resources/subscribe` on a
 * 2025-era session. Neither promise ever causes an unhandled rejection; each still rejects for a
 * caller who awaits it. Spec: basic/patterns/subscriptions; (2025-11-25) server/resources §Subscriptions.
 */
export interface Subscription {
  /**
   * The subscription id: the listen request's id at 2026-07-28; on a 2025-era session a number
   * local to this client (nothing is sent under it).
   */
  readonly id: RequestId;
  /**
   * Resolves with the filter the server honours (its acknowledgement; on a 2025-era session, what
   * its capabilities offer, once the subscriptions are answered and the notifications can arrive).
   * Rejects with the server's error (McpError), a transport failure, or an `Error` when closed first.
   */
  readonly acknowledged: Promise<SubscriptionFilter>;
  /**
   * Settles when the listener ends: resolves when the server ends it, it is closed here or the
   * client closes; rejects when the server refused it or the connection failed under it.
   */
  readonly closed: Promise<void>;
  /** Ends the listener (on a 2025-era session, unsubscribing the URIs no other listener watches). */
  close(): void;
}

/**
 * Checks the options a `Client` and a `ClientSession` share: `clientInfo` (an object with string
 * `name` and `version`; `false` too when `allowNoClientInfo`), `capabilities` (an object),
 * `timeoutMs` (a positive number of milliseconds) and `logger` (with `warn`).
 *
 * @throws TypeError naming the option (`ClientSession option "clientInfo" must be ...`);
 *   RangeError for a `timeoutMs` that is not positive and finite.
 */
export function checkCommonClientOptions(
  owner: string,
  options: Record<string, unknown>,
  allowNoClientInfo: boolean,
): void {
  const { clientInfo, capabilities, timeoutMs, logger, telemetry } = options;
  if (clientInfo !== undefined && !(allowNoClientInfo && clientInfo === false)) {
    const expected = `an object with string name and version${allowNoClientInfo ? ", or false" : ""}`;
    if (
      !isObject(clientInfo) ||
      typeof clientInfo.name !== "string" ||
      typeof clientInfo.version !== "string"
    ) {
      throw optionTypeError(owner, "clientInfo", expected);
    }
  }
  checkObject(owner, "capabilities", capabilities);
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== "number") throw optionTypeError(owner, "timeoutMs", "a number of milliseconds");
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new RangeError(
        `${owner} option "timeoutMs" must be a positive number of milliseconds, got ${timeoutMs}`,
      );
    }
  }
  if (logger !== undefined) checkLogger(logger, owner, "logger", ["warn"]);
  checkTelemetryOption(owner, telemetry);
}

/**
 * Checks every option of a `ClientSession`.
 *
 * @throws TypeError / RangeError naming the option, as {@link checkCommonClientOptions}; TypeError
 *   for a `protocolVersion` that is not a string or a `mirrorParamHeaders` that is not a boolean.
 */
export function checkSessionOptions(options: ClientSessionOptions | undefined): ClientSessionOptions {
  const checked = checkOptionsObject("ClientSession", options);
  checkCommonClientOptions("ClientSession", checked as Record<string, unknown>, true);
  checkString("ClientSession", "protocolVersion", checked.protocolVersion);
  checkBoolean("ClientSession", "mirrorParamHeaders", checked.mirrorParamHeaders);
  checkFunction("ClientSession", "onLog", checked.onLog);
  checkFunction("ClientSession", "onNotification", checked.onNotification);
  return checked;
}
