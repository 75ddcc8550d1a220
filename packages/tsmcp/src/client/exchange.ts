/**
 * One request's trip over a transport: the per-request timeout, cancellation by the caller's
 * signal, the response's id checked against the request's, and an error response raised as
 * `McpError`. Spec: basic/index §Responses, basic/utilities/cancellation.
 */
import { abortFailure, onAbort } from "../protocol/async.js";
import { McpError } from "../protocol/errors.js";
import { isErrorResponse, type JSONRPCNotification, type JSONRPCRequest } from "../protocol/jsonrpc.js";
import { carryingAbortSource, LazyAbortController } from "../transport/abort-source.js";
import type { Transport, TransportRequestOptions } from "../transport/transport.js";
import { startDeadline } from "./deadlines.js";
import { InvalidServerResponseError, RequestTimeoutError } from "./errors.js";

/** How one request travels. */
export interface ExchangeOptions {
  /** Milliseconds before it fails with `RequestTimeoutError`; `Infinity` waits forever. */
  timeoutMs: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  onNotification: (notification: JSONRPCNotification) => void;
}

/**
 * Sends `request` and resolves with its result object.
 *
 * @throws McpError for an error response; InvalidServerResponseError for a response to another id;
 *   RequestTimeoutError; TransportError (also for a timeout during the request's authorization,
 *   naming the step, with the RequestTimeoutError at the end of its `cause` chain); the signal's
 *   reason when cancelled.
 */
export async function exchange(
  transport: Transport,
  request: JSONRPCRequest,
  options: ExchangeOptions,
): Promise<Record<string, unknown>> {
  const { method, id } = request;
  const { timeoutMs } = options;
  // The request's signal is made only if the transport reads `signal` (this package's transports
  // read the controller itself): most requests end without anyone listening.
  const controller = new LazyAbortController();
  if (options.signal?.aborted) throw options.signal.reason;
  const unlink = onAbort(options.signal, (reason) => controller.abort(reason));
  const deadline =
    timeoutMs === Number.POSITIVE_INFINITY
      ? undefined
      : startDeadline(timeoutMs, () => controller.abort(new RequestTimeoutError(method, timeoutMs)));
  const requestOptions: TransportRequestOptions = carryingAbortSource(
    options.headers === undefined
      ? {
          get signal() {
            return controller.signal;
          },
          onNotification: options.onNotification,
        }
      : {
          get signal() {
            return controller.signal;
          },
          headers: options.headers,
          onNotification: options.onNotification,
        },
    controller,
  );
  try {
    const response = await transport.request(request, requestOptions);
    if (response.id !== undefined && response.id !== id) {
      throw new InvalidServerResponseError(
        `${method}: response id ${String(response.id)} does not match request id ${id}`,
      );
    }
    if (isErrorResponse(response)) throw McpError.fromObject(response.error);
    return response.result;
  } catch (error) {
    // A failure with the timeout as its cause says what timed out (an authorization step, say):
    // it stands; any other failure after the timeout is the timeout's.
    if (controller.aborted && controller.reason instanceof RequestTimeoutError) {
      throw abortFailure(controller.signal, error);
    }
    throw error;
  } finally {
    deadline?.cancel();
    unlink();
  }
}
