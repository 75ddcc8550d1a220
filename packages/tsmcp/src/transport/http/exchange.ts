/**
 * The server side's exchange types: one HTTP request as the handler reads it ({@link HttpExchange}),
 * its body as read ({@link BodyText}), and the answer before it becomes a `Response`
 * ({@link HttpAnswer}). A leaf the handler, the authentication hook, CORS and the front ends share,
 * so none of them imports another to name these shapes.
 * Spec: basic/transports (Streamable HTTP).
 */
import type { AuthInfo, HeaderReader } from "../dispatcher.js";
import type { SseStream } from "./sse.js";

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
 * An HTTP answer before it becomes a `Response`: a JSON body (status 200, or an error status), no
 * body (202 for a notification), each with optional extra headers (CORS), an SSE stream (status 200, `SSE_HEADERS`) that the front end
 * takes as a web stream or writes straight to its socket, or any other streaming `Response`.
 */
export type HttpAnswer =
  | { kind: "json"; status: number; text: string; headers?: Record<string, string> }
  | { kind: "empty"; status: number; headers?: Record<string, string> }
  | { kind: "sse"; stream: SseStream; headers?: Record<string, string> }
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
