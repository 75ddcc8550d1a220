/**
 * Serving one client request on a handshake-era session: dispatched with the session's
 * environment and answered as JSON, or, once the dispatcher sends a message first, as a resumable
 * SSE stream (its notifications and server -> client requests, then its response). Spec
 * (2025-11-25): basic/transports §Sending Messages to the Server, §Resumability and Redelivery;
 * basic/utilities/cancellation.
 */
import { internalError, McpError } from "../../../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from "../../../protocol/jsonrpc.js";
import type { AuthInfo, Dispatcher, HeaderReader, RequestEnvironment } from "../../dispatcher.js";
import { acceptsEventStream } from "../media-type.js";
import type { HttpServerAnswer } from "../server/answer.js";
import { type Authenticate, scopeChallengeAnswer } from "../server/authenticate.js";
import type { SseStream } from "../server/sse.js";
import type { CheckedSessionOptions } from "./options.js";
import type { SessionRegistry } from "./registry.js";
import type { HttpSession } from "./session.js";
import { StateFailure } from "./state-guard.js";
import type { ResumableStream } from "./stream.js";

/** The request side the legacy entry reads. */
export interface LegacyExchange {
  readonly headers: HeaderReader;
  readonly signal: AbortSignal;
  /** The identity the request was authenticated as. */
  readonly auth?: AuthInfo;
}

/** What the legacy entry needs from its handler. */
export interface LegacyEntryOptions {
  readonly dispatcher: Dispatcher;
  readonly registry: SessionRegistry;
  readonly mode: Exclude<CheckedSessionOptions["legacy"], "reject">;
  /** Receives a dispatcher failure. Must not throw. */
  readonly report: (error: unknown) => void;
  /** Builds the 403 challenge of an insufficient-scope refusal answered as JSON. */
  readonly challenge?: Authenticate["challenge"];
}

function json(body: unknown, status: number, headers?: Record<string, string>): HttpServerAnswer {
  return { kind: "json", status, text: JSON.stringify(body), ...(headers === undefined ? {} : { headers }) };
}

/** The answer of an SSE stream. */
export function sseAnswer(stream: SseStream): HttpServerAnswer {
  return { kind: "sse", stream };
}

/** The environment of a message on `session`: its signal, headers, session and identity. */
export function baseEnv(
  exchange: LegacyExchange,
  signal: AbortSignal,
  session: HttpSession,
): RequestEnvironment {
  const env: RequestEnvironment = { signal, headers: exchange.headers, session, networkTransport: "tcp" };
  if (exchange.auth !== undefined) env.auth = exchange.auth;
  return env;
}

/** A JSON answer of a response on a session: HTTP 200, or 403 with the step-up challenge. */
function sessionAnswer(
  response: JSONRPCResponse,
  challenge: LegacyEntryOptions["challenge"],
): HttpServerAnswer {
  return scopeChallengeAnswer(response, challenge) ?? json(response, 200);
}

/** Dispatches, turning a rejection or a missing response into -32603 (the cause reported). */
export async function dispatch(
  entry: LegacyEntryOptions,
  message: JSONRPCRequest,
  env: RequestEnvironment,
): Promise<JSONRPCResponse> {
  try {
    const response = await entry.dispatcher.handle(message, env);
    if (response !== undefined) return response;
    entry.report(new Error(`the dispatcher answered ${message.method} with nothing`));
  } catch (error) {
    entry.report(error);
  }
  return errorResponse(message.id, internalError());
}

/** Dispatches a notification, reporting a rejection. */
export async function dispatchNotification(
  entry: LegacyEntryOptions,
  message: JSONRPCNotification,
  env: RequestEnvironment,
): Promise<void> {
  try {
    await entry.dispatcher.handle(message, env);
  } catch (error) {
    entry.report(error);
  }
}

/**
 * The SSE stream of one request on a session, opened at its first event: until then the request
 * may still be answered as JSON.
 */
interface LazyStream {
  /** The stream, opening it (and resolving {@link firstEvent}) on the first call. */
  open(): ResumableStream;
  /** True once {@link open} was called. */
  isOpen(): boolean;
  /** The stream and its readable side once opened, else undefined. */
  opened(): { readonly stream: ResumableStream; readonly readable: SseStream } | undefined;
  /** Resolves when the stream opens. */
  readonly firstEvent: Promise<void>;
}

/** A {@link LazyStream} on `session`. */
function lazyStream(session: HttpSession, requestId: RequestId): LazyStream {
  let stream: ResumableStream | undefined;
  let readable: SseStream | undefined;
  let resolveFirstEvent!: () => void;
  const firstEvent = new Promise<void>((resolve) => {
    resolveFirstEvent = resolve;
  });
  return {
    open() {
      if (stream === undefined) {
        stream = session.openStream(requestId);
        readable = stream.connect();
        resolveFirstEvent();
      }
      return stream;
    },
    isOpen: () => stream !== undefined,
    opened: () => (stream === undefined || readable === undefined ? undefined : { stream, readable }),
    firstEvent,
  };
}

/**
 * The environment of a request on `session`: with SSE, `notify`, `closeSseStream` and (with the
 * back-channel) `request` over its lazy stream; without, the back-channel over the session's GET
 * stream, when it has one. A request served without a session (the stateless mode) has no
 * `request` and refuses one with {@link backChannelUnavailable}.
 */
function requestEnv(
  exchange: LegacyExchange,
  session: HttpSession,
  signal: AbortSignal,
  lazy: LazyStream,
  flags: { readonly streamable: boolean; readonly backChannel: boolean; readonly settled: () => boolean },
): RequestEnvironment {
  const env = baseEnv(exchange, signal, session);
  const live = () => !flags.settled() && !session.ended;
  const send = (outgoing: JSONRPCMessage) => {
    if (live()) lazy.open().send(outgoing);
  };
  if (flags.streamable) {
    env.notify = send;
    if (flags.backChannel) env.request = session.backChannel(send);
    env.closeSseStream = () => {
      if (live()) lazy.open().closeConnection();
    };
  } else if (flags.backChannel && session.request !== undefined) {
    env.request = session.request;
  }
  if (!flags.backChannel) env.backChannelRefusal = backChannelUnavailable;
  return env;
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

/**
 * Serves one request on `session`: JSON when the dispatcher answers before sending anything, else
 * an SSE stream (priming event, the related notifications and requests, the response). The
 * stream may be closed early (`closeSseStream`) or lost; the client resumes it with GET and
 * `Last-Event-ID`. Only `notifications/cancelled` (or the session's end) aborts the request, as
 * a lost connection is no cancellation, except before any event id reached the client. A request
 * the client cancelled gets no response (basic/utilities/cancellation: the receiver should not
 * respond): its SSE stream ends without it, or, when it had sent nothing yet, the POST is answered
 * as {@link cancelledAnswer} says. A client that does not accept `text/event-stream` gets no
 * notifications, and its request's server -> client requests go on the session's GET stream
 * instead.
 */
export async function serveRequest(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  session: HttpSession,
  message: JSONRPCRequest,
  backChannel: boolean,
  onDone: () => void = () => {},
): Promise<HttpServerAnswer> {
  const streamable = acceptsEventStream(exchange.headers.get("accept"));
  const controller = new AbortController();
  const release = session.hold();
  const untrack = session.trackIncoming(message.id, controller);
  const onSessionEnd = () => controller.abort(session.signal.reason);
  session.signal.addEventListener("abort", onSessionEnd, { once: true });
  const lazy = lazyStream(session, message.id);
  let settled = false;
  /** The client cancelled the request (`notifications/cancelled`): it gets no response. */
  const cancelled = () => controller.signal.aborted && !session.ended;
  const onClientGone = () => {
    if (!lazy.isOpen()) controller.abort(exchange.signal.reason);
  };
  exchange.signal.addEventListener("abort", onClientGone, { once: true });

  const env = requestEnv(exchange, session, controller.signal, lazy, {
    streamable,
    backChannel,
    settled: () => settled,
  });
  const outcome = dispatch(entry, message, env).then(async (response) => {
    await entry.registry.persist(session).catch(entry.report);
    settled = true;
    exchange.signal.removeEventListener("abort", onClientGone);
    session.signal.removeEventListener("abort", onSessionEnd);
    untrack();
    release();
    return response;
  });
  await Promise.race([outcome, lazy.firstEvent]);
  const opened = lazy.opened();
  if (opened === undefined) {
    const response = await outcome;
    onDone();
    return cancelled()
      ? cancelledAnswer(session, streamable, message.id)
      : sessionAnswer(response, entry.challenge);
  }
  void outcome
    .then((response) => session.finishStream(opened.stream, cancelled() ? undefined : response))
    .catch(entry.report)
    .finally(onDone);
  // The answer's headers go out with its priming event once the store took it: a client that got
  // the headers can always resume, and an instance that dies before sending them lets a proxy
  // pass the request to another.
  await opened.stream.settled();
  const failure = opened.stream.primingFailure;
  if (failure !== undefined) {
    // A stream without a place in the store could not be resumed: the request is refused (503,
    // the client sends it again later) and its handler stopped, rather than streamed.
    const refused = failure.error instanceof StateFailure ? failure.error : new StateFailure(failure.error);
    controller.abort(refused);
    opened.stream.abandon(refused);
    throw refused;
  }
  return sseAnswer(opened.readable);
}
