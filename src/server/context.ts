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
   *
   * @deprecated Logging is deprecated in MCP 2026-07-28; see README.md#deprecations.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
}

/**
 * The key under which a request context carries its transport environment (internal: the
 * notification sink, the HTTP headers). A context that wraps another, as `MCPServer`'s `Context`
 * does, implements {@link CarriesEnvironment} by reading through to the one it wraps.
 */
export const ENVIRONMENT: unique symbol = Symbol("tsmcp.requestEnvironment");

/** A request context that exposes the transport environment it was built from. */
export interface CarriesEnvironment {
  readonly [ENVIRONMENT]: RequestEnvironment;
}

const LEVEL_RANK = new Map<LoggingLevel, number>(LOGGING_LEVELS.map((level, index) => [level, index]));

/** The context of one validated request; its methods live on the prototype (nothing per request but fields). */
class ServerRequestContext implements RequestContext, CarriesEnvironment {
  readonly method: string;
  readonly requestId: RequestId;
  readonly protocolVersion: string;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly meta: RequestMeta;
  readonly authInfo: AuthInfo | undefined;
  readonly signal: AbortSignal;
  readonly logLevel: LoggingLevel | undefined;
  readonly [ENVIRONMENT]: RequestEnvironment;
  #lastProgress = Number.NEGATIVE_INFINITY;

  constructor(method: string, requestId: RequestId, meta: RequestMeta, env: RequestEnvironment) {
    this.method = method;
    this.requestId = requestId;
    this.protocolVersion = meta[META.protocolVersion];
    this.clientInfo = meta[META.clientInfo];
    this.clientCapabilities = meta[META.clientCapabilities];
    this.meta = meta;
    this.authInfo = env.authInfo;
    this.signal = env.signal;
    this.logLevel = meta[META.logLevel];
    this[ENVIRONMENT] = env;
  }

  sendProgress(update: ProgressUpdate): void {
    const progressToken = this.meta[META.progressToken];
    if (progressToken === undefined) return;
    if (!(update.progress > this.#lastProgress)) {
      throw new RangeError(
        `progress must increase with every update (got ${update.progress} after ${this.#lastProgress})`,
      );
    }
    this.#lastProgress = update.progress;
    this.#send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, ...update } });
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const logLevel = this.logLevel;
    if (logLevel === undefined) return;
    if ((LEVEL_RANK.get(level) ?? -1) < (LEVEL_RANK.get(logLevel) ?? 0)) return;
    this.#send({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: logger === undefined ? { level, data } : { level, logger, data },
    });
  }

  #send(notification: JSONRPCNotification): void {
    const { notify, signal } = this[ENVIRONMENT];
    if (notify !== undefined && !signal.aborted) notify(notification);
  }
}

/**
 * The transport environment a context was built from (internal: notification sink, headers).
 *
 * @throws TypeError for a context tsmcp did not build (one that does not implement
 *   {@link CarriesEnvironment}).
 */
export function environmentOf(context: RequestContext): RequestEnvironment {
  const env = (context as Partial<CarriesEnvironment>)[ENVIRONMENT];
  if (env === undefined) throw new TypeError("not a request context built by tsmcp");
  return env;
}

/** Builds the context of one validated request. */
export function createRequestContext(
  method: string,
  requestId: RequestId,
  meta: RequestMeta,
  env: RequestEnvironment,
): RequestContext {
  return new ServerRequestContext(method, requestId, meta, env);
}
