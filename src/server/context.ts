/**
 * The request context a handler receives: who asked (protocol version, client info and
 * capabilities, auth), for what (method, id), how to stop (AbortSignal), and the two
 * request-scoped notification channels the 2026-07-28 core keeps: progress and log messages.
 * Spec: basic/index §Request metadata, basic/patterns/progress, server/utilities/logging.
 */
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import {
  type ClientCapabilities,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  type RequestMeta,
} from "../protocol/schema/base.js";
import { META } from "../protocol/versions.js";
import type { AuthInfo, RequestEnvironment } from "../transport/dispatcher.js";

/** A progress update: `progress` must grow with every call. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** Everything a handler knows about the request it serves. */
export interface RequestContext {
  /** The JSON-RPC method. */
  readonly method: string;
  /** The JSON-RPC request id. */
  readonly requestId: RequestId;
  /** The protocol revision of this request (from `_meta`). */
  readonly protocolVersion: string;
  /** What the client says it is; self-reported, for display and logs only. */
  readonly clientInfo: Implementation | undefined;
  /** What the client declared it can do, on this request. */
  readonly clientCapabilities: ClientCapabilities;
  /** The request's `_meta`, as sent. */
  readonly meta: RequestMeta;
  /** The authenticated identity, when an auth layer verified one. */
  readonly authInfo: AuthInfo | undefined;
  /** Aborted when the client cancels or disconnects. */
  readonly signal: AbortSignal;
  /** The log level the request opted into, if any. */
  readonly logLevel: LoggingLevel | undefined;
  /**
   * Sends `notifications/progress` when the request carries a `progressToken`; does nothing
   * otherwise. Throws `RangeError` when `progress` does not grow.
   */
  sendProgress(update: ProgressUpdate): void;
  /**
   * Sends `notifications/message` when the request opted into a log level at or below `level`;
   * does nothing otherwise. Never log secrets or personal data.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
}

const ENVIRONMENTS = new WeakMap<RequestContext, RequestEnvironment>();

/** The transport environment a context was built from (internal: notification sink, headers). */
export function environmentOf(context: RequestContext): RequestEnvironment {
  const env = ENVIRONMENTS.get(context);
  if (env === undefined) throw new TypeError("not a request context built by tsmcp");
  return env;
}

const LEVEL_RANK = new Map<LoggingLevel, number>(LOGGING_LEVELS.map((level, index) => [level, index]));

/** Builds the context of one validated request. */
export function createRequestContext(
  method: string,
  requestId: RequestId,
  meta: RequestMeta,
  env: RequestEnvironment,
): RequestContext {
  const progressToken = meta[META.progressToken];
  const logLevel = meta[META.logLevel];
  const notify = env.notify;
  let lastProgress = Number.NEGATIVE_INFINITY;
  const send = (notification: JSONRPCNotification) => {
    if (notify !== undefined && !env.signal.aborted) notify(notification);
  };
  const context: RequestContext = {
    method,
    requestId,
    protocolVersion: meta[META.protocolVersion],
    clientInfo: meta[META.clientInfo],
    clientCapabilities: meta[META.clientCapabilities],
    meta,
    authInfo: env.authInfo,
    signal: env.signal,
    logLevel,
    sendProgress(update) {
      if (progressToken === undefined) return;
      if (!(update.progress > lastProgress)) {
        throw new RangeError(
          `progress must increase with every update (got ${update.progress} after ${lastProgress})`,
        );
      }
      lastProgress = update.progress;
      send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...update } });
    },
    log(level, data, logger) {
      if (logLevel === undefined) return;
      if ((LEVEL_RANK.get(level) ?? -1) < (LEVEL_RANK.get(logLevel) ?? 0)) return;
      send({
        jsonrpc: "2.0",
        method: "notifications/message",
        params: logger === undefined ? { level, data } : { level, logger, data },
      });
    },
  };
  ENVIRONMENTS.set(context, env);
  return context;
}
