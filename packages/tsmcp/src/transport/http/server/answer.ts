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
  return new Promise<HttpServerAnswer>((resolve, reject) => {
    const answering = new Answering(request, message, options, resolve, reject);
    let handled: Promise<JSONRPCResponse | undefined>;
    try {
      handled = dispatcher.handle(message, answering);
    } catch (error) {
      handled = Promise.reject(error);
    }
    handled.then(
      (response) => answering.settle(response),
      (error: unknown) => answering.fail(error),
    );
  });
}

/**
 * One request being answered, and the environment it is dispatched with. Its signal is made
 * when first read: most requests never read it, and an abort controller is among the costlier
 * objects of an exchange. The functions it hands out are made in the constructor rather than as
 * named closures: this runs on every request, and a named function expression costs a property
 * definition each time in the bundled build (which keeps function names).
 */
class Answering implements RequestEnvironment {
  readonly headers: HeaderReader;
  readonly notify: ((notification: JSONRPCNotification) => void) | undefined;
  readonly auth: AuthInfo | undefined;
  readonly networkTransport = "tcp" as const;
  readonly #request: AnsweredRequest;
  readonly #message: JSONRPCRequest;
  readonly #options: AnswerOptions;
  readonly #resolve: (answer: HttpServerAnswer) => void;
  readonly #reject: (error: unknown) => void;
  /**
   * The dispatch's abort controller, made when something first asks for its signal: a front end
   * that adopts it aborts it itself; otherwise it is linked to the request's signal.
   */
  #controller: AbortController | undefined;
  /** The listener linking the request's signal to the controller, when it is linked. */
  #onClientGone: (() => void) | undefined;
  #stream: SseStream | undefined;
  #settled = false;

  constructor(
    request: AnsweredRequest,
    message: JSONRPCRequest,
    options: AnswerOptions,
    resolve: (answer: HttpServerAnswer) => void,
    reject: (error: unknown) => void,
  ) {
    this.#request = request;
    this.#message = message;
    this.#options = options;
    this.#resolve = resolve;
    this.#reject = reject;
    this.headers = request.headers;
    this.auth = request.auth;
    this.notify = options.streamable ? (notification) => this.#notify(notification) : undefined;
  }

  get signal(): AbortSignal {
    return this.#controllerOf().signal;
  }

  #controllerOf(): AbortController {
    if (this.#controller !== undefined) return this.#controller;
    const controller = new AbortController();
    this.#controller = controller;
    const request = this.#request;
    if (request.adoptAbortController?.(controller) !== true) {
      const onClientGone = () => controller.abort(request.signal.reason);
      this.#onClientGone = onClientGone;
      if (request.signal.aborted) onClientGone();
      else request.signal.addEventListener("abort", onClientGone, { once: true });
    }
    return controller;
  }

  #notify(notification: JSONRPCNotification): void {
    if (this.#settled || this.#controllerOf().signal.aborted) return;
    if (this.#stream === undefined) {
      this.#stream = new SseStream({
        keepAliveMs: this.#options.keepAliveMs,
        maxBufferedBytes: this.#options.maxStreamBufferBytes,
        onCancel: (reason) => this.#controllerOf().abort(reason),
      });
      this.#resolve({ kind: "sse", stream: this.#stream });
    }
    this.#stream.send(notification);
  }

  /** Answers with the dispatcher's response, or -32603 when it answered nothing. */
  settle(response: JSONRPCResponse | undefined): void {
    if (response !== undefined) this.#finish(response);
    else this.fail(new Error(`the dispatcher answered ${this.#message.method} with nothing`));
  }

  /** Reports a dispatcher failure and answers -32603 "Internal error". */
  fail(error: unknown): void {
    this.#options.report(error);
    this.#finish(errorResponse(this.#message.id, internalError()));
  }

  /** Answers with the final response: as JSON, or as the last event of the SSE stream. */
  #finish(response: JSONRPCResponse): void {
    this.#settled = true;
    if (this.#onClientGone !== undefined) {
      this.#request.signal.removeEventListener("abort", this.#onClientGone);
    }
    try {
      const stream = this.#stream;
      if (stream === undefined) {
        this.#resolve(scopeChallengeAnswer(response, this.#options.challenge) ?? jsonAnswer(response));
        return;
      }
      stream.send(response);
      stream.close();
    } catch (error) {
      this.#reject(error); // e.g. a result JSON cannot encode: the handler answers -32603
    }
  }
}
