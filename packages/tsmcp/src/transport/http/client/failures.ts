/**
 * What the HTTP client transport says when a request fails below HTTP or is answered with a
 * transport-level error: the network error named in the message itself ("connection refused to
 * ..."), not two `cause`s deep, and a JSON-RPC error body without an id (what 2025-era servers send
 * for transport-level refusals, such as a 400 naming the supported versions) read as the error it
 * is. Spec: basic/transports (an HTTP error status MAY carry a JSON-RPC error response that has no
 * `id`).
 */
import { type ErrorObject, McpError } from "../../../protocol/errors.js";
import { TransportError } from "../../transport.js";

/**
 * What the network error codes Node's `fetch` reports mean: the words, and the preposition that
 * joins them to the URL.
 */
const NETWORK_ERRORS: Readonly<Record<string, readonly [words: string, preposition: string]>> = {
  ECONNREFUSED: ["connection refused", "to"],
  ECONNRESET: ["connection reset by the server", "at"],
  ENOTFOUND: ["host not found (DNS lookup failed)", "for"],
  EAI_AGAIN: ["temporary DNS failure", "for"],
  ETIMEDOUT: ["connection timed out", "to"],
  EHOSTUNREACH: ["host unreachable", "for"],
  ENETUNREACH: ["network unreachable", "for"],
  UND_ERR_CONNECT_TIMEOUT: ["connection timed out", "to"],
  UND_ERR_SOCKET: ["connection closed by the server", "at"],
};

/** The first error code found on `error`, its `cause` chain, or the errors of an `AggregateError`. */
function networkCode(error: unknown, depth = 0): string | undefined {
  if (typeof error !== "object" || error === null || depth > 4) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && code in NETWORK_ERRORS) return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = networkCode(inner, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return networkCode((error as { cause?: unknown }).cause, depth + 1);
}

/**
 * The `TransportError` for a `fetch` to `url` that failed without an HTTP answer: "connection
 * refused to http://127.0.0.1:1234/mcp" (the code's meaning and the URL) when a network error code
 * is found, else "HTTP request to <url> failed: <message>: <its cause's message>" (Node's `fetch`
 * says only "fetch failed"; the reason is its cause). The original error is the `cause`.
 */
export function fetchFailure(url: URL, error: unknown): TransportError {
  const code = networkCode(error);
  const known = code === undefined ? undefined : NETWORK_ERRORS[code];
  if (known !== undefined) {
    return new TransportError(`${known[0]} ${known[1]} ${url.href} (${code})`, { cause: error });
  }
  return new TransportError(`HTTP request to ${url.href} failed: ${describeChain(error)}`, { cause: error });
}

/**
 * Why a `fetch` failed without an HTTP answer, in words that follow "... failed: ": the meaning of
 * the network error code found on `error` or its causes and the code ("connection refused
 * (ECONNREFUSED)"), else the messages of `error` and its causes ("fetch failed: bad port").
 */
export function fetchFailureReason(error: unknown): string {
  const code = networkCode(error);
  const known = code === undefined ? undefined : NETWORK_ERRORS[code];
  return known !== undefined ? `${known[0]} (${code})` : describeChain(error);
}

/** The messages of `error` and its causes, outermost first, joined with ": ". */
function describeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message !== "" && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}

/**
 * The error of a JSON body that is a JSON-RPC error response with `"id": null` or no id, else
 * undefined. Such a body answers no request in particular: the server refused the HTTP request
 * itself.
 */
export function idlessErrorOf(text: string): ErrorObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return idlessErrorIn(value);
}

/** {@link idlessErrorOf} for a body already parsed. */
export function idlessErrorIn(value: unknown): ErrorObject | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  if (body.jsonrpc !== "2.0" || (body.id !== undefined && body.id !== null)) return undefined;
  const error = body.error;
  if (typeof error !== "object" || error === null || Array.isArray(error)) return undefined;
  const { code, message, data } = error as Record<string, unknown>;
  if (!Number.isInteger(code) || typeof message !== "string") return undefined;
  return "data" in error ? { code: code as number, message, data } : { code: code as number, message };
}

/** The `McpError` of an id-less error body, carrying the response's real HTTP status. */
export function idlessError(error: ErrorObject, httpStatus: number): McpError {
  return McpError.fromObject(error, { httpStatus });
}
