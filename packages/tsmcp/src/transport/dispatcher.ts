/**
 * The contract between transports and the server core: a `Dispatcher` answers one message at a
 * time, given a small request environment; it owns no connection. Transports own connections and
 * hand each message in with its environment (AbortSignal, notification sink, auth).
 */

import type { McpError } from "../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";
import type { ClientCapabilities, Implementation, LoggingLevel } from "../protocol/schema/base.js";
import type { MessageBus } from "../state/message-bus.js";

/**
 * Who the request comes from, as established by an auth layer (a verified bearer token).
 * Absent when the transport does no authentication.
 */
export interface AuthInfo {
  /** The raw access token. */
  token: string;
  /** The OAuth client the token was issued to. */
  clientId?: string;
  /** The token's issuer (`iss`). */
  issuer?: string;
  /** The end user the token speaks for (`sub`). */
  subject?: string;
  /** Granted scopes. */
  scopes?: string[];
  /** Expiry, in milliseconds since the epoch. */
  expiresAtMs?: number;
  /** Verifier-specific claims. */
  extra?: Record<string, unknown>;
}

/**
 * The identity an {@link AuthInfo} names, as the compact JSON `[clientId, issuer, subject]` (each
 * `null` when absent), e.g. `["client-123","https://as.example","alice"]`. Two users of one OAuth
 * client differ when the verifier supplies subjects; without subjects it is the client alone, and a
 * refreshed token names the same principal. When the `AuthInfo` carries none of the three (an auth
 * hook that returns only `{ token, scopes }`), the token itself is the identity:
 * `[null,null,null,token]`, so a flow or session never outlives the token that started it and two
 * tokens never share one. The default principal a sealed requestState (which stores only a salted
 * hash of it) and a handshake-era HTTP session (which compares it in memory) are bound to.
 */
export function principalOf(auth: AuthInfo): string {
  const { clientId, issuer, subject } = auth;
  if (clientId === undefined && issuer === undefined && subject === undefined) {
    return JSON.stringify([null, null, null, auth.token]);
  }
  return JSON.stringify([clientId ?? null, issuer ?? null, subject ?? null]);
}

/** What a 2025-era client established with `initialize`. Spec (2025-11-25): basic/lifecycle. */
export interface LegacyHandshake {
  /** The negotiated revision, e.g. "2025-11-25". */
  readonly protocolVersion: string;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
}

/**
 * How long a server -> client request on a legacy session waits for its answer by default, in
 * milliseconds: 60 s, the request timeout the official SDKs use. The one default of both
 * back-channels, the stdio server's and a Streamable HTTP session's.
 */
export const DEFAULT_BACK_CHANNEL_TIMEOUT_MS = 60_000;

/** Options of one server -> client request on a legacy session. */
export interface BackChannelRequestOptions {
  /** Cancels it: the client is sent `notifications/cancelled`, the promise rejects with the reason. */
  signal?: AbortSignal;
  /** Milliseconds to wait for the answer before rejecting (and cancelling). Default: the
   * transport's, {@link DEFAULT_BACK_CHANNEL_TIMEOUT_MS} unless configured. */
  timeoutMs?: number;
}

/**
 * Sends one server -> client request (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`, `ping`) and resolves with its result object. Rejects with `McpError` carrying the
 * client's code, message and data when the client answers an error; with the signal's reason on
 * abort; with `McpError` -32001 "Request timed out" (`ERRORS.REQUEST_TIMEOUT`) on timeout; with an
 * `McpError` -32600 when the session ends first.
 */
export type BackChannelRequest = (
  method: string,
  params: Record<string, unknown> | undefined,
  options?: BackChannelSendOptions,
) => Promise<Record<string, unknown>>;

/** Options of one server -> client request as a back-channel takes them. */
export interface BackChannelSendOptions extends BackChannelRequestOptions {
  /** Told the JSON-RPC id the request is sent with, once, before it is written. */
  onRequestId?: (id: RequestId) => void;
}

/**
 * The per-connection state of one 2025-era session (a stdio connection, or one `Mcp-Session-Id`
 * on Streamable HTTP). The transport creates and owns it; the server sets `handshake`,
 * `initialized` and `logLevel` and reads the rest. The only per-connection state tsmcp keeps.
 */
export interface LegacySession {
  /** The `Mcp-Session-Id` on Streamable HTTP; undefined on stdio and stateless HTTP. */
  readonly id: string | undefined;
  /** Set by the server when `initialize` succeeds. */
  handshake: LegacyHandshake | undefined;
  /** Set by the server on `notifications/initialized`. */
  initialized: boolean;
  /** Set by `logging/setLevel`; undefined sends no log messages. */
  logLevel: LoggingLevel | undefined;
  /** URIs the client subscribed to with `resources/subscribe`. */
  readonly resourceSubscriptions: Set<string>;
  /** Aborted when the session ends (stdio closed, DELETE, idle eviction, server close). */
  readonly signal: AbortSignal;
  /**
   * Sends a notification that belongs to no request (list_changed, resources/updated): stdout on
   * stdio, the standalone GET stream on HTTP (queued for it, bounded, when none is open). With
   * `onceKey` (a fleet broadcast's id), views of one session held by several replicas deliver it
   * once between them; a session held by one process ignores it.
   */
  notify(notification: JSONRPCNotification, options?: { readonly onceKey?: string }): void;
  /** A server -> client request not tied to a client request (e.g. `ping`); absent without a back-channel. */
  readonly request?: BackChannelRequest;
}

/**
 * Read access to HTTP request headers: names are case-insensitive, an absent header is `null`, a
 * repeated one its values joined with ", ". Web `Headers` satisfies it; the Node adapter reads
 * `node:http`'s parsed headers through it without building `Headers`.
 */
export interface HeaderReader {
  /** The value of header `name` (any case), or `null` when absent. */
  get(name: string): string | null;
  /** Calls `callback` once per header, with its lowercase name. */
  forEach(callback: (value: string, name: string) => void): void;
}

/** What a transport knows about one incoming message besides the message itself. */
export interface RequestEnvironment {
  /** Aborted when the client cancels the request or goes away. */
  signal: AbortSignal;
  /**
   * Delivers a notification tied to this request (progress, log message, listen notifications)
   * ahead of the final response. Absent when the transport cannot stream; those notifications
   * are then dropped.
   */
  notify?: (notification: JSONRPCNotification) => void;
  /** The authenticated identity, when an auth layer verified one. */
  auth?: AuthInfo;
  /** The HTTP request headers, on Streamable HTTP. */
  headers?: HeaderReader;
  /**
   * How the message arrived, as OpenTelemetry's `network.transport` names it: `"pipe"` over stdio,
   * `"tcp"` over HTTP; absent in memory (and on a transport that does not say). Recorded on the
   * server's spans and metrics. Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
   */
  networkTransport?: "pipe" | "tcp";
  /** The 2025-era session this message belongs to; absent on the stateless 2026-07-28 wire. */
  session?: LegacySession;
  /**
   * The back-channel for server -> client requests made while serving this request (HTTP: sent on
   * this request's SSE stream; stdio: stdout). Absent at 2026-07-28 and on stateless legacy HTTP.
   */
  request?: BackChannelRequest;
  /**
   * Where `request` is absent for a reason the client should hear (legacy HTTP without sessions),
   * the error a server -> client request of `method` fails with, in place of the generic -32600:
   * it names the limitation and what to do instead. Checked before anything else about the call.
   */
  backChannelRefusal?: (method: string) => McpError;
  /**
   * Closes this request's SSE stream now, before the response, so the client reconnects with
   * `Last-Event-ID` and gets the rest (2025-11-25 SSE polling); absent where the transport cannot
   * resume a stream.
   */
  closeSseStream?: () => void;
}

/** Answers JSON-RPC messages; implemented by `Server` and `MCPServer`. */
export interface Dispatcher {
  /**
   * Handles one request (resolving with its response) or notification (resolving with
   * `undefined`). Never rejects: every failure becomes an error response.
   */
  handle(
    message: JSONRPCRequest | JSONRPCNotification,
    env: RequestEnvironment,
  ): Promise<JSONRPCResponse | undefined>;
  /**
   * The protocol revisions this dispatcher serves, newest first. Streamable HTTP answers a request
   * whose `MCP-Protocol-Version` header names another with -32022 (HTTP 400) before reading its
   * other headers. Default, when absent: `MODERN_PROTOCOL_VERSIONS` (2026-07-28). Spec:
   * basic/transports/streamable-http §Request Metadata.
   */
  readonly supportedVersions?: readonly string[];
  /**
   * Where a transport serving this dispatcher reports what it cannot put on the wire, when the
   * transport is not given a logger of its own. `Server` and `MCPServer` expose theirs.
   */
  readonly logger?: Logger;
  /**
   * Called once by every Streamable HTTP handler built for this dispatcher (`serve`,
   * `createHttpHandler`), when it is built. `MCPServer` uses it to warn that a process-local
   * requestState key does not survive a restart or reach another instance. Must not throw (a throw
   * is ignored).
   */
  onServedOverHttp?(): void;
  /**
   * Puts the dispatcher in fleet mode on `bus`: the notifications that belong to no request
   * (`notifications/{tools,prompts,resources}/list_changed`, `notifications/resources/updated`)
   * go out as messages on the bus topic `tsmcp:server`, and every replica attached to that bus,
   * the publisher included, delivers each one it receives to its own `subscriptions/listen`
   * streams and its own 2025-era sessions. A Streamable HTTP handler given a bus (its `state.bus`
   * option) calls it once when it is built, and calls the returned function once when it closes.
   * Several handlers of one dispatcher may attach the same bus: it is subscribed once, and
   * unsubscribed when the last of them detaches; the returned function is idempotent.
   *
   * @returns the function that detaches this attachment.
   * @throws TypeError when `bus` is not a `MessageBus`, or while another bus is attached.
   */
  attachBus?(bus: MessageBus): () => void;
  /**
   * Registers a 2025-era session that completed `initialize` elsewhere (a local view of a session
   * another replica of a fleet initialized, materialized from the shared session store) for the
   * notifications that belong to no request, as a session initialized here is: its `notify`
   * receives list_changed, and resources/updated for the URIs in its `resourceSubscriptions`.
   * Idempotent; the session leaves when its `signal` aborts; an ended session is ignored. The
   * Streamable HTTP handler calls it for each view it materializes. In fleet mode every replica
   * delivers to every session registered with it, so where several replicas hold a view of one
   * session, the transport makes the `notify` of all but one (the view holding the session's
   * standalone GET connection) skip these notifications, and the session hears each once.
   */
  adoptSession?(session: LegacySession): void;
}

/** True for an object that implements {@link Dispatcher}. */
export function isDispatcher(value: unknown): value is Dispatcher {
  return typeof value === "object" && value !== null && typeof (value as Dispatcher).handle === "function";
}
