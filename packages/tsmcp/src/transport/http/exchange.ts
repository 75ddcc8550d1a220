/**
 * The server side's exchange types: one HTTP request as the handler reads it ({@link HttpExchange}),
 * its body as read ({@link BodyText}), and the answer before it becomes a `Response`
 * ({@link HttpServerAnswer}). A leaf the handler, the authentication hook, CORS and the front ends share,
 * so none of them imports another to name these shapes.
 * Spec: basic/transports (Streamable HTTP).
 */
import type { AuthInfo, HeaderReader } from "../dispatcher.js";

/**
 * The outcome of `readBodyText`: the text, a body over the limit, undecodable bytes, a
 * body that never ended (the client went away mid-upload: nobody is left to answer), a body that
 * something before the handler already read (a middleware), or the value a framework's body
 * parser already made of it (`req.body`).
 */
export type BodyText =
  | { kind: "text"; text: string }
  | { kind: "too-large" }
  | { kind: "invalid-utf8" }
  | { kind: "aborted" }
  | { kind: "already-read" }
  | { kind: "parsed"; value: unknown };

/**
 * A byte sink an SSE answer stream ({@link AnswerStream}) writes to directly, without a web
 * stream: what it needs of a `node:http` `ServerResponse` (which satisfies it). `writableLength`
 * is the bytes it holds that the socket has not taken; `close` fires when the connection or the
 * response ends.
 */
export interface SseWritable {
  readonly writableLength: number;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  write(chunk: Uint8Array): boolean;
  end(): void;
  destroy(error?: Error): void;
  once(event: "close", listener: () => void): unknown;
}

/**
 * What a front end needs of an SSE answer's stream (the handler's `SseStream` implements it): the
 * bytes as a web stream, or written straight to a socket, and a way to end it early.
 */
export interface AnswerStream {
  /** The stream's bytes as a web stream (for a `Response` body). */
  readonly readable: ReadableStream<Uint8Array>;
  /** Writes the stream's bytes straight to `target` instead of a web stream. */
  pipeTo(target: SseWritable): void;
  /** Ends the stream. */
  close(): void;
}

/**
 * An HTTP answer before it becomes a `Response`: a JSON body (status 200, or an error status), no
 * body (202 for a notification), each with optional extra headers (CORS), an SSE stream (status 200, `SSE_HEADERS`) that the front end
 * takes as a web stream or writes straight to its socket, or any other streaming `Response`.
 */
export type HttpServerAnswer =
  | { kind: "json"; status: number; text: string; headers?: Record<string, string> }
  | { kind: "empty"; status: number; headers?: Record<string, string> }
  | { kind: "sse"; stream: AnswerStream; headers?: Record<string, string> }
  | { kind: "response"; response: Response };

/**
 * One HTTP request as the handler reads it: what a web `Request` offers, minus the body stream. The
 * web handler builds it from a `Request`; the Node adapter builds it from `node:http` objects, so
 * that a JSON exchange never constructs a web `Request` body or `Response` (the costliest part of
 * an exchange on Node 20).
 */
export interface HttpExchange {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** Reads the body as UTF-8 text under the limit, with the semantics of `readBodyText`. */
  readBody(maxBodyBytes: number): Promise<BodyText>;
  /**
   * The identity the request was authenticated as. Set by the handler from its `authenticate`
   * hook (a front end leaves it unset).
   */
  readonly auth?: AuthInfo;
  /**
   * Makes `controller` the exchange's abort controller when its signal was not made yet (so that
   * a dispatch needs no second one); false otherwise. Optional: a web `Request` has its own signal.
   */
  adoptAbortController?(controller: AbortController): boolean;
}
