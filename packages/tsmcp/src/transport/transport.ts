/**
 * The client side of a connection: a `Transport` carries one request to a server and brings back
 * its response, delivering any notifications the server sends for it on the way. Streamable HTTP
 * (one POST per request), stdio (a child process) and in-memory (a direct call into a dispatcher)
 * implement it; `ClientSession` sits on top.
 */

import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../protocol/jsonrpc.js";
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../protocol/local-errors.js";

/** Per-request options of {@link Transport.request}. */
export interface TransportRequestOptions {
  /**
   * Cancels the request: HTTP closes the response stream, stdio sends
   * `notifications/cancelled`, in-memory aborts the handler's signal. The promise then rejects
   * with the signal's reason.
   */
  signal?: AbortSignal;
  /** Notifications the server sends for this request before its response. */
  onNotification?: (notification: JSONRPCNotification) => void;
  /** Extra HTTP headers for this request (`Mcp-Param-*`); other transports ignore them. */
  headers?: Record<string, string>;
}

/** Options with which a transport hands a server -> client request to its session. */
export interface IncomingRequestOptions {
  /**
   * Aborted when the server cancels the request (`notifications/cancelled`) or the connection
   * ends. Spec: basic/utilities/cancellation.
   */
  signal: AbortSignal;
}

/**
 * The protocol era a transport speaks: `modern` (2026-07-28, every request self-contained) or
 * `legacy` (the 2025-era handshake, with the version `initialize` agreed on).
 */
export type ProtocolEra = { kind: "modern" } | { kind: "legacy"; protocolVersion: string };

/** One client's connection to one server. */
export interface Transport {
  /**
   * True when this transport sends {@link TransportRequestOptions.headers} as HTTP request headers
   * (Streamable HTTP). The session then applies the `x-mcp-header` rules: it mirrors annotated tool
   * arguments into `Mcp-Param-*` headers and leaves out of `tools/list` a tool whose annotations
   * break them. A transport that wraps another declares its inner transport's value. Spec:
   * basic/transports/streamable-http §Custom Headers.
   */
  readonly sendsHttpHeaders: boolean;
  /**
   * How this transport reaches its server, for telemetry (`network.transport` of the OpenTelemetry
   * conventions): `"tcp"` for Streamable HTTP, `"pipe"` for stdio; absent in memory or when unknown.
   * A transport that wraps another declares its inner transport's value.
   * Spec: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/
   */
  readonly networkTransport?: "tcp" | "pipe";
  /**
   * Sends `request` and resolves with the server's response (a result or an error response).
   * Rejects only when no response can be had: the transport failed, closed, or the request was
   * cancelled.
   */
  request(request: JSONRPCRequest, options?: TransportRequestOptions): Promise<JSONRPCResponse>;
  /** Sends a notification; nothing comes back. */
  notify(notification: JSONRPCNotification): Promise<void>;
  /**
   * Receives notifications that belong to no request this transport can name (for example a
   * log message on stdio). Set by the session.
   */
  onNotification?: (notification: JSONRPCNotification) => void;
  /**
   * Answers a request the server sends on a 2025-era connection (`elicitation/create`,
   * `sampling/createMessage`, `roots/list`, `ping`). Set by the session. Resolves with the result
   * object, or rejects with an `McpError` whose code, message and data become the JSON-RPC error the
   * transport sends back (any other rejection answers -32603). When unset, the transport answers
   * -32601 "Method not found". Spec: basic/transports, basic/lifecycle.
   */
  onRequest?: (request: JSONRPCRequest, options: IncomingRequestOptions) => Promise<Record<string, unknown>>;
  /**
   * Switches the transport to the 2025-era wire after a successful `initialize` (or back to
   * modern): HTTP then sends `MCP-Protocol-Version: <version>` and the `Mcp-Session-Id` it
   * received with the initialize response on every request, opens the standalone GET stream, and
   * sends DELETE on close; stdio needs nothing; in-memory switches to a 2025-era session. Optional
   * for third-party transports. Spec: basic/transports §Session Management.
   */
  setProtocolEra?(era: ProtocolEra): void;
  /**
   * Resolves once the server's messages that belong to no request reach {@link onNotification}:
   * HTTP on a 2025-era session when its standalone GET stream is open (or the server refused it,
   * or it gave up); immediately where nothing needs opening. Never rejects. A client waits for it
   * before it tells its caller a subscription is in place, so that no notification sent after that
   * is lost. Optional: absent means ready.
   */
  notificationsReady?(): Promise<void>;
  /** Closes the connection; in-flight requests reject. Idempotent. */
  close(): Promise<void>;
}

/** Raised when a transport cannot deliver a request or its response. */
export class TransportError extends TsmcpError {
  override readonly name: string = "TransportError";
  /** `"ERR_TRANSPORT"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.TransportError;
  /** The HTTP status, when the failure was an HTTP response without a JSON-RPC body. */
  readonly httpStatus: number | undefined;

  constructor(message: string, options?: { httpStatus?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.httpStatus = options?.httpStatus;
  }
}

/**
 * Raised by a transport when the 2025-era session is gone: the server says so (HTTP 404 on a
 * request that carried `Mcp-Session-Id`), or the stdio server process it was made with has exited.
 * The `Client` then initializes a new session once and retries the request. Spec:
 * basic/transports §Session Management, basic/lifecycle.
 */
export class SessionExpiredError extends TransportError {
  override readonly name: string = "SessionExpiredError";
  /** `"ERR_SESSION_EXPIRED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.SessionExpiredError;
}

/** True for an object that implements {@link Transport}. */
export function isTransport(value: unknown): value is Transport {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Transport).request === "function" &&
    typeof (value as Transport).close === "function"
  );
}
