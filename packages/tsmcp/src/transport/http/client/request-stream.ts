/**
 * Reading the SSE stream that answers one POSTed request: the messages before the response go to
 * `route` (notifications, the server's requests), the response ends the reading. On a 2025-era
 * session a stream that ends before the response, after an event id, is resumed: after the
 * server's `retry:`, a GET with `Last-Event-ID` carries the rest (SSE polling); after `maxAttempts`
 * resumptions in a row that delivered no message (failed, or priming events only) it gives up.
 * Spec (2025-11-25): basic/transports §Sending Messages to the Server, §Resumability and
 * Redelivery.
 */
import type { JSONRPCMessage, JSONRPCRequest, JSONRPCResponse } from "../../../protocol/jsonrpc.js";
import { SessionExpiredError, TransportError } from "../../transport.js";
import { newCursor, readSseMessages } from "./event-stream.js";
import type { HttpClientAnswer } from "./http-answer.js";
import { linkedController, type ReconnectPolicy, reconnectDelay, sleep } from "./reconnect.js";

/** Options of {@link readRequestStream}. */
export interface RequestStreamOptions {
  readonly request: JSONRPCRequest;
  readonly maxEventBytes: number;
  readonly reconnect: ReconnectPolicy;
  /** Aborts the reading and any wait (the request was cancelled or the transport closed). */
  readonly signal: AbortSignal;
  /** True when a stream that ended early may be resumed (a 2025-era session). */
  resumable(): boolean;
  /** Opens the stream again after `lastEventId` (a GET); throws when it cannot. */
  resume(lastEventId: string, signal: AbortSignal): Promise<HttpClientAnswer | undefined>;
  /** Receives every message of the stream that is not the response. */
  route(message: JSONRPCMessage): void;
}

/**
 * Reads `first`, and the resumed connections after it, until the response to `request`.
 *
 * @throws TransportError when the stream ends without the response and cannot be resumed (not
 *   resumable, no event id yet, or `maxAttempts` resumptions in a row delivered no message: the
 *   last failure is the cause);
 *   SessionExpiredError when the session ends meanwhile; the signal's reason when it aborts;
 *   what {@link readSseMessages} throws.
 */
export async function readRequestStream(
  first: HttpClientAnswer,
  options: RequestStreamOptions,
): Promise<JSONRPCResponse> {
  const { request, maxEventBytes, reconnect, signal } = options;
  const cursor = newCursor();
  let body: HttpClientAnswer | undefined = first;
  // The resumed connection's own controller (none for `first`), unlinked when it ends.
  let connection: { unlink(): void } | undefined;
  // Resumptions in a row that delivered no message (failed, or priming events only).
  let failures = 0;
  let resumed = false;
  let lastFailure: unknown;
  for (;;) {
    let result: JSONRPCResponse | undefined;
    let delivered = false;
    try {
      if (body !== undefined) {
        await readSseMessages(body, {
          maxEventBytes,
          cursor,
          onMessage: (message) => {
            delivered = true;
            if (!("method" in message) && message.id === request.id) {
              result = message;
              return true;
            }
            options.route(message);
            return false;
          },
        });
      }
    } catch (error) {
      // A lost connection is no cancellation: on a session the stream is resumed below.
      const lost = !(error instanceof TransportError) && !signal.aborted && options.resumable();
      if (!lost) throw error;
      lastFailure = error;
    } finally {
      connection?.unlink();
      connection = undefined;
    }
    if (result !== undefined) return result;
    if (!options.resumable() || cursor.lastEventId === undefined) {
      throw new TransportError(
        `the SSE stream ended without the response to request ${JSON.stringify(request.id)}`,
      );
    }
    if (delivered) failures = 0;
    else if (resumed) failures++;
    if (failures >= reconnect.maxAttempts) {
      throw new TransportError(
        `the SSE stream of request ${JSON.stringify(request.id)} ended without its response and could ` +
          `not be resumed after ${reconnect.maxAttempts} attempts`,
        { cause: lastFailure },
      );
    }
    await sleep(reconnectDelay(reconnect, cursor, failures), signal);
    resumed = true;
    body = undefined;
    const linked = linkedController(signal);
    try {
      body = await options.resume(cursor.lastEventId, linked.signal);
      connection = linked;
    } catch (error) {
      linked.unlink();
      if (error instanceof SessionExpiredError || signal.aborted) throw error;
      lastFailure = error;
    }
  }
}
