/**
 * Dispatching one validated JSON-RPC request and shaping the HTTP answer: plain JSON when the
 * dispatcher answers before notifying, an SSE stream (notifications, then the response) as soon as
 * it sends a notification. The client closing the stream or the connection aborts the dispatch.
 * Spec: §3.2-3.4, §1.9 (HTTP status of error responses).
 */
import { httpStatusForCode, internalError } from "../../protocol/errors.js";
import {
  errorResponse,
  isErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../../protocol/jsonrpc.js";
import type { Dispatcher } from "../dispatcher.js";
import { SSE_HEADERS, SseStream } from "./sse.js";

/** How {@link answerRequest} may answer. */
export interface AnswerOptions {
  /** The client accepts `text/event-stream`; without it notifications are dropped. */
  streamable: boolean;
  /** Milliseconds between keep-alive comments on an SSE answer; 0 sends none. */
  keepAliveMs: number;
  /** Receives a dispatcher failure (a rejection, or no response to a request). Must not throw. */
  report: (error: unknown) => void;
}

type Outcome = { ok: true; response: JSONRPCResponse | undefined } | { ok: false; error: unknown };

/** A JSON answer: status 200 for a result, the error table's status for an error response. */
export function jsonAnswer(response: JSONRPCResponse): Response {
  const status = isErrorResponse(response) ? httpStatusForCode(response.error.code) : 200;
  return new Response(JSON.stringify(response), { status, headers: { "Content-Type": "application/json" } });
}

/**
 * Dispatches `message` with `{ signal, notify, headers }` and answers it.
 *
 * Resolves as soon as the form is decided: with a JSON `Response` when the dispatcher answers
 * before notifying, or with a 200 SSE `Response` when it notifies first (the stream then carries
 * every later notification and ends with the response; an error response is just the last event).
 * `signal` aborts when `request.signal` does (the client went away) or the SSE stream is cancelled;
 * nothing is sent after that. A dispatcher that rejects or answers nothing yields -32603
 * "Internal error" (500 as JSON), its cause going to `report`. Never rejects.
 */
export async function answerRequest(
  dispatcher: Dispatcher,
  request: Request,
  message: JSONRPCRequest,
  options: AnswerOptions,
): Promise<Response> {
  const controller = new AbortController();
  const onClientGone = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) onClientGone();
  else request.signal.addEventListener("abort", onClientGone, { once: true });

  let stream: SseStream | undefined;
  let settled = false;
  let streamOpened!: () => void;
  const firstNotification = new Promise<void>((resolve) => {
    streamOpened = resolve;
  });
  const notify = (notification: JSONRPCNotification) => {
    if (settled || controller.signal.aborted) return;
    if (stream === undefined) {
      stream = new SseStream({
        keepAliveMs: options.keepAliveMs,
        onCancel: (reason) => controller.abort(reason),
      });
      streamOpened();
    }
    stream.send(notification);
  };

  let handled: Promise<JSONRPCResponse | undefined>;
  try {
    handled = dispatcher.handle(message, {
      signal: controller.signal,
      ...(options.streamable ? { notify } : {}),
      headers: request.headers,
    });
  } catch (error) {
    handled = Promise.reject(error);
  }
  const outcome: Promise<Outcome> = handled.then(
    (response) => {
      settled = true;
      return { ok: true, response };
    },
    (error: unknown) => {
      settled = true;
      return { ok: false, error };
    },
  );
  await Promise.race([outcome, firstNotification]);

  const finalResponse = (result: Outcome): JSONRPCResponse => {
    request.signal.removeEventListener("abort", onClientGone);
    if (result.ok && result.response !== undefined) return result.response;
    options.report(
      result.ok ? new Error(`the dispatcher answered ${message.method} with nothing`) : result.error,
    );
    return errorResponse(message.id, internalError());
  };

  if (stream === undefined) return jsonAnswer(finalResponse(await outcome));
  const open = stream;
  void outcome.then((result) => {
    open.send(finalResponse(result));
    open.close();
  });
  return new Response(open.readable, { status: 200, headers: SSE_HEADERS });
}
