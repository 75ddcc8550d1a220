/**
 * The server -> client requests a client transport is answering (2025-era connections): each is
 * handed to the session's `onRequest` with a signal that aborts when the server cancels it
 * (`notifications/cancelled` naming its id) or the connection ends, and its answer (a result, the
 * `McpError` the handler threw, or -32601 when nothing answers requests) is sent back. JSON-RPC
 * requires a response to every request. The ids here are the server's, a separate space from the
 * client's own request ids. At most `maxConcurrent` handlers run at once on a connection: a server
 * must not be able to start an unbounded number of callbacks (each may hold a prompt, a model call,
 * a buffer); a request beyond the bound is refused at once. Spec (2025-11-25): basic/index
 * §Requests, basic/utilities/cancellation.
 */
import { McpError, methodNotFound } from "../protocol/errors.js";
import {
  errorResponse,
  isRequestId,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from "../protocol/jsonrpc.js";
import type { Transport } from "./transport.js";

/**
 * How many requests from the server a client transport answers at once by default, per connection:
 * 16. A request beyond the bound is answered at once with -32600 "Too many concurrent requests from
 * the server (limit N)" without reaching the session's callbacks.
 */
export const DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS = 16;

/** The answering function of a transport (its `onRequest`), or undefined when unset. */
export type RequestAnswerer = Transport["onRequest"];

/** The requests from the server in progress on one connection. */
export class IncomingRequests {
  readonly #inProgress = new Map<RequestId, AbortController>();
  readonly #maxConcurrent: number;
  /** Handlers running, cancelled ones included until they return (they still hold resources). */
  #running = 0;

  /** @param maxConcurrent the most handlers run at once (an integer >= 1, checked by the caller). */
  constructor(maxConcurrent: number = DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS) {
    this.#maxConcurrent = maxConcurrent;
  }

  /** How many server requests are being answered. */
  get size(): number {
    return this.#inProgress.size;
  }

  /**
   * Answers `request` with `answer` and resolves with the response to send back: the handler's
   * result; its `McpError` as the error; -32603 "Internal error: <message>" for any other failure;
   * -32601 when `answer` is undefined. A request whose id is already being answered gets -32600, and
   * so does one that arrives while `maxConcurrent` handlers run ("Too many concurrent requests from
   * the server (limit N)"); neither reaches `answer`.
   * Resolves undefined when the request was cancelled (no response is sent, as the spec asks).
   * Never rejects.
   */
  async answer(request: JSONRPCRequest, answer: RequestAnswerer): Promise<JSONRPCResponse | undefined> {
    const { id } = request;
    if (answer === undefined) return errorResponse(id, methodNotFound(request.method));
    if (this.#inProgress.has(id)) {
      return errorResponse(
        id,
        McpError.of("INVALID_REQUEST", `Invalid Request: id ${JSON.stringify(id)} is already in progress`),
      );
    }
    if (this.#running >= this.#maxConcurrent) {
      return errorResponse(
        id,
        McpError.of(
          "INVALID_REQUEST",
          `Too many concurrent requests from the server (limit ${this.#maxConcurrent})`,
        ),
      );
    }
    const controller = new AbortController();
    this.#inProgress.set(id, controller);
    this.#running++;
    try {
      const result = await answer(request, { signal: controller.signal });
      if (controller.signal.aborted) return undefined;
      return { jsonrpc: "2.0", id, result };
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      if (error instanceof McpError) return errorResponse(id, error);
      const why = error instanceof Error && error.message !== "" ? `: ${error.message}` : "";
      return errorResponse(id, { code: -32603, message: `Internal error${why}` });
    } finally {
      this.#running--;
      if (this.#inProgress.get(id) === controller) this.#inProgress.delete(id);
    }
  }

  /**
   * Aborts the request a server's `notifications/cancelled` names. Returns true when the
   * notification named a request in progress here (it then concerns no request of the client).
   */
  cancel(notification: JSONRPCNotification): boolean {
    if (notification.method !== "notifications/cancelled") return false;
    const requestId = notification.params?.requestId;
    const controller = isRequestId(requestId) ? this.#inProgress.get(requestId) : undefined;
    if (controller === undefined) return false;
    const reason = notification.params?.reason;
    this.#inProgress.delete(requestId as RequestId);
    controller.abort(
      new Error(typeof reason === "string" && reason !== "" ? reason : "the server cancelled the request"),
    );
    return true;
  }

  /** Aborts every request in progress with `reason` (the connection ended). */
  abortAll(reason: unknown): void {
    for (const controller of this.#inProgress.values()) controller.abort(reason);
    this.#inProgress.clear();
  }
}
