/**
 * Serving one client request on a handshake-era session: dispatched with the session's
 * environment and answered as JSON, or, once the dispatcher sends a message first, as a resumable
 * SSE stream (its notifications and server -> client requests, then its response). Spec
 * (2025-11-25): basic/transports §Sending Messages to the Server, §Resumability and Redelivery;
 * basic/utilities/cancellation.
 */
import { internalError } from "../../../protocol/errors.js";
import {
  errorResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
} from "../../../protocol/jsonrpc.js";
import type { RequestEnvironment } from "../../dispatcher.js";
import { acceptsEventStream } from "../media-type.js";
import type { HttpServerAnswer } from "../server/answer.js";
import type { CheckedSessionOptions } from "./options.js";
import type { HttpSession } from "./session.js";
import { type SessionExchange, SessionRequest, type SessionRequestEntry } from "./session-request.js";

export { backChannelUnavailable, sseAnswer } from "./session-request.js";

/** The request side the legacy entry reads. */
export type LegacyExchange = SessionExchange;

/** What the legacy entry needs from its handler. */
export interface LegacyEntryOptions extends SessionRequestEntry {
  readonly mode: Exclude<CheckedSessionOptions["legacy"], "reject">;
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

/** Dispatches, turning a rejection or a missing response into -32603 (the cause reported). */
export function dispatch(
  entry: LegacyEntryOptions,
  message: JSONRPCRequest,
  env: RequestEnvironment,
): Promise<JSONRPCResponse> {
  let handled: Promise<JSONRPCResponse | undefined>;
  try {
    handled = entry.dispatcher.handle(message, env);
  } catch (error) {
    handled = Promise.reject(error);
  }
  return handled.then(
    (response) => {
      if (response !== undefined) return response;
      entry.report(new Error(`the dispatcher answered ${message.method} with nothing`));
      return errorResponse(message.id, internalError());
    },
    (error: unknown) => {
      entry.report(error);
      return errorResponse(message.id, internalError());
    },
  );
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
 * Serves one request on `session`: JSON when the dispatcher answers before sending anything, else
 * an SSE stream (priming event, the related notifications and requests, the response). The
 * stream may be closed early (`closeSseStream`) or lost; the client resumes it with GET and
 * `Last-Event-ID`. Only `notifications/cancelled` (or the session's end) aborts the request, as
 * a lost connection is no cancellation, except before any event id reached the client. A request
 * the client cancelled gets no response (basic/utilities/cancellation: the receiver should not
 * respond): its SSE stream ends without it, or, when it had sent nothing yet, the POST is answered
 * as an SSE stream that ends at once (202 without a body for a client that does not accept SSE). A client that does not accept `text/event-stream` gets no
 * notifications, and its request's server -> client requests go on the session's GET stream
 * instead. Rejects when the event store fails to take the stream's priming event, or when the
 * response cannot be encoded.
 */
export function serveRequest(
  entry: LegacyEntryOptions,
  exchange: LegacyExchange,
  session: HttpSession,
  message: JSONRPCRequest,
  backChannel: boolean,
  onDone: () => void = nothingToDo,
): Promise<HttpServerAnswer> {
  return new Promise<HttpServerAnswer>((resolve, reject) => {
    const streamable = acceptsEventStream(exchange.headers.get("accept"));
    const outcome = { resolve, reject, onDone };
    const request = new SessionRequest(
      entry,
      exchange,
      session,
      message.id,
      streamable,
      backChannel,
      outcome,
    );
    session.beginRequest(request);
    dispatch(entry, message, request)
      .then((response) => request.answered(response))
      .catch(reject);
  });
}

function nothingToDo(): void {}
