/**
 * Reading a Server-Sent Events stream of JSON-RPC messages on the client: each `message` event
 * carries one message; an event's `id` is the cursor a client resumes from (`Last-Event-ID`) and a
 * `retry` field how long to wait before reconnecting; an event with empty data (the priming event
 * a server sends first) only moves the cursor. Parsing uses `eventsource-parser` (comment lines,
 * keep-alives, CRLF). Spec: basic/transports/streamable-http; (2025-11-25) basic/transports
 * §Sending Messages to the Server, §Resumability and Redelivery.
 */
import { createParser } from "eventsource-parser";
import { type JSONRPCMessage, parseMessage } from "../../../protocol/jsonrpc.js";
import { exceedsBytes } from "../../../protocol/text.js";
import { TransportError } from "../../transport.js";
import type { HttpClientAnswer } from "./http-answer.js";

/** Where a client stands in one SSE stream: what it resumes from and how long it waits first. */
export interface SseCursor {
  /** The id of the last event received; undefined until one came with an id. */
  lastEventId: string | undefined;
  /** The server's last `retry:` value in milliseconds; undefined until one came. */
  retryMs: number | undefined;
}

/** A new cursor: nothing received yet. */
export function newCursor(): SseCursor {
  return { lastEventId: undefined, retryMs: undefined };
}

/** What a stream reading ended with. */
export type StreamEnd = "stopped" | "ended";

/** Options of {@link readSseMessages}. */
export interface ReadSseOptions {
  /** The largest event (or unfinished line), in UTF-8 bytes; a larger one fails the reading. */
  maxEventBytes: number;
  /** Updated as events with `id` and `retry` fields arrive. */
  cursor: SseCursor;
  /**
   * Receives every JSON-RPC message of a `message` event (or an event without a type), in order.
   * Returning true stops the reading: the stream is released and not read further.
   */
  onMessage: (message: JSONRPCMessage) => boolean | undefined;
  /** Called once per event received, priming events included. */
  onEvent?: () => void;
}

/**
 * Reads the body of `answer` until `onMessage` returns true (`"stopped"`) or the stream ends (`"ended"`).
 * Events of other types are skipped.
 *
 * @throws TransportError when an event exceeds `maxEventBytes` or carries data that is not a
 *   JSON-RPC message; whatever `onMessage` throws; the read error when the connection fails.
 */
export async function readSseMessages(answer: HttpClientAnswer, options: ReadSseOptions): Promise<StreamEnd> {
  const { maxEventBytes, cursor, onMessage, onEvent } = options;
  let stopped = false;
  let failure: unknown;
  const tooLarge = () => new TransportError(`an SSE event exceeds maxResponseBytes (${maxEventBytes} bytes)`);
  const parser = createParser({
    maxBufferSize: maxEventBytes,
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") failure ??= tooLarge();
    },
    onRetry(retry) {
      cursor.retryMs = retry;
    },
    onEvent(event) {
      if (stopped || failure !== undefined) return;
      if (event.id !== undefined) cursor.lastEventId = event.id;
      onEvent?.();
      if (exceedsBytes(event.data, maxEventBytes)) {
        failure = tooLarge();
        return;
      }
      if (event.event !== undefined && event.event !== "message") return;
      if (event.data === "") return;
      const parsed = parseMessage(event.data);
      if (parsed.kind === "invalid") {
        failure = new TransportError(`the SSE stream carried an invalid message: ${parsed.error.message}`);
        return;
      }
      try {
        if (onMessage(parsed.message) === true) stopped = true;
      } catch (error) {
        failure = error;
      }
    },
  });
  // Decoded chunks go to the parser as they arrive; a stop or a failure releases the body.
  await answer.read((text) => {
    parser.feed(text);
    return stopped || failure !== undefined;
  });
  if (failure !== undefined) throw failure;
  return stopped ? "stopped" : "ended";
}
