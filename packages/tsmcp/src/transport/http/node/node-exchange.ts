/**
 * One `node:http` request as the shared exchange handler reads it, and its answer written back to
 * the `ServerResponse`: headers are read from `IncomingMessage.headers` (no web `Headers`), the body
 * straight from the Node stream, the abort signal is made only when something asks for it (or
 * adopted from the dispatch), and a JSON answer is written with one `writeHead` + `end` (an SSE
 * answer is written by its stream, `SseStream.pipeTo`). Spec: basic/transports/streamable-http.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Http2Stream } from "node:http2";
import { McpError } from "../../../protocol/errors.js";
import { errorResponse } from "../../../protocol/jsonrpc.js";
import type { HeaderReader } from "../../dispatcher.js";
import type { HttpServerAnswer } from "../server/answer.js";
import { type BodyText, BoundedBody } from "../server/body.js";
import { bodyOfParsed } from "../server/parsed-body.js";
import { isProtectedResourceMetadataPath } from "../server/resource-metadata.js";
import type { HttpExchange } from "../server/server-handler.js";

/**
 * The request headers of `node:http` read through `get`, as web `Headers` are: names are
 * case-insensitive, absent is `null`, a repeated header is its values joined with ", ".
 */
class IncomingHeaders implements HeaderReader {
  readonly #raw: IncomingHttpHeaders;
  readonly #incoming: IncomingMessage;

  constructor(incoming: IncomingMessage) {
    this.#incoming = incoming;
    this.#raw = incoming.headers;
  }

  #authorization(): string | null {
    const values = this.#incoming.headersDistinct.authorization;
    return values === undefined ? null : values.join(", ");
  }

  get(name: string): string | null {
    const lower = name.toLowerCase();
    // node:http keeps only the first of repeated `Authorization` headers; a web `Request` joins them
    // (so a bearer check refuses both), and a proxy may read the last: read every one here too.
    if (lower === "authorization") return this.#authorization();
    if (lower === "host") return hostOf(this.#incoming) ?? null;
    const value = this.#raw[lower];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  /** Every header but HTTP/2's pseudo-headers (`:authority` is read as `host`). */
  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of Object.entries(this.#raw)) {
      if (name === "authorization") callback(this.#authorization() ?? "", name);
      else if (name.charCodeAt(0) === 0x3a /* ":" */) continue;
      else if (value !== undefined) callback(typeof value === "string" ? value : value.join(", "), name);
    }
    const authority = this.#raw.host === undefined ? hostOf(this.#incoming) : undefined;
    if (authority !== undefined) callback(authority, "host");
  }
}

/**
 * The request's `host[:port]`: its `Host` header, else (HTTP/2, whose requests carry the authority
 * in the `:authority` pseudo-header instead, RFC 9113 §8.3.1) `:authority`; undefined when neither.
 */
export function hostOf(incoming: IncomingMessage): string | undefined {
  const { headers } = incoming;
  if (headers.host !== undefined) return headers.host;
  const authority = headers[":authority"];
  return typeof authority === "string" ? authority : undefined;
}

/** The reason the signal of a request aborts with when its client goes away. */
const CLIENT_GONE = "the client closed the connection";

/**
 * The exchange of one `node:http` request. The signal is created on first use and aborts when the
 * response closes before it finished (the client went away), or when {@link abort} is called
 * (the server is shutting down).
 */
export class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly headers: HeaderReader;
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
  #controller: AbortController | undefined;
  readonly #parsedBody: unknown;

  /** `parsedBody`: what a body parser that consumed the request stream left (`req.body`), if any. */
  constructor(incoming: IncomingMessage, outgoing: ServerResponse, parsedBody?: unknown) {
    this.incoming = incoming;
    this.outgoing = outgoing;
    this.#parsedBody = parsedBody;
    this.method = incoming.method ?? "GET";
    this.headers = new IncomingHeaders(incoming);
  }

  /** The request URL, built only when read (the handler reads the `Host` header instead). */
  get url(): string {
    const target = this.incoming.url ?? "/";
    // An absolute-form target (`POST http://host/mcp HTTP/1.1`) is the URL itself.
    if (target.charCodeAt(0) !== 0x2f /* "/" */) return target;
    return `http://${hostOf(this.incoming) ?? "localhost"}${target}`;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) this.adoptAbortController(new AbortController());
    return (this.#controller as AbortController).signal;
  }

  adoptAbortController(controller: AbortController): boolean {
    if (this.#controller !== undefined) return false;
    this.#controller = controller;
    // A signal made after the client left starts aborted.
    if (this.outgoing.closed) {
      if (!this.outgoing.writableFinished) controller.abort(new Error(CLIENT_GONE));
      return true;
    }
    this.outgoing.once("close", () => {
      if (!this.outgoing.writableFinished) controller.abort(new Error(CLIENT_GONE));
    });
    return true;
  }

  /** Aborts the signal with `reason` (creating it, so that a later reader sees it aborted). */
  abort(reason: Error): void {
    const signal = this.signal;
    if (!signal.aborted) this.#controller?.abort(reason);
  }

  /**
   * Reads the body from the stream; once something else consumed it, from the value it left
   * (`already-read` when there is none: the stream would never end again).
   */
  readBody(maxBodyBytes: number): Promise<BodyText> {
    const { incoming } = this;
    if (!incoming.readableDidRead && !incoming.readableEnded) return readIncomingText(incoming, maxBodyBytes);
    if (this.#parsedBody === undefined) return Promise.resolve({ kind: "already-read" });
    return Promise.resolve(bodyOfParsed(this.#parsedBody, incoming.headers["content-length"], maxBodyBytes));
  }
}

/**
 * Reads a `node:http` request body as UTF-8 text, at most `maxBodyBytes` bytes: the outcomes of
 * `readBodyText`, straight from the Node stream. On `too-large` it stops reading and leaves the rest
 * to the caller (the adapter drains or closes the connection); `aborted` when the stream errors or
 * closes before its end. Never rejects.
 */
function readIncomingText(incoming: IncomingMessage, maxBodyBytes: number): Promise<BodyText> {
  const body = new BoundedBody(maxBodyBytes);
  if (body.declaresTooMuch(incoming.headers["content-length"])) return Promise.resolve({ kind: "too-large" });
  return new Promise((resolve) => new IncomingBodyRead(incoming, body, resolve));
}

/**
 * One body being read from a `node:http` request: feeds the chunks to `body` and settles once.
 * Past the limit it takes its listeners off and pauses the stream (whatever reads or drains the
 * rest must not feed it); at the end or an abort it settles and ignores later events (the stream
 * emits no more data after either). The listeners are made in the constructor rather than as
 * named closures: this runs on every request, and a named function expression costs a property
 * definition each time in the bundled build (which keeps function names).
 */
class IncomingBodyRead {
  readonly #incoming: IncomingMessage;
  readonly #body: BoundedBody;
  readonly #resolve: (text: BodyText) => void;
  readonly #onData: (chunk: Buffer) => void;
  readonly #onEnd: () => void;
  readonly #onAborted: () => void;
  #settled = false;

  constructor(incoming: IncomingMessage, body: BoundedBody, resolve: (text: BodyText) => void) {
    this.#incoming = incoming;
    this.#body = body;
    this.#resolve = resolve;
    this.#onData = (chunk) => this.#data(chunk);
    this.#onEnd = () => {
      if (!this.#settled) this.#settle(this.#body.text());
    };
    this.#onAborted = () => this.#settle({ kind: "aborted" });
    incoming.on("data", this.#onData);
    incoming.on("end", this.#onEnd);
    incoming.on("error", this.#onAborted);
    incoming.on("close", this.#onAborted);
  }

  #data(chunk: Buffer): void {
    if (this.#settled || this.#body.push(chunk)) return;
    this.#settle({ kind: "too-large" });
    const incoming = this.#incoming;
    incoming.off("data", this.#onData);
    incoming.off("end", this.#onEnd);
    incoming.off("error", this.#onAborted);
    incoming.off("close", this.#onAborted);
    incoming.pause();
  }

  #settle(text: BodyText): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(text);
  }
}

/** Where a request target goes: the MCP endpoint, a plain 404, or a malformed target. */
export type TargetRoute = "endpoint" | "not-found" | "malformed";

/**
 * Routes a request target (`incoming.url`) by its path, compared as sent (no dot-segment or
 * percent-decoding: `/mcp/../mcp` is not the endpoint). An origin-form target (`/mcp?x=1`) is
 * cut at `?`; an absolute-form one (`http://host/mcp`, RFC 9112 §3.2.2) is parsed; anything else
 * (`*`, garbage) is malformed. The one place that decides which paths the handler serves.
 */
export function routeTarget(target: string | undefined, path: string): TargetRoute {
  if (target === undefined || target.length === 0) return "malformed";
  if (target.charCodeAt(0) === 0x2f /* "/" */) {
    const query = target.indexOf("?");
    return routePath(query === -1 ? target : target.slice(0, query), path);
  }
  if (!/^https?:\/\//i.test(target)) return target === "*" ? "not-found" : "malformed";
  try {
    return routePath(new URL(target).pathname, path);
  } catch {
    return "malformed";
  }
}

/**
 * The endpoint path and the protected resource metadata paths (`/.well-known/oauth-protected-resource`
 * and its path-suffixed forms, RFC 9728 §3) go to the handler; any other path is not found.
 */
function routePath(pathname: string, path: string): TargetRoute {
  return pathname === path || isProtectedResourceMetadataPath(pathname) ? "endpoint" : "not-found";
}

/** `host[:port]` as RFC 9110 §7.2 allows it, the port at most 65535. */
const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[^\s/?#@[\]:\\]+)(?::(\d{0,5}))?$/;

/** The last `Host` value checked and its verdict: a client sends the same one on every request. */
let lastHost: string | undefined;
let lastWellFormed = false;

/** True when a `Host` header value is well formed; a missing one is not. */
export function isWellFormedHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  if (host !== lastHost) {
    const match = HOST.exec(host);
    lastWellFormed =
      match !== null && (match[1] === undefined || match[1] === "" || Number(match[1]) <= 65535);
    lastHost = host;
  }
  return lastWellFormed;
}

/** The JSON-RPC refusal of a request whose `Host` or target cannot be read (-32600, HTTP 400). */
export const MALFORMED_REQUEST: PlainAnswer = Object.freeze({
  kind: "json",
  status: 400,
  text: JSON.stringify(
    errorResponse(
      undefined,
      McpError.of("INVALID_REQUEST", "Invalid Request: malformed Host header or request target"),
    ),
  ),
});

/** An answer with no stream: JSON, or no body. */
export type PlainAnswer = Extract<HttpServerAnswer, { kind: "json" | "empty" }>;

/**
 * Stops the upload of a request answered before its body was all received (413, a refusal or a
 * preflight answered before reading): otherwise `node:http` would read and discard whatever the
 * client still sends, with no limit, to reuse the connection. On HTTP/1 the answer is marked
 * `Connection: close`. HTTP/2 has no `Connection` header (RFC 9113 §8.2.2): once the answer is
 * sent, the stream alone is reset with NO_ERROR, which asks the client to stop sending
 * (RFC 9113 §8.1); left open, its unread body would hold the stream until the client gave up.
 */
export function closeIfBodyUnread(outgoing: ServerResponse): void {
  const { req } = outgoing;
  if (req.complete) return;
  if (req.httpVersionMajor < 2) {
    outgoing.setHeader("Connection", "close");
    return;
  }
  // The compatibility response emits `finish` only once the stream closed: wait on the stream's own.
  const { stream } = req as IncomingMessage & { stream?: Http2Stream };
  stream?.once("finish", () => {
    stream.close(0 /* NGHTTP2_NO_ERROR */);
    // Its unread body would keep it open (and buffered) until the session ends.
    stream.destroy();
  });
}

/** Writes a JSON or empty answer to `outgoing`. */
export function writeAnswer(outgoing: ServerResponse, answer: PlainAnswer): void {
  closeIfBodyUnread(outgoing);
  if (answer.kind === "empty") {
    outgoing.writeHead(answer.status, answer.headers).end();
    return;
  }
  const head: Record<string, string | number> = {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(answer.text),
  };
  if (answer.headers !== undefined) Object.assign(head, answer.headers);
  outgoing.writeHead(answer.status, head).end(answer.text);
}

/**
 * Writes the plain 404 of a path that is not the endpoint. Its body is never read, so a request
 * that declares one (chunked, or a non-zero `Content-Length`) gets the connection closed, as any
 * answer before the body does; a bodyless request keeps it (node marks such a request complete
 * only after this runs, so the declaration decides, not `complete`).
 */
export function writeNotFound(outgoing: ServerResponse): void {
  const { headers } = outgoing.req;
  const length = headers["content-length"];
  const declaresBody = headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  if (declaresBody) closeIfBodyUnread(outgoing);
  outgoing.writeHead(404, { "Content-Type": "text/plain", "Content-Length": 9 }).end("Not Found");
}

/**
 * Writes a streamed body (SSE) to the socket as the client reads it, and returns how to end it
 * early (a graceful `end()` after what was written: the server is shutting down). The connection
 * is destroyed when the stream errors, even while a write waits for the socket to drain: that is
 * how a stream that gave up on a client that stopped reading (or whose session ended) lets go of
 * the socket. The client closing the connection cancels the stream.
 */
export function writeStream(
  status: number,
  headers: Headers,
  body: ReadableStream<Uint8Array>,
  outgoing: ServerResponse,
): () => void {
  closeIfBodyUnread(outgoing);
  outgoing.writeHead(status, Object.fromEntries(headers));
  outgoing.flushHeaders();
  const reader = body.getReader();
  const closed = new Promise<void>((resolve) => outgoing.once("close", resolve));
  void closed.then(() => reader.cancel(new Error(CLIENT_GONE)).catch(() => {}));
  // `closed` rejects as soon as the stream errors, even while no read is in progress.
  const errored = reader.closed.then(() => new Promise<never>(() => {}));
  errored.catch(() => {});
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (outgoing.write(value)) continue;
        await Promise.race([new Promise((resolve) => outgoing.once("drain", resolve)), closed, errored]);
        if (outgoing.destroyed) return;
      }
      outgoing.end();
    } catch (error) {
      outgoing.destroy(error instanceof Error ? error : undefined);
    }
  })();
  return () => {
    void reader.cancel(new Error("the server is shutting down")).catch(() => {});
    outgoing.end();
  };
}
