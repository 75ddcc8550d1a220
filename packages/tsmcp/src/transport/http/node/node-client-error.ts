/**
 * The answer of the Node adapter to a request `node:http` refuses before it reaches the listener: a
 * head larger than `maxHeaderBytes` (431), a request not received within `headersTimeoutMs` or
 * `requestTimeoutMs` (408), or bytes that are not HTTP/1.1 (400). Like every other refusal it is a
 * JSON-RPC error (-32600) with `Connection: close`, never Node's empty default body.
 * Spec: basic/transports/streamable-http, basic/index §Error Codes.
 */
import type { Duplex } from "node:stream";
import { type ErrorKind, McpError } from "../../../protocol/errors.js";
import { errorResponse } from "../../../protocol/jsonrpc.js";

/** The refusal of each kind of client error, its bytes built once. */
function rawAnswer(kind: ErrorKind, message: string): Buffer {
  const error = McpError.of(kind, message);
  const body = JSON.stringify(errorResponse(undefined, error));
  return Buffer.from(
    `HTTP/1.1 ${error.httpStatus} ${STATUS_TEXT[error.httpStatus]}\r\n` +
      "Content-Type: application/json\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      "Connection: close\r\n\r\n" +
      body,
  );
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

const HEADERS_TOO_LARGE = rawAnswer("HEADERS_TOO_LARGE", "Request Header Fields Too Large");
const NOT_IN_TIME = rawAnswer(
  "REQUEST_NOT_RECEIVED_IN_TIME",
  "Request Timeout: the request was not received in time",
);
const MALFORMED = rawAnswer("INVALID_REQUEST", "Invalid Request: malformed HTTP request");

/** The answer for a `clientError` code, or undefined when the connection is only to be closed. */
function answerFor(code: string | undefined): Buffer | undefined {
  if (code === "ECONNRESET" || code === "EPIPE") return undefined;
  if (code === "HPE_HEADER_OVERFLOW") return HEADERS_TOO_LARGE;
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return NOT_IN_TIME;
  return MALFORMED;
}

/**
 * The `clientError` listener of the adapter's `node:http` server: answers with a JSON-RPC refusal
 * when nothing was written on the connection yet, then destroys the connection (whether or not the
 * client reads or closes its side). Never throws.
 */
export function answerClientError(
  error: Error & { code?: string },
  socket: Duplex & { bytesWritten?: number },
): void {
  const answer = answerFor(error.code);
  if (answer !== undefined && socket.writable && (socket.bytesWritten ?? 0) === 0) {
    // Destroyed once written: a client that never reads nor closes must not keep its slot.
    socket.end(answer, () => socket.destroy());
    return;
  }
  socket.destroy();
}
