/**
 * The client side of a connection: a `Transport` carries one request to a server and brings back
 * its response, delivering any notifications the server sends for it on the way. Streamable HTTP
 * (one POST per request), stdio (a child process) and in-memory (a direct call into a dispatcher)
 * implement it; `ClientSession` sits on top.
 */
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../protocol/jsonrpc.js";

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
  /** Closes the connection; in-flight requests reject. Idempotent. */
  close(): Promise<void>;
}

/** Raised when a transport cannot deliver a request or its response. */
export class TransportError extends Error {
  override readonly name: string = "TransportError";
  /** The HTTP status, when the failure was an HTTP response without a JSON-RPC body. */
  readonly httpStatus: number | undefined;

  constructor(message: string, options?: { httpStatus?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.httpStatus = options?.httpStatus;
  }
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
