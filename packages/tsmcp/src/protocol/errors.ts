/**
 * The one error table of tsmcp: each error kind maps to its JSON-RPC code and the HTTP status the
 * Streamable HTTP transport answers with, and `McpError`, the single wire error class.
 * Spec: basic/index §Error Codes, basic/transports/streamable-http.
 */
import { MAX_QUOTED_LENGTH, truncate } from "./text.js";

/**
 * Every error kind tsmcp puts on the wire: its JSON-RPC `code` and its HTTP status. This is the
 * one table of codes: compare a received error with it (`error.code === ERRORS.HEADER_MISMATCH.code`)
 * rather than with a literal.
 *
 * The spec fixes 400 for a missing `_meta` field, -32020, -32021 and -32022, 404 for an unknown
 * method and 403 for a refused Origin; the rest are tsmcp's choice (an invalid request is the
 * client's fault, 400; a server fault is 500).
 */
export const ERRORS = Object.freeze({
  PARSE_ERROR: { code: -32700, httpStatus: 400 },
  INVALID_REQUEST: { code: -32600, httpStatus: 400 },
  METHOD_NOT_FOUND: { code: -32601, httpStatus: 404 },
  INVALID_PARAMS: { code: -32602, httpStatus: 400 },
  INTERNAL_ERROR: { code: -32603, httpStatus: 500 },
  /**
   * A server -> client request on a 2025-era session got no answer in time (the code the official
   * SDKs use for it). When a handler lets it escape, the answer is a 504: the server waited on a peer.
   */
  REQUEST_TIMEOUT: { code: -32001, httpStatus: 504 },
  HEADER_MISMATCH: { code: -32020, httpStatus: 400 },
  MISSING_REQUIRED_CLIENT_CAPABILITY: { code: -32021, httpStatus: 400 },
  UNSUPPORTED_PROTOCOL_VERSION: { code: -32022, httpStatus: 400 },
  /** Transport-level refusals; their JSON-RPC body carries -32600. */
  FORBIDDEN: { code: -32600, httpStatus: 403 },
  PAYLOAD_TOO_LARGE: { code: -32600, httpStatus: 413 },
  METHOD_NOT_ALLOWED: { code: -32600, httpStatus: 405 },
  UNSUPPORTED_MEDIA_TYPE: { code: -32600, httpStatus: 415 },
  NOT_ACCEPTABLE: { code: -32600, httpStatus: 406 },
  /** The request line and headers were not all sent in time, or the request as a whole was not. */
  REQUEST_NOT_RECEIVED_IN_TIME: { code: -32600, httpStatus: 408 },
  HEADERS_TOO_LARGE: { code: -32600, httpStatus: 431 },
} as const);

/** A named error kind of {@link ERRORS}. */
export type ErrorKind = keyof typeof ERRORS;

/**
 * The HTTP status of each JSON-RPC code, derived from {@link ERRORS}: the first kind listed with a
 * code names its status (so -32600 is INVALID_REQUEST's 400, not a transport refusal's).
 */
const STATUS_BY_CODE: ReadonlyMap<number, number> = (() => {
  const statuses = new Map<number, number>();
  for (const { code, httpStatus } of Object.values(ERRORS)) {
    if (!statuses.has(code)) statuses.set(code, httpStatus);
  }
  return statuses;
})();

/**
 * The HTTP status for a JSON-RPC error code: the table's status for the spec's codes, 200 for an
 * application-defined code (a well-formed answer that happens to be an error).
 */
export function httpStatusForCode(code: number): number {
  return STATUS_BY_CODE.get(code) ?? 200;
}

/** The JSON-RPC error object: `{ code, message, data? }`. Spec: basic/index §Responses. */
export interface ErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * An error that travels on the wire as a JSON-RPC error: throw it from a handler to answer with
 * exactly this code, message and data; the client raises it when the server answers with an error.
 * Its `cause` never travels; a `Server` logs the cause of a thrown -32603 that has one (say what the
 * client may know in the message, the rest in the cause).
 */
export class McpError extends Error {
  override readonly name = "McpError";
  /** The JSON-RPC error code. */
  readonly code: number;
  /** Optional structured detail (`error.data` on the wire). */
  readonly data: unknown;
  /** The HTTP status a Streamable HTTP server answers with (see {@link ERRORS}). */
  readonly httpStatus: number;

  constructor(
    code: number,
    message: string,
    data?: unknown,
    options?: { httpStatus?: number; cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = data;
    this.httpStatus = options?.httpStatus ?? httpStatusForCode(code);
  }

  /** An error of one kind of {@link ERRORS}, with the kind's code and HTTP status. */
  static of(kind: ErrorKind, message: string, data?: unknown): McpError {
    const { code, httpStatus } = ERRORS[kind];
    return new McpError(code, message, data, { httpStatus });
  }

  /** Rebuilds an error received on the wire. */
  static fromObject(error: ErrorObject, options?: { httpStatus?: number }): McpError {
    return new McpError(error.code, error.message, error.data, options);
  }

  /** The wire shape `{ code, message, data? }`. */
  toObject(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/**
 * -32601: the method is unknown, removed, or behind a capability this server does not advertise.
 * The message quotes `method` cut to `MAX_QUOTED_LENGTH` (200) characters.
 */
export function methodNotFound(method: string): McpError {
  return McpError.of("METHOD_NOT_FOUND", `Method not found: ${truncate(method, MAX_QUOTED_LENGTH)}`);
}

/** -32602 with a message naming what is wrong. */
export function invalidParams(message: string, data?: unknown): McpError {
  return McpError.of("INVALID_PARAMS", message, data);
}

/**
 * -32022 "Unsupported protocol version" (HTTP 400): `requested` is not a revision this server
 * serves; `data` names both, `{ supported, requested }` (`requested` cut to 64 characters), so the
 * client can pick another.
 * Spec: basic/versioning, basic/transports/streamable-http §Request Metadata (a present but
 * unsupported `MCP-Protocol-Version` header).
 */
export function unsupportedProtocolVersion(requested: string, supported: readonly string[]): McpError {
  return McpError.of("UNSUPPORTED_PROTOCOL_VERSION", "Unsupported protocol version", {
    supported: [...supported],
    // A revision is a date; anything far longer is cut, so the answer never echoes a large input.
    requested: truncate(requested, MAX_ECHOED_VERSION_LENGTH),
  });
}

const MAX_ECHOED_VERSION_LENGTH = 64;

/** -32603 "Internal error", with no detail: the cause goes to the logger, never to the wire. */
export function internalError(): McpError {
  return McpError.of("INTERNAL_ERROR", "Internal error");
}
