/**
 * The server -> client requests of one stdio connection at a handshake-era revision
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`, `ping`): each is written to stdout
 * with an id of its own, and the client's response, read from stdin, settles it. The ids live in a
 * table of their own, apart from the client's request ids. A request ends with its answer, its
 * signal (the client is then sent `notifications/cancelled`), its timeout, or the end of the
 * connection. Spec (2025-11-25): basic/lifecycle, basic/utilities/cancellation, client/elicitation,
 * client/sampling, client/roots.
 */
import { linkSignal } from "../../protocol/async.js";
import { McpError } from "../../protocol/errors.js";
import {
  isErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../../protocol/jsonrpc.js";
import { JSONRPC_VERSION } from "../../protocol/versions.js";
import { type BackChannelSendOptions, DEFAULT_BACK_CHANNEL_TIMEOUT_MS } from "../dispatcher.js";
import { InFlightRequests } from "../in-flight.js";

/** What a {@link BackChannel} needs from its connection. */
export interface BackChannelHooks {
  /** Writes one message to the client; false when it could not be written (the output is closed). */
  send(message: JSONRPCRequest | JSONRPCNotification): boolean;
  /** Reports a problem that has no place on the wire. */
  warn(message: string, fields?: Record<string, unknown>): void;
}

/** The error a request still waiting when the connection ends rejects with. */
function sessionEnded(): McpError {
  return McpError.of("INVALID_REQUEST", "The session ended before the client answered");
}

/** The server -> client requests of one connection, and the client's answers to them. */
export class BackChannel {
  readonly #hooks: BackChannelHooks;
  readonly #timeoutMs: number;
  readonly #table: InFlightRequests;
  #nextId = 0;
  #closed = false;

  /**
   * @param hooks how to write to the client and where to report.
   * @param timeoutMs the default wait for an answer, in milliseconds.
   */
  constructor(hooks: BackChannelHooks, timeoutMs: number = DEFAULT_BACK_CHANNEL_TIMEOUT_MS) {
    this.#hooks = hooks;
    this.#timeoutMs = timeoutMs;
    this.#table = new InFlightRequests({
      onCancel: (id, reason) => {
        hooks.send({
          jsonrpc: JSONRPC_VERSION,
          method: "notifications/cancelled",
          params: { requestId: id, reason },
        });
      },
      onHandlerError: (error) => hooks.warn("a back-channel notification handler failed", { error }),
    });
  }

  /** How many requests wait for an answer. */
  get size(): number {
    return this.#table.size;
  }

  /**
   * Sends `method` to the client and resolves with the result object of its answer.
   *
   * @param scope a further signal that cancels it (the signal of the client request being served).
   * @returns the client's `result`, as sent.
   * @throws (rejects with) McpError with the client's code, message and data when it answers an
   *   error; the abort reason of `options.signal` or `scope`, after sending
   *   `notifications/cancelled`; McpError -32001 "Request timed out" after `timeoutMs` (also
   *   cancelled); McpError -32600 when the connection ended or ends first.
   */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: BackChannelSendOptions = {},
    scope?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    if (this.#closed) throw sessionEnded();
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const controller = new AbortController();
    const unlink = [linkSignal(options.signal, controller), linkSignal(scope, controller)];
    const timer = setTimeout(
      () => controller.abort(McpError.of("REQUEST_TIMEOUT", "Request timed out", { timeout: timeoutMs })),
      timeoutMs,
    );
    try {
      const id = this.#nextId++;
      options.onRequestId?.(id);
      const request: JSONRPCRequest =
        params === undefined
          ? { jsonrpc: JSONRPC_VERSION, id, method }
          : { jsonrpc: JSONRPC_VERSION, id, method, params };
      const entry = this.#table.add(request, { signal: controller.signal });
      if (this.#hooks.send(request)) entry.markWritten();
      else entry.fail(sessionEnded());
      const response = await entry.response;
      if (isErrorResponse(response)) throw McpError.fromObject(response.error);
      return response.result;
    } finally {
      clearTimeout(timer);
      for (const undo of unlink) undo();
    }
  }

  /**
   * Settles the request `response` answers. Returns false when none waits with its id (a late
   * answer to a cancelled or timed-out request, which the client may still send).
   */
  resolve(response: JSONRPCResponse): boolean {
    return this.#table.resolve(response);
  }

  /** Ends the channel: every waiting request rejects with McpError -32600, later ones at once. */
  close(): void {
    this.#closed = true;
    this.#table.rejectAll(sessionEnded());
  }
}
