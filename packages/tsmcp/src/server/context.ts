/**
 * The request context a handler receives: who asked (protocol version, client info and
 * capabilities, auth), for what (method, id), how to stop (AbortSignal), the two request-scoped
 * notification channels (progress and log messages) and, on a 2025-era session, the server ->
 * client requests of the back-channel. At 2026-07-28 who asked comes from the request's `_meta`; on
 * a 2025-era session from what the client declared at `initialize`.
 * Spec: basic/index §Request metadata, basic/patterns/progress, server/utilities/logging.
 */
import * as z from "zod";
import type { JSONRPCNotification, RequestId } from "../protocol/jsonrpc.js";
import {
  type ClientCapabilities,
  type Implementation,
  LOGGING_LEVELS,
  type LoggingLevel,
  type RequestMeta,
} from "../protocol/schema/base.js";
import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  CreateMessageResultSchema,
  type ElicitRequestParams,
  type ElicitResult,
  ElicitResultSchema,
  type ListRootsResult,
  ListRootsResultSchema,
} from "../protocol/schema/input.js";
import { META } from "../protocol/versions.js";
import type {
  AuthInfo,
  BackChannelRequestOptions,
  LegacySession,
  RequestEnvironment,
} from "../transport/dispatcher.js";
import { requestOverBackChannel } from "./back-channel.js";
import { type ContextKey, findValue, getValue } from "./context-key.js";
import { notifyElicitationComplete } from "./elicitation-complete.js";
import { FORM_ELICITATION, ROOTS, SAMPLING, SAMPLING_TOOLS, URL_ELICITATION } from "./required-capability.js";

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
  /**
   * The authenticated identity, when an auth layer verified one (on Streamable HTTP, the handler's
   * `authenticate` hook, e.g. `bearerAuth`); undefined otherwise. Spec: basic/authorization.
   */
  readonly auth: AuthInfo | undefined;
  /** Aborted when the client cancels or disconnects. */
  readonly signal: AbortSignal;
  /**
   * The log level the request opted into, if any: its `_meta` at 2026-07-28, the session's
   * `logging/setLevel` on a 2025-era session.
   */
  readonly logLevel: LoggingLevel | undefined;
  /** The 2025-era session this request belongs to; undefined on the stateless 2026-07-28 wire. */
  readonly session: LegacySession | undefined;
  /**
   * Sends `notifications/progress` when the request carries a `progressToken`; does nothing
   * otherwise. Throws `RangeError` when `progress` does not grow.
   */
  sendProgress(update: ProgressUpdate): void;
  /**
   * Sends `notifications/message` when the request opted into a log level at or below `level`;
   * does nothing otherwise. Never log secrets or personal data.
   *
   * @deprecated Logging is deprecated in MCP 2026-07-28; see docs/eras.md#deprecations.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void;
  /**
   * Asks the user through the client (`elicitation/create`, form or URL mode per `params.mode`)
   * over a 2025-era session's back-channel, and resolves with the validated answer. The request's
   * own `signal` cancels it, as does `options.signal`. Spec (2025-11-25): client/elicitation.
   *
   * @throws McpError -32600 "Cannot send 'elicitation/create': this transport context has no
   *   back-channel for server-initiated requests." at 2026-07-28 (return an `InputRequiredResult`
   *   there, or use a resolver); -32021 with `data.requiredCapabilities` before sending when the
   *   client did not declare form (or URL) elicitation; the client's error; -32001 on timeout;
   *   -32603 for a result that does not validate.
   */
  elicit(params: ElicitRequestParams, options?: BackChannelRequestOptions): Promise<ElicitResult>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`); needs `sampling`, and
   * `sampling.tools` when `tools` or `toolChoice` is given. Throws as {@link RequestContext.elicit}.
   * Spec (2025-11-25): client/sampling.
   */
  createMessage(
    params: CreateMessageRequestParams,
    options?: BackChannelRequestOptions,
  ): Promise<CreateMessageResult>;
  /**
   * Asks which roots the client exposes (`roots/list`); needs `roots`. Throws as
   * {@link RequestContext.elicit}. Spec (2025-11-25): client/roots.
   */
  listRoots(options?: ListRootsOptions): Promise<ListRootsResult>;
  /**
   * Pings the client (`ping`); resolves when it answers. Needs no capability; throws as
   * {@link RequestContext.elicit} (but never -32021). Spec (2025-11-25): basic/utilities/ping.
   */
  ping(options?: BackChannelRequestOptions): Promise<void>;
  /**
   * Tells the client that the URL-mode elicitation `elicitationId` finished
   * (`notifications/elicitation/complete`, on the session's standalone stream). Usually sent later,
   * outside the handler: keep `ctx.session` and call `elicitationComplete(session, id)` then.
   * Spec (2025-11-25): client/elicitation §URL Mode Elicitation.
   *
   * @throws McpError -32600 on the 2026-07-28 wire (no session); TypeError for an empty id.
   */
  notifyElicitationComplete(elicitationId: string): void;
  /**
   * Closes this request's SSE stream now, before the response, so the client reconnects with
   * `Last-Event-ID` and gets the rest (2025-11-25 SSE polling); does nothing where the transport
   * cannot resume a stream. Spec (2025-11-25): basic/transports §Resumability and Redelivery.
   */
  closeSseStream(): void;
  /**
   * The value a middleware provided for this request under `key` (`next(request.with(key, value))`),
   * typed by the key; the newest one when several did.
   *
   * @throws McpError -32603 "Internal error" when none did (the logged cause names the key).
   */
  get<T>(key: ContextKey<T>): T;
  /** The value a middleware provided under `key`, or `undefined` when none did. */
  find<T>(key: ContextKey<T>): T | undefined;
}

/**
 * The key under which a request context carries its transport environment (internal: the
 * notification sink, the HTTP headers). A context that wraps another, as `MCPServer`'s `Context`
 * does, implements {@link CarriesEnvironment} by reading through to the one it wraps.
 */
export const ENVIRONMENT: unique symbol = Symbol("tsmcp.requestEnvironment");

/** Options of `listRoots`: the back-channel request's, and the `_meta` its params carry. */
export interface ListRootsOptions extends BackChannelRequestOptions {
  /** Sent as the request's `params._meta` (a `roots/list` has no other params). */
  _meta?: Record<string, unknown>;
}

/** A request context that exposes the transport environment it was built from. */
export interface CarriesEnvironment {
  readonly [ENVIRONMENT]: RequestEnvironment;
}

/** `ping` answers an empty result; anything object-shaped is accepted. */
const PING_RESULT = z.looseObject({});

const LEVEL_RANK = new Map<LoggingLevel, number>(LOGGING_LEVELS.map((level, index) => [level, index]));

/** The context of one validated request; its methods live on the prototype (nothing per request but fields). */
class ServerRequestContext implements RequestContext, CarriesEnvironment {
  readonly method: string;
  readonly requestId: RequestId;
  readonly protocolVersion: string;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  readonly meta: RequestMeta;
  readonly auth: AuthInfo | undefined;
  readonly session: LegacySession | undefined;
  readonly [ENVIRONMENT]: RequestEnvironment;
  #lastProgress = Number.NEGATIVE_INFINITY;

  constructor(method: string, requestId: RequestId, meta: RequestMeta, env: RequestEnvironment) {
    this.method = method;
    this.requestId = requestId;
    const handshake = env.session?.handshake;
    this.protocolVersion = handshake?.protocolVersion ?? meta[META.protocolVersion];
    this.clientInfo = handshake === undefined ? meta[META.clientInfo] : handshake.clientInfo;
    this.clientCapabilities = handshake?.clientCapabilities ?? meta[META.clientCapabilities];
    this.meta = meta;
    this.auth = env.auth;
    this.session = env.session;
    this[ENVIRONMENT] = env;
  }

  /** Read from the environment when asked: a transport may make its signal only then. */
  get signal(): AbortSignal {
    return this[ENVIRONMENT].signal;
  }

  get logLevel(): LoggingLevel | undefined {
    return this.session === undefined ? this.meta[META.logLevel] : this.session.logLevel;
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

  elicit(params: ElicitRequestParams, options?: BackChannelRequestOptions): Promise<ElicitResult> {
    const capability = params.mode === "url" ? URL_ELICITATION : FORM_ELICITATION;
    return this.#request(
      "elicitation/create",
      withoutFormMode(params, this.protocolVersion),
      capability,
      ElicitResultSchema,
      options,
    );
  }

  createMessage(
    params: CreateMessageRequestParams,
    options?: BackChannelRequestOptions,
  ): Promise<CreateMessageResult> {
    const capability =
      params.tools !== undefined || params.toolChoice !== undefined ? SAMPLING_TOOLS : SAMPLING;
    return this.#request("sampling/createMessage", params, capability, CreateMessageResultSchema, options);
  }

  listRoots(options?: ListRootsOptions): Promise<ListRootsResult> {
    const params = options?._meta === undefined ? undefined : { _meta: options._meta };
    return this.#request("roots/list", params, ROOTS, ListRootsResultSchema, options);
  }

  async ping(options?: BackChannelRequestOptions): Promise<void> {
    await this.#request("ping", undefined, undefined, PING_RESULT, options);
  }

  notifyElicitationComplete(elicitationId: string): void {
    notifyElicitationComplete(this.session, elicitationId);
  }

  closeSseStream(): void {
    this[ENVIRONMENT].closeSseStream?.();
  }

  /** A request's own context carries no values: middleware adds them on a context that wraps it. */
  get<T>(key: ContextKey<T>): T {
    return getValue(undefined, key);
  }

  find<T>(key: ContextKey<T>): T | undefined {
    return findValue(undefined, key);
  }

  #request<Result>(
    method: string,
    params: object | undefined,
    capability: Parameters<typeof requestOverBackChannel>[2]["capability"],
    result: z.ZodType<Result>,
    options: BackChannelRequestOptions | undefined,
  ): Promise<Result> {
    return requestOverBackChannel(
      this[ENVIRONMENT],
      this.clientCapabilities,
      { method, params: params as Record<string, unknown> | undefined, capability, result },
      options,
    );
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

/**
 * The elicitation params as a client of `protocolVersion` reads them: `mode` arrived with
 * 2025-11-25 (URL mode), so a form request to a 2025-06-18 client goes without it.
 * Spec (2025-06-18, 2025-11-25): client/elicitation.
 */
function withoutFormMode(params: ElicitRequestParams, protocolVersion: string): ElicitRequestParams {
  if (params.mode !== "form" || protocolVersion >= "2025-11-25") return params;
  const { mode: _mode, ...rest } = params;
  return rest as ElicitRequestParams;
}
