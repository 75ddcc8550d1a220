/**
 * Dispatching one validated JSON-RPC request and shaping the HTTP answer: plain JSON when the
 * dispatcher answers before notifying, an SSE stream (notifications, then the response) as soon as
 * it sends a notification. The client closing the stream or the connection aborts the dispatch. An
 * answer stays plain data (status and text, or the SSE stream) until the front end writes it: the
 * web handler wraps it in a `Response`, the Node adapter writes it to the socket without one. Spec:
 * basic/transports/streamable-http, basic/index §Error Codes (HTTP status of error responses).
 */
import { httpStatusForCode, internalError } from "../../../protocol/errors.js";
import {
  errorResponse,
  isErrorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../../../protocol/jsonrpc.js";
import type { AuthInfo, Dispatcher, HeaderReader, RequestEnvironment } from "../../dispatcher.js";
import type { HttpServerAnswer } from "../exchange.js";
import { type Authenticate, scopeChallengeAnswer } from "./authenticate.js";
import { SSE_HEADERS, SseStream } from "./sse.js";

export type { HttpServerAnswer };

/** The request side {@link answerRequest} needs: the signal that fires when the client goes away, and the headers. */
export interface AnsweredRequest {
  readonly signal: AbortSignal;
  readonly headers: HeaderReader;
  /** The identity the request was authenticated as, handed to the dispatcher. */
  readonly auth?: AuthInfo;
  /**
   * Makes `controller` the request's own: aborted when the client goes away, its signal then being
   * `signal`. False when the request's signal already exists (it is then linked instead). Lets a
   * front end that makes its signal lazily serve a request with one controller.
   */
  adoptAbortController?(controller: AbortController): boolean;
}

/** How {@link answerRequest} may answer. */
export interface AnswerOptions {
  /** The client accepts `text/event-stream`; without it notifications are dropped. */
  streamable: boolean;
  /** Milliseconds between keep-alive comments on an SSE answer; 0 sends none. */
  keepAliveMs: number;
  /** Bytes an SSE answer may hold that the client has not read; past it the request is cancelled. */
  maxStreamBufferBytes: number;
  /** Receives a dispatcher failure (a rejection, or no response to a request). Must not throw. */
  report: (error: unknown) => void;
  /** Builds the 403 challenge of an insufficient-scope refusal answered as JSON (see `Authenticate`). */
  challenge?: Authenticate["challenge"];
}

/**
 * The environment of one dispatch. Its signal is made when first read: most requests never read
 * it, and an abort controller is among the costlier objects of an exchange.
 */
class DispatchEnvironment implements RequestEnvironment {
  readonly #controller: () => AbortController;
  readonly headers: HeaderReader;
  readonly notify: ((notification: JSONRPCNotification) => void) | undefined;
  readonly auth: AuthInfo | undefined;
  readonly networkTransport = "tcp" as const;

  constructor(
    controller: () => AbortController,
    headers: HeaderReader,
    notify: ((notification: JSONRPCNotification) => void) | undefined,
    auth: AuthInfo | undefined,
  ) {
    this.#controller = controller;
    this.headers = headers;
    this.notify = notify;
    this.auth = auth;
  }

  get signal(): AbortSignal {
    return this.#controller().signal;
  }
}

/** A JSON answer: status 200 for a result, the error table's status for an error response. */
export function jsonAnswer(response: JSONRPCResponse): HttpServerAnswer {
  const status = isErrorResponse(response) ? httpStatusForCode(response.error.code) : 200;
  return { kind: "json", status, text: JSON.stringify(response) };
}

/** The web `Response` of an answer. */
export function toResponse(answer: HttpServerAnswer): Response {
  switch (answer.kind) {
    case "json":
      return new Response(answer.text, {
        status: answer.status,
        headers: { "Content-Type": "application/json", ...answer.headers },
      });
    case "empty":
      return new Response(null, {
        status: answer.status,
        ...(answer.headers === undefined ? {} : { headers: answer.headers }),
      });
    case "sse":
      return new Response(answer.stream.readable, {
        status: 200,
        headers: answer.headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...answer.headers },
      });
    case "response":
      return answer.response;
  }
}

/**
 * Dispatches `message` with `{ signal, notify, headers }` and answers it.
 *
 * Resolves as soon as the form is decided: with a JSON answer when the dispatcher answers
 * before notifying, or with an SSE answer (status 200) when it notifies first (the stream then carries
 * every later notification and ends with the response; an error response is just the last event).
 * `signal` aborts when `request.signal` does (the client went away) or the SSE stream is cancelled;
 * nothing is sent after that. A dispatcher that rejects or answers nothing yields -32603
 * "Internal error" (500 as JSON), its cause going to `report`. Rejects only when the final response
 * cannot be encoded (a result JSON cannot represent).
 */
export function answerRequest(
  dispatcher: Dispatcher,
  request: AnsweredRequest,
  message: JSONRPCRequest,
  options: AnswerOptions,
): Promise<HttpServerAnswer> {
  // The dispatch's abort controller, made when something first asks for its signal (most
  // requests never do): a front end that adopts it aborts it itself; otherwise it is linked to
  // the request's signal.
  let controller: AbortController | undefined;
  let linked = false;
  const onClientGone = () => controller?.abort(request.signal.reason);
  const controllerOf = (): AbortController => {
    if (controller !== undefined) return controller;
    controller = new AbortController();
    if (request.adoptAbortController?.(controller) !== true) {
      linked = true;
      if (request.signal.aborted) onClientGone();
      else request.signal.addEventListener("abort", onClientGone, { once: true });
    }
    return controller;
  };

  return new Promise<HttpServerAnswer>((resolve, reject) => {
    let stream: SseStream | undefined;
    let settled = false;
    const notify = (notification: JSONRPCNotification) => {
      if (settled || controllerOf().signal.aborted) return;
      if (stream === undefined) {
        stream = new SseStream({
          keepAliveMs: options.keepAliveMs,
          maxBufferedBytes: options.maxStreamBufferBytes,
          onCancel: (reason) => controllerOf().abort(reason),
        });
        resolve({ kind: "sse", stream });
      }
      stream.send(notification);
    };
    /** Answers with the final response: as JSON, or as the last event of the SSE stream. */
    const finish = (response: JSONRPCResponse) => {
      settled = true;
      if (linked) request.signal.removeEventListener("abort", onClientGone);
      try {
        if (stream === undefined) {
          resolve(scopeChallengeAnswer(response, options.challenge) ?? jsonAnswer(response));
          return;
        }
        stream.send(response);
        stream.close();
      } catch (error) {
        reject(error); // e.g. a result JSON cannot encode: the handler answers -32603
      }
    };
    const fail = (error: unknown) => {
      options.report(error);
      finish(errorResponse(message.id, internalError()));
    };

    let handled: Promise<JSONRPCResponse | undefined>;
    try {
      const env = new DispatchEnvironment(
        controllerOf,
        request.headers,
        options.streamable ? notify : undefined,
        request.auth,
      );
      handled = dispatcher.handle(message, env);
    } catch (error) {
      handled = Promise.reject(error);
    }
    handled.then((response) => {
      if (response !== undefined) finish(response);
      else fail(new Error(`the dispatcher answered ${message.method} with nothing`));
    }, fail);
  });
}
