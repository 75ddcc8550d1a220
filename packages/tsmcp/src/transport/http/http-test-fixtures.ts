/**
 * Shared fixtures of the Streamable HTTP tests (not part of the package): the handlers of a real
 * low-level `Server` with a few tools (each test file builds the `Server` itself, since the
 * transport layer may not import the server layer outside tests), a dispatcher wrapper that records
 * what the transport handed it, request builders, a raw `node:http` client (for `Host`, `Origin`
 * and chunked bodies, which `fetch` will not send as given) and an SSE reader on `eventsource-parser`.
 */
import { request as httpRequest } from "node:http";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { McpError } from "../../protocol/errors.js";
import type { JSONRPCNotification, JSONRPCRequest, JSONRPCResponse } from "../../protocol/jsonrpc.js";
import type {
  CallToolRequestParams,
  CallToolResult,
  ListToolsResult,
  ReadResourceRequestParams,
  ReadResourceResult,
} from "../../protocol/schema/methods.js";
import type { Dispatcher, RequestEnvironment } from "../dispatcher.js";

/** The `_meta` every 2026-07-28 request needs. */
export const META = Object.freeze({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
});

/** A promise with its resolver exposed. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

/** A fresh {@link Deferred}. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** One call the recording dispatcher saw. */
export interface HandledCall {
  message: JSONRPCRequest | JSONRPCNotification;
  env: RequestEnvironment;
  result: Promise<JSONRPCResponse | undefined>;
}

/** What the tests use of the low-level `Server` (it satisfies this structurally). */
export interface FixtureServer extends Dispatcher {
  notifyListChanged(kind: "tools" | "prompts" | "resources"): void;
  close(): void;
}

/** What the fixture's handlers use of the request context. */
interface FixtureContext {
  readonly signal: AbortSignal;
  sendProgress(update: { progress: number; total?: number }): void;
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * `Server` options with tools `echo` (echoes `arguments.text`), `progress` (two progress updates,
 * then a result), `wait` (one progress update, then waits for cancellation), `fail` (throws),
 * `app-error` (an application-defined error code), `needs-sampling` (-32021: the client did not
 * declare sampling) and `日本語`; `resources/read` answers any URI.
 */
function fixtureOptions(waitStarted: Deferred<void>, waitAborted: Deferred<unknown>) {
  return {
    logger: silent,
    onListTools: (): ListToolsResult => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
    onCallTool: async (ctx: FixtureContext, params: CallToolRequestParams): Promise<CallToolResult> => {
      switch (params.name) {
        case "echo":
        case "日本語":
          return { content: [{ type: "text", text: String(params.arguments?.text ?? params.name) }] };
        case "progress":
          ctx.sendProgress({ progress: 1, total: 2 });
          ctx.sendProgress({ progress: 2, total: 2 });
          return { content: [{ type: "text", text: "done" }] };
        case "wait":
          ctx.sendProgress({ progress: 1 });
          waitStarted.resolve();
          await new Promise<void>((resolve) => {
            if (ctx.signal.aborted) resolve();
            ctx.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          waitAborted.resolve(ctx.signal.reason);
          return { content: [{ type: "text", text: "cancelled" }] };
        case "fail":
          throw new Error("secret database password is hunter2");
        case "app-error":
          throw new McpError(1234, "application says no");
        case "needs-sampling":
          throw McpError.of("MISSING_REQUIRED_CLIENT_CAPABILITY", "Client did not declare sampling", {
            requiredCapabilities: { sampling: {} },
          });
        default:
          throw new McpError(-32602, `Unknown tool: ${params.name}`);
      }
    },
    onReadResource: (_ctx: unknown, params: ReadResourceRequestParams): ReadResourceResult => ({
      contents: [{ uri: params.uri, text: "hello" }],
    }),
  };
}

/** The options the fixture passes to `new Server(name, options)`. */
export type FixtureServerOptions = ReturnType<typeof fixtureOptions>;

/** A fixture server plus what it observed. */
export interface Fixture {
  server: FixtureServer;
  /** The server, wrapped so that each call's environment and outcome can be inspected. */
  dispatcher: Dispatcher;
  calls: HandledCall[];
  /** Resolves when the `wait` tool starts. */
  waitStarted: Deferred<void>;
  /** Resolves with the abort reason when the `wait` tool's `ctx.signal` aborts. */
  waitAborted: Deferred<unknown>;
  /** Resolves with the next call the dispatcher receives. */
  nextCall(): Promise<HandledCall>;
}

/**
 * Builds the fixture around the server `makeServer` builds from the fixture's options; pass
 * `(options) => new Server("http-fixture", options)`.
 */
export function createFixture(makeServer: (options: FixtureServerOptions) => FixtureServer): Fixture {
  const waitStarted = deferred<void>();
  const waitAborted = deferred<unknown>();
  const server = makeServer(fixtureOptions(waitStarted, waitAborted));
  const calls: HandledCall[] = [];
  const waiting: ((call: HandledCall) => void)[] = [];
  const dispatcher: Dispatcher = {
    handle(message, env) {
      const call = { message, env, result: server.handle(message, env) };
      calls.push(call);
      waiting.shift()?.(call);
      return call.result;
    },
  };
  return {
    server,
    dispatcher,
    calls,
    waitStarted,
    waitAborted,
    nextCall: () => new Promise((resolve) => waiting.push(resolve)),
  };
}

/** A 2026-07-28 request with the required `_meta` (override or drop it with `meta`). */
export function rpc(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> | null = META,
): JSONRPCRequest {
  return { jsonrpc: "2.0", id, method, params: meta === null ? params : { ...params, _meta: meta } };
}

/** The headers a correct client sends for `tools/list`-like requests (no `Mcp-Name`). */
export function baseHeaders(method: string): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": method,
  };
}

/** POSTs `body` (JSON-encoded unless a string) with exactly `headers`, through `fetch`. */
export function post(url: URL, body: unknown, headers: Record<string, string>, signal?: AbortSignal) {
  return fetch(url, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** A response read by {@link rawRequest}. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * An HTTP request through `node:http`, which sends `Host`, `Origin` and `Transfer-Encoding` as
 * given. `chunks` are written one by one (a chunked upload unless `Content-Length` is set);
 * with `endBody: false` the body is left open (to prove a refusal came before reading it).
 */
export function rawRequest(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; chunks?: string[]; endBody?: boolean },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? "POST", headers: options.headers ?? {} },
      (res) => {
        res.setEncoding("utf8");
        let body = "";
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          req.destroy();
        });
      },
    );
    req.on("error", reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    if (options.endBody !== false) req.end();
    else req.flushHeaders();
  });
}

/** Reads a streaming SSE response with `eventsource-parser`, one event or comment at a time. */
export class SseReader {
  /** True once the server ended the stream. */
  ended = false;
  readonly #events: EventSourceMessage[] = [];
  readonly #comments: string[] = [];
  readonly #reader: ReadableStreamDefaultReader<string>;
  readonly #parser = createParser({
    onEvent: (event) => this.#events.push(event),
    onComment: (comment) => this.#comments.push(comment),
  });

  constructor(response: Response) {
    if (response.body === null) throw new Error("response has no body");
    this.#reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next event, or `undefined` when the stream ended first. */
  async next(): Promise<EventSourceMessage | undefined> {
    while (this.#events.length === 0 && !this.ended) await this.#pull();
    return this.#events.shift();
  }

  /** The next event's data, parsed as JSON (fails the test when the stream ended instead). */
  async nextMessage(): Promise<Record<string, unknown>> {
    const event = await this.next();
    if (event === undefined) throw new Error("the SSE stream ended");
    return JSON.parse(event.data) as Record<string, unknown>;
  }

  /** The next comment line, or `undefined` when the stream ended first. */
  async nextComment(): Promise<string | undefined> {
    while (this.#comments.length === 0 && !this.ended) await this.#pull();
    return this.#comments.shift();
  }

  /** Reads to the end of the stream. */
  async rest(): Promise<EventSourceMessage[]> {
    while (!this.ended) await this.#pull();
    return this.#events.splice(0);
  }

  /** Closes the stream from the client side (HTTP cancellation). */
  async cancel(): Promise<void> {
    await this.#reader.cancel();
  }

  async #pull(): Promise<void> {
    const { done, value } = await this.#reader.read();
    if (done) this.ended = true;
    else this.#parser.feed(value);
  }
}
