/**
 * The client's local errors: failures that happen on this side of the wire and never came from a
 * server (a server's error is an `McpError`). Each has a stable `name`.
 */
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../protocol/local-errors.js";
import type { InputRequiredResult } from "../protocol/schema/input.js";

/** The server kept answering `input_required` past the client's round cap. */
export class InputRequiredRoundsExceededError extends TsmcpError {
  override readonly name = "InputRequiredRoundsExceededError";
  /** `"ERR_INPUT_REQUIRED_ROUNDS_EXCEEDED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.InputRequiredRoundsExceededError;
  /** The cap that was exceeded (`inputRequiredMaxRounds`). */
  readonly maxRounds: number;

  constructor(maxRounds: number, method: string) {
    super(
      `The server answered ${method} with input_required for more than ${maxRounds} rounds; raise ` +
        "inputRequiredMaxRounds on the Client, or drive the loop yourself with " +
        "client.session.callTool/getPrompt/readResource(..., { allowInputRequired: true }).",
    );
    this.maxRounds = maxRounds;
  }
}

/**
 * One `input_required` round carried more embedded requests than the client's per-round cap; the
 * call fails before any callback runs and no retry is sent.
 */
export class InputRequestsPerRoundExceededError extends TsmcpError {
  override readonly name = "InputRequestsPerRoundExceededError";
  /** `"ERR_INPUT_REQUESTS_PER_ROUND_EXCEEDED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.InputRequestsPerRoundExceededError;
  /** The cap that was exceeded (`inputRequestsMaxPerRound`). */
  readonly maxPerRound: number;
  /** How many `inputRequests` the round carried. */
  readonly count: number;

  constructor(maxPerRound: number, count: number, method: string) {
    super(
      `The server answered ${method} with ${count} inputRequests in one round, more than the ${maxPerRound} ` +
        "allowed; raise inputRequestsMaxPerRound on the Client if the server is trusted to ask that many.",
    );
    this.maxPerRound = maxPerRound;
    this.count = count;
  }
}

/**
 * An `input_required` answer carried a `requestState` larger than the client's
 * `requestStateMaxBytes` (in UTF-8 bytes); the call fails before any callback runs and the state
 * is never sent back.
 */
export class RequestStateTooLargeError extends TsmcpError {
  override readonly name = "RequestStateTooLargeError";
  /** `"ERR_REQUEST_STATE_TOO_LARGE"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.RequestStateTooLargeError;
  /** The limit that was exceeded (`requestStateMaxBytes`), in UTF-8 bytes. */
  readonly maxBytes: number;

  constructor(maxBytes: number, method: string) {
    super(
      `The server answered ${method} with a requestState larger than requestStateMaxBytes (${maxBytes} bytes); ` +
        "raise requestStateMaxBytes on the Client if the server is trusted to send that much.",
    );
    this.maxBytes = maxBytes;
  }
}

/** A session call received an `InputRequiredResult` without `allowInputRequired: true`. */
export class UnexpectedInputRequiredError extends TsmcpError {
  override readonly name = "UnexpectedInputRequiredError";
  /** `"ERR_UNEXPECTED_INPUT_REQUIRED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.UnexpectedInputRequiredError;
  /** The result the server sent. */
  readonly result: InputRequiredResult;

  constructor(method: string, result: InputRequiredResult) {
    super(
      `The server answered ${method} with an InputRequiredResult; pass { allowInputRequired: true } to ` +
        "receive it and retry with its inputResponses and requestState, or use Client, which runs the loop.",
    );
    this.result = result;
  }
}

/** The server asked for input this client cannot give (no callback, or a mode it did not declare). */
export class UnsupportedInputRequestError extends TsmcpError {
  override readonly name = "UnsupportedInputRequestError";
  /** `"ERR_UNSUPPORTED_INPUT_REQUEST"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.UnsupportedInputRequestError;
  /** The `inputRequests` key of the request. */
  readonly key: string;
  /** The embedded request's method (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
  readonly method: string;

  constructor(key: string, method: string, why: string) {
    super(`Cannot fulfil input request "${key}" (${method}): ${why}`);
    this.key = key;
    this.method = method;
  }
}

/** The server's answer does not match the protocol (bad shape, unknown `resultType`, wrong id). */
export class InvalidServerResponseError extends TsmcpError {
  override readonly name = "InvalidServerResponseError";
  /** `"ERR_INVALID_SERVER_RESPONSE"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.InvalidServerResponseError;
}

/** A request got no answer within its `timeoutMs`. */
export class RequestTimeoutError extends TsmcpError {
  override readonly name = "RequestTimeoutError";
  /** `"ERR_REQUEST_TIMEOUT"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.RequestTimeoutError;
  /** The timeout that elapsed, in milliseconds. */
  readonly timeoutMs: number;

  constructor(method: string, timeoutMs: number) {
    super(`${method} timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The client and the server share no protocol revision: neither the 2026-07-28 core nor a 2025-era
 * handshake. The message names what the server offered. Spec: basic/versioning, (2025-11-25)
 * basic/lifecycle §Version Negotiation.
 */
export class ProtocolNegotiationError extends TsmcpError {
  override readonly name = "ProtocolNegotiationError";
  /** `"ERR_PROTOCOL_NEGOTIATION"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ProtocolNegotiationError;
  /** The revisions the server offered, when it named any. */
  readonly offered: readonly string[];

  constructor(message: string, offered: readonly string[], options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.offered = offered;
  }
}

/**
 * A method that does not exist in the negotiated revision was called: `server/discover` and
 * `subscriptions/listen` exist only at 2026-07-28, `logging/setLevel` only in the 2025 era.
 * Refused locally; nothing was sent.
 */
export class MethodNotInEraError extends TsmcpError {
  override readonly name = "MethodNotInEraError";
  /** `"ERR_METHOD_NOT_IN_ERA"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.MethodNotInEraError;
  /** The method that was refused. */
  readonly method: string;

  constructor(method: string, protocolVersion: string, hint: string) {
    super(`${method} does not exist at protocol version ${protocolVersion}: ${hint}`);
    this.method = method;
  }
}

/**
 * A call needs a capability the server did not declare (in its `server/discover` or `initialize`
 * answer): subscribing to resources needs `resources.subscribe`. Refused locally; nothing was sent.
 * Spec: server/resources §Capabilities; (2025-11-25) server/resources §Capabilities.
 */
export class ServerCapabilityMissingError extends TsmcpError {
  override readonly name = "ServerCapabilityMissingError";
  /** `"ERR_SERVER_CAPABILITY_MISSING"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ServerCapabilityMissingError;
  /** The missing capability, as a dotted path (`"resources.subscribe"`). */
  readonly capability: string;

  constructor(capability: string, what: string) {
    super(`The server does not declare the ${capability} capability, so ${what} is not possible`);
    this.capability = capability;
  }
}

/**
 * An extension's method was called on a server that did not advertise the extension under
 * `capabilities.extensions` (in `server/discover`, or `initialize` on a 2025-era session). Refused
 * locally; nothing was sent. Spec: https://modelcontextprotocol.io/extensions/overview (Negotiation).
 */
export class ExtensionNotSupportedError extends TsmcpError {
  override readonly name = "ExtensionNotSupportedError";
  /** `"ERR_EXTENSION_NOT_SUPPORTED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ExtensionNotSupportedError;
  /** The extension's identifier (`"com.example/audit"`). */
  readonly extension: string;
  /** The method that was not sent. */
  readonly method: string;
  /** The server's name from its `serverInfo`, when it gave one. */
  readonly server: string | undefined;

  constructor(extension: string, method: string, server: string | undefined) {
    super(
      `The server${server === undefined ? "" : ` ${JSON.stringify(server)}`} does not advertise the extension ${extension}, so ${method} was not sent`,
    );
    this.extension = extension;
    this.method = method;
    this.server = server;
  }
}

/**
 * The server knows no task by this id: it answered `tasks/get` (or `tasks/update`, `tasks/cancel`,
 * `tasks/result`) with -32602. The task was never created, has expired and been purged, or belongs
 * to another caller (a server answers those alike). The server's error is the `cause`.
 * Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Protocol Errors).
 */
export class UnknownTaskError extends TsmcpError {
  override readonly name = "UnknownTaskError";
  /** `"ERR_UNKNOWN_TASK"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.UnknownTaskError;
  /** The id the server does not know. */
  readonly taskId: string;

  constructor(taskId: string, method: string, options?: { cause?: unknown }) {
    const said = options?.cause instanceof Error ? ` (${options.cause.message})` : "";
    super(
      `The server knows no task ${JSON.stringify(taskId)}: ${method} was refused as invalid params${said}; ` +
        "it was never created, has expired, or belongs to another caller.",
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.taskId = taskId;
  }
}

/**
 * A task whose result was awaited ended `cancelled` (by `cancel()`, another client, or the server):
 * there is no result. Spec: https://github.com/modelcontextprotocol/ext-tasks (specification/draft/tasks.md §Task Cancellation).
 */
export class TaskCancelledError extends TsmcpError {
  override readonly name = "TaskCancelledError";
  /** `"ERR_TASK_CANCELLED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.TaskCancelledError;
  /** The cancelled task's id. */
  readonly taskId: string;
  /** The server's `statusMessage` for the cancelled task, if it gave one. */
  readonly statusMessage: string | undefined;

  constructor(taskId: string, statusMessage?: string) {
    super(
      `Task ${JSON.stringify(taskId)} was cancelled${statusMessage === undefined ? "" : `: ${statusMessage}`}`,
    );
    this.taskId = taskId;
    this.statusMessage = statusMessage;
  }
}
