/**
 * One client request served on a handshake-era session: its environment for the dispatcher, what
 * aborts it, and its answer, JSON or, once the dispatcher sends a message first, a resumable SSE
 * stream. One object per request, its methods on the prototype: the abort controller is made only
 * when something reads the signal (or the request is aborted before that), and the stream only
 * at the first message. Spec (2025-11-25): basic/transports §Sending Messages to the Server,
 * §Resumability and Redelivery; basic/utilities/cancellation.
 */
import { McpError } from "../../../protocol/errors.js";
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCResponse,
  RequestId,
} from "../../../protocol/jsonrpc.js";
import type {
  AuthInfo,
  BackChannelRequest,
  Dispatcher,
  HeaderReader,
  RequestEnvironment,
} from "../../dispatcher.js";
import type { HttpServerAnswer } from "../server/answer.js";
import { type Authenticate, scopeChallengeAnswer } from "../server/authenticate.js";
import type { SseStream } from "../server/sse.js";
import type { SessionRegistry } from "./registry.js";
import type { HttpSession, IncomingRequest } from "./session.js";
import { StateFailure } from "./state-guard.js";
import type { ResumableStream } from "./stream.js";

/** The request side a session request reads. */
export interface SessionExchange {
  readonly headers: HeaderReader;
  readonly signal: AbortSignal;
  /** The identity the request was authenticated as. */
  readonly auth?: AuthInfo;
}

/** What a session request needs from its handler. */
export interface SessionRequestEntry {
  readonly dispatcher: Dispatcher;
  readonly registry: SessionRegistry;
  /** Receives a dispatcher or store failure. Must not throw. */
  readonly report: (error: unknown) => void;
  /** Builds the 403 challenge of an insufficient-scope refusal answered as JSON. */
  readonly challenge?: Authenticate["challenge"];
}

/** Where a session request's answer goes, and what runs once its work is done. */
export interface SessionRequestOutcome {
  readonly resolve: (answer: HttpServerAnswer) => void;
  readonly reject: (error: unknown) => void;
  /** Called once the response was answered as JSON, or its SSE stream finished. */
  readonly onDone: () => void;
}

/** The answer of an SSE stream. */
export function sseAnswer(stream: SseStream): HttpServerAnswer {
  return { kind: "sse", stream };
}

/**
 * The -32600 of a server -> client request (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) made while serving a handshake-era request without a session (`legacy:
 * "stateless"`): it names the limitation and the two ways around it.
 */
export function backChannelUnavailable(method: string): McpError {
  return McpError.of(
    "INVALID_REQUEST",
    `Cannot send '${method}' to the client: this endpoint serves 2025 handshake-era clients without sessions (legacy: "stateless", the mode for runtimes such as Cloudflare Workers that cannot hold a session's stream across requests), so a server cannot ask such a client anything while serving a request. Connect with protocol revision 2026-07-28, where the server's questions travel in its response, or serve handshake-era clients from a stateful deployment (legacy: "session" on Node.js).`,
  );
}

/**
 * A client request on a session, as the dispatcher's environment: `signal`, `headers`, `session`,
 * `auth`; with SSE, `notify`, `closeSseStream` and (with the back-channel) `request` over its own
 * stream, opened at the first message; without SSE, the back-channel over the session's GET
 * stream, when it has one. A request served without a session (the stateless mode) has no
 * `request` and refuses one with {@link backChannelUnavailable}.
 */
export class SessionRequest implements RequestEnvironment, IncomingRequest {
  readonly id: RequestId;
  readonly headers: HeaderReader;
  readonly session: HttpSession;
  readonly auth: AuthInfo | undefined;
  readonly networkTransport = "tcp" as const;
  readonly backChannelRefusal: ((method: string) => McpError) | undefined;
  readonly #entry: SessionRequestEntry;
  readonly #exchange: SessionExchange;
  readonly #outcome: SessionRequestOutcome;
  readonly #streamable: boolean;
  readonly #backChannel: boolean;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  /** True while the controller listens to the exchange's signal (the client going away). */
  #linked = false;
  #settled = false;
  #stream: ResumableStream | undefined;
  #notify: ((notification: JSONRPCNotification) => void) | undefined;
  #request: BackChannelRequest | undefined;
  #closeSseStream: (() => void) | undefined;

  constructor(
    entry: SessionRequestEntry,
    exchange: SessionExchange,
    session: HttpSession,
    id: RequestId,
    streamable: boolean,
    backChannel: boolean,
    outcome: SessionRequestOutcome,
  ) {
    this.id = id;
    this.headers = exchange.headers;
    this.session = session;
    this.auth = exchange.auth;
    this.backChannelRefusal = backChannel ? undefined : backChannelUnavailable;
    this.#entry = entry;
    this.#exchange = exchange;
    this.#outcome = outcome;
    this.#streamable = streamable;
    this.#backChannel = backChannel;
  }

  /**
   * Aborted by `notifications/cancelled`, by the session's end, and by the client going away
   * before the request's stream opened. Made when first read.
   */
  get signal(): AbortSignal {
    return this.#controllerOf().signal;
  }

  get notify(): ((notification: JSONRPCNotification) => void) | undefined {
    if (!this.#streamable) return undefined;
    this.#notify ??= (notification) => this.#send(notification);
    return this.#notify;
  }

  get request(): BackChannelRequest | undefined {
    if (!this.#backChannel) return undefined;
    if (!this.#streamable) return this.session.request;
    this.#request ??= this.session.backChannel((message) => this.#send(message));
    return this.#request;
  }

  get closeSseStream(): (() => void) | undefined {
    if (!this.#streamable) return undefined;
    this.#closeSseStream ??= () => {
      if (this.#live()) this.#open().closeConnection();
    };
    return this.#closeSseStream;
  }

  /** Aborts the request with `reason` (the first reason wins). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /**
   * Answers with the dispatcher's `response`, once the session's changed facts are written back
   * (with shared stores): as JSON when nothing was sent before it, else as the last event of the
   * request's stream. A request the client cancelled gets no response.
   */
  answered(response: JSONRPCResponse): void {
    const { registry, report } = this.#entry;
    if (!registry.shared) {
      this.#settle(response);
      return;
    }
    registry
      .persist(this.session)
      .catch(report)
      .then(() => this.#settle(response))
      .catch(this.#outcome.reject);
  }

  #settle(response: JSONRPCResponse): void {
    const { session } = this;
    const { resolve, reject, onDone } = this.#outcome;
    this.#settled = true;
    if (this.#linked) this.#exchange.signal.removeEventListener("abort", this);
    session.finishRequest(this);
    const stream = this.#stream;
    if (stream !== undefined) {
      session
        .finishStream(stream, this.#cancelled() ? undefined : response)
        .catch(this.#entry.report)
        .finally(onDone);
      return;
    }
    onDone();
    let answer: HttpServerAnswer;
    try {
      answer = this.#cancelled()
        ? cancelledAnswer(session, this.#streamable, this.id)
        : (scopeChallengeAnswer(response, this.#entry.challenge) ?? jsonAnswer(response));
    } catch (error) {
      reject(error); // a result JSON cannot encode
      return;
    }
    resolve(answer);
  }

  /** The client going away (the exchange's signal): a cancellation until the stream opened. */
  handleEvent(): void {
    if (this.#stream === undefined) this.abort(this.#exchange.signal.reason);
  }

  /** The client cancelled the request (`notifications/cancelled`): it gets no response. */
  #cancelled(): boolean {
    return this.#aborted && !this.session.ended;
  }

  #live(): boolean {
    return !this.#settled && !this.session.ended;
  }

  #send(message: JSONRPCMessage): void {
    if (this.#live()) this.#open().send(message);
  }

  #controllerOf(): AbortController {
    if (this.#controller !== undefined) return this.#controller;
    const controller = new AbortController();
    this.#controller = controller;
    if (this.#aborted) {
      controller.abort(this.#reason);
    } else if (!this.#settled && this.#stream === undefined) {
      const { signal } = this.#exchange;
      if (signal.aborted) {
        this.abort(signal.reason);
      } else {
        signal.addEventListener("abort", this, { once: true });
        this.#linked = true;
      }
    }
    return controller;
  }

  /**
   * The request's stream, opened at its first message: the answer becomes that SSE stream, once
   * the event store took its priming event (so a client that got the headers can always resume,
   * and an instance that dies before sending them lets a proxy pass the request to another); a
   * priming event the store refused refuses the request (503) and stops its handler.
   */
  #open(): ResumableStream {
    if (this.#stream !== undefined) return this.#stream;
    const stream = this.session.openStream(this.id);
    const readable = stream.connect();
    this.#stream = stream;
    const { resolve, reject } = this.#outcome;
    stream.settled().then(() => {
      const failure = stream.primingFailure;
      if (failure === undefined) {
        resolve(sseAnswer(readable));
        return;
      }
      // A stream without a place in the store could not be resumed: the request is refused (503,
      // the client sends it again later) and its handler stopped, rather than streamed.
      const refused = failure.error instanceof StateFailure ? failure.error : new StateFailure(failure.error);
      this.abort(refused);
      stream.abandon(refused);
      reject(refused);
    }, reject);
    return stream;
  }
}

/** A JSON answer of a response on a session: HTTP 200 (JSON-RPC errors included). */
function jsonAnswer(response: JSONRPCResponse): HttpServerAnswer {
  return { kind: "json", status: 200, text: JSON.stringify(response) };
}

/**
 * The answer to a request the client cancelled before anything was sent: an SSE stream that ends
 * at once, or 202 without a body for a client that does not accept SSE.
 */
function cancelledAnswer(session: HttpSession, streamable: boolean, requestId: RequestId): HttpServerAnswer {
  if (!streamable) return { kind: "empty", status: 202 };
  const empty = session.openStream(requestId);
  const emptyReadable = empty.connect();
  void session.finishStream(empty);
  return sseAnswer(emptyReadable);
}
