/**
 * JSON-RPC 2.0 framing: the four message shapes, and turning untrusted text or values into one of
 * them or into the precise error to answer with. No batching (spec: basic/transports).
 */
import { type ErrorObject, McpError } from "./errors.js";
import { JSONRPC_VERSION } from "./versions.js";

/** A request id: a string or an integer (0 included), never null. */
export type RequestId = string | number;

/** Request or notification parameters: a JSON object. */
export type Params = Record<string, unknown>;

/** A request: expects exactly one response with the same id. */
export interface JSONRPCRequest {
  /** Always `"2.0"`. */
  jsonrpc: typeof JSONRPC_VERSION;
  /** Unique among the sender's requests still in flight; a retry needs a new one. Echoed by the response. */
  id: RequestId;
  /** The method to call, e.g. `"tools/call"`. */
  method: string;
  /** The method's parameters; a 2026-07-28 request always has them, carrying the per-request `_meta`. */
  params?: Params;
}

/** A notification: no id, never answered. */
export interface JSONRPCNotification {
  /** Always `"2.0"`. */
  jsonrpc: typeof JSONRPC_VERSION;
  /** The notification's name, e.g. `"notifications/progress"`. */
  method: string;
  /** The notification's parameters. */
  params?: Params;
}

/** A successful response. */
export interface JSONRPCResultResponse {
  /** Always `"2.0"`. */
  jsonrpc: typeof JSONRPC_VERSION;
  /** The id of the request this answers. */
  id: RequestId;
  /** The method's result object; an MCP result carries `resultType` (absent from an older server). */
  result: Record<string, unknown>;
}

/** An error response; `id` is absent only when the request's id could not be read. */
export interface JSONRPCErrorResponse {
  /** Always `"2.0"`. */
  jsonrpc: typeof JSONRPC_VERSION;
  /** The id of the request this answers; absent only when that id could not be read. */
  id?: RequestId;
  /** An integer `code`, a short `message`, and optional `data` (see {@link ErrorObject}). */
  error: ErrorObject;
}

/** Either kind of response. */
export type JSONRPCResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/** Any JSON-RPC message. */
export type JSONRPCMessage = JSONRPCRequest | JSONRPCNotification | JSONRPCResponse;

/** The outcome of reading one untrusted message. */
export type ParsedMessage =
  | { kind: "request"; message: JSONRPCRequest }
  | { kind: "notification"; message: JSONRPCNotification }
  | { kind: "response"; message: JSONRPCResponse }
  | { kind: "invalid"; error: McpError; id?: RequestId };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a valid request id: a string or a safe integer. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

/**
 * Classifies a parsed JSON value as one JSON-RPC message. A batch (array) is refused with -32600
 * ("Batch requests are not supported"); anything else malformed gets -32600 naming the problem, with
 * the id echoed when it could be read.
 */
export function classifyMessage(value: unknown): ParsedMessage {
  if (Array.isArray(value)) {
    return {
      kind: "invalid",
      error: McpError.of("INVALID_REQUEST", "Invalid Request: batch requests are not supported"),
    };
  }
  if (!isObject(value)) {
    return {
      kind: "invalid",
      error: McpError.of("INVALID_REQUEST", "Invalid Request: expected a JSON object"),
    };
  }
  if (value.jsonrpc !== JSONRPC_VERSION) return invalidMessage(value, '"jsonrpc" must be "2.0"');
  const hasId = "id" in value;
  if (hasId && !isRequestId(value.id)) return invalidMessage(value, '"id" must be a string or an integer');
  if ("method" in value) {
    const { method, params } = value;
    if (typeof method !== "string" || method.length === 0) {
      return invalidMessage(value, '"method" must be a non-empty string');
    }
    if (params !== undefined && !isObject(params)) return invalidMessage(value, '"params" must be an object');
    if ("result" in value || "error" in value) {
      return invalidMessage(value, "a message cannot be both a request and a response");
    }
    // Built field by field (no spreads): this runs for every message a server receives.
    if (hasId) {
      const request: JSONRPCRequest = { jsonrpc: JSONRPC_VERSION, method, id: value.id as RequestId };
      if (params !== undefined) request.params = params as Params;
      return { kind: "request", message: request };
    }
    const notification: JSONRPCNotification = { jsonrpc: JSONRPC_VERSION, method };
    if (params !== undefined) notification.params = params as Params;
    return { kind: "notification", message: notification };
  }
  if ("result" in value) {
    if (!hasId) return invalidMessage(value, 'a response needs an "id"');
    if (!isObject(value.result)) return invalidMessage(value, '"result" must be an object');
    return {
      kind: "response",
      message: { jsonrpc: JSONRPC_VERSION, id: value.id as RequestId, result: value.result },
    };
  }
  if ("error" in value) {
    const error = value.error;
    if (!isObject(error) || !Number.isInteger(error.code) || typeof error.message !== "string") {
      return invalidMessage(value, '"error" must have an integer "code" and a string "message"');
    }
    const errorObject: ErrorObject = { code: error.code as number, message: error.message };
    if ("data" in error) errorObject.data = error.data;
    return {
      kind: "response",
      message: {
        jsonrpc: JSONRPC_VERSION,
        ...(hasId ? { id: value.id as RequestId } : {}),
        error: errorObject,
      },
    };
  }
  return invalidMessage(value, 'expected "method", "result" or "error"');
}

/** The -32600 of a malformed message object, saying `why`, its id echoed when it can be read. */
function invalidMessage(value: Record<string, unknown>, why: string): ParsedMessage {
  const error = McpError.of("INVALID_REQUEST", `Invalid Request: ${why}`);
  return isRequestId(value.id) ? { kind: "invalid", error, id: value.id } : { kind: "invalid", error };
}

/**
 * The nesting depth {@link parseMessage} accepts by default when a caller asks for a limit: 64
 * objects and arrays within each other, the message itself counting as 1 (so a `tools/call`
 * leaves 61 levels to its `arguments`). The servers apply it to every incoming message.
 */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/** Options of {@link parseMessage}. */
export interface ParseOptions {
  /**
   * The deepest nesting of objects and arrays accepted, the message itself counting as 1; a deeper
   * message is refused with -32600 before anyone sees it. Default: no limit.
   */
  maxDepth?: number;
}

/**
 * True when the JSON text nests objects and arrays more than `maxDepth` deep. One pass over the
 * text, allocating nothing; string contents are skipped with `indexOf`, so a large string costs
 * about what copying it does. Only called on text `JSON.parse` accepted.
 */
function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22 /* " */) {
      // Jump to the closing quote: one preceded by an even run of backslashes.
      for (;;) {
        i = text.indexOf('"', i + 1);
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === 0x5c /* \ */) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (char === 0x7b /* { */ || char === 0x5b /* [ */) {
      if (++depth > maxDepth) return true;
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

/**
 * Parses one message from text: malformed JSON gets -32700 ("Parse error: Invalid JSON"); with
 * `maxDepth`, a message nested deeper gets -32600 ("Invalid Request: nested deeper than N levels"),
 * its id echoed when it can be read; the rest as {@link classifyMessage}.
 *
 * A too-deep message is an Invalid Request, not a Parse error: the text is valid JSON (the JSON-RPC
 * error table keeps -32700 for text that is not), but not a request this server accepts, like a
 * body over the size limit (basic/index §Error Codes, HTTP 400).
 */
export function parseMessage(text: string, options: ParseOptions = {}): ParsedMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: "invalid", error: McpError.of("PARSE_ERROR", "Parse error: Invalid JSON") };
  }
  const { maxDepth } = options;
  if (maxDepth !== undefined && nestsDeeperThan(text, maxDepth)) {
    const id = isObject(value) && isRequestId(value.id) ? value.id : undefined;
    return {
      kind: "invalid",
      error: McpError.of("INVALID_REQUEST", `Invalid Request: nested deeper than ${maxDepth} levels`),
      ...(id === undefined ? {} : { id }),
    };
  }
  return classifyMessage(value);
}

/** A result response for `id`. */
export function resultResponse(id: RequestId, result: Record<string, unknown>): JSONRPCResultResponse {
  return { jsonrpc: JSONRPC_VERSION, id, result };
}

/** An error response for `id` (omitted when unknown). */
export function errorResponse(
  id: RequestId | undefined,
  error: ErrorObject | McpError,
): JSONRPCErrorResponse {
  const object = error instanceof McpError ? error.toObject() : error;
  return id === undefined
    ? { jsonrpc: JSONRPC_VERSION, error: object }
    : { jsonrpc: JSONRPC_VERSION, id, error: object };
}

/** True for an error response. */
export function isErrorResponse(message: JSONRPCResponse): message is JSONRPCErrorResponse {
  return "error" in message;
}
