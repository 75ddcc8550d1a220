/**
 * The contract between transports and the server core: a `Dispatcher` answers one message at a
 * time, given a small request environment; it owns no connection. Transports own connections and
 * hand each message in with its environment (AbortSignal, notification sink, auth).
 */

import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../protocol/jsonrpc.js";
import type { Logger } from "../protocol/logger.js";

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
  authInfo?: AuthInfo;
  /** The HTTP request headers, on Streamable HTTP. */
  headers?: Headers;
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
}

/** True for an object that implements {@link Dispatcher}. */
export function isDispatcher(value: unknown): value is Dispatcher {
  return typeof value === "object" && value !== null && typeof (value as Dispatcher).handle === "function";
}
