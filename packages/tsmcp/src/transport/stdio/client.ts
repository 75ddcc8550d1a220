/**
 * The client side of stdio: a `Transport` that runs an MCP server as a child process, writes
 * requests to its stdin and correlates the lines on its stdout: responses by id, notifications by
 * subscription id, progress token, or else to the transport. Spec: basic/transports/stdio,
 * basic/patterns/cancellation, basic/patterns/progress, basic/patterns/subscriptions.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { PassThrough, type Readable } from "node:stream";
import { McpError } from "../../protocol/errors.js";
import {
  isRequestId,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  parseMessage,
} from "../../protocol/jsonrpc.js";
import { ERROR_CODES, type TsmcpErrorCode } from "../../protocol/local-errors.js";
import { InFlightRequests } from "../in-flight.js";
import { IncomingRequests } from "../incoming.js";
import {
  type IncomingRequestOptions,
  type ProtocolEra,
  SessionExpiredError,
  type Transport,
  TransportError,
  type TransportRequestOptions,
} from "../transport.js";
import {
  checkParams,
  describeExit,
  type StdioClientTransportParams,
  type StdioStderrMode,
  spawnFailure,
} from "./client-params.js";
import { defaultInheritedEnvironment } from "./environment.js";
import { DEFAULT_MAX_LINE_BYTES, LineDecoder } from "./framing.js";
import {
  DEFAULT_CLOSE_GRACE_PERIOD_MS,
  DEFAULT_TERMINATE_GRACE_PERIOD_MS,
  type ProcessExit,
  settlesWithin,
  terminateProcess,
} from "./terminate.js";
import { MessageWriter } from "./writer.js";

export type { StdioClientTransportParams, StdioStderrMode } from "./client-params.js";

/** Raised for every in-flight request when the server process ends (or never started). */
export class ServerProcessExitedError extends TransportError {
  override readonly name: string = "ServerProcessExitedError";
  /** `"ERR_SERVER_PROCESS_EXITED"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.ServerProcessExitedError;
  /** The exit code; null when a signal ended the process or it never started. */
  readonly exitCode: number | null;
  /** The signal that ended the process, if any. */
  readonly signal: NodeJS.Signals | null;

  constructor(message: string, exit: ProcessExit, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exit.exitCode;
    this.signal = exit.signal;
  }
}

/** The running child and what we attached to it. */
interface Running {
  readonly child: ChildProcess;
  readonly writer: MessageWriter;
  readonly started: Promise<void>;
  /** Resolves once the process has exited and its stdio streams have closed. */
  readonly closed: Promise<void>;
  spawnError: TransportError | undefined;
}

/**
 * A {@link Transport} to an MCP server run as a child process over stdio.
 *
 * - The process starts on the first `request`/`notify`, or earlier with {@link start}. If it exits
 *   unexpectedly, in-flight requests reject with {@link ServerProcessExitedError} and the next
 *   request starts a new process (spec: the client SHOULD restart; listen requests must be
 *   re-sent). At `legacy` the 2025-era session ended with the process, so the next request or
 *   notification other than `initialize` rejects with `SessionExpiredError` instead (the session
 *   then initializes anew, which starts the new process).
 * - Responses are matched by id; an id (or a `_meta.progressToken`) already in flight is refused.
 *   Notifications go to the request they belong to (its `onNotification`): by
 *   `_meta["io.modelcontextprotocol/subscriptionId"]` (listen streams), by the `progressToken` the
 *   request's `_meta` carried, or by the `requestId` of a server-sent `notifications/cancelled`
 *   (which also ends that request with a TransportError: no response follows). The rest (log
 *   messages included), and those for a request without `onNotification`, go to the transport's
 *   {@link onNotification}.
 * - Requests from the server (a 2025-era server's `elicitation/create`, `sampling/createMessage`,
 *   `roots/list`, `ping`) are answered through {@link onRequest}, -32601 when it is unset: JSON-RPC
 *   requires a response to every request. A server's `notifications/cancelled` naming one of them
 *   aborts its handler's signal; at `legacy` it never ends a request of the client (the server's
 *   ids and the client's are separate spaces).
 * - Aborting a request's `signal` sends `notifications/cancelled {requestId, reason}` and rejects
 *   with the signal's reason; a late response is ignored.
 * - `close()` ends the child's stdin, waits `closeGracePeriodMs`, then SIGTERM, waits
 *   `terminateGracePeriodMs`, then SIGKILL, and resolves once the process is reaped.
 *
 * @throws TypeError / RangeError from the constructor for malformed params.
 */
export class StdioClientTransport implements Transport {
  /** stdio has no HTTP headers. */
  readonly sendsHttpHeaders = false;
  /** stdio talks to its server over pipes. */
  readonly networkTransport = "pipe";
  /** Notifications that belong to no in-flight request. */
  onNotification?: (notification: JSONRPCNotification) => void;
  /**
   * Answers a request the server sends on a 2025-era connection (`elicitation/create`,
   * `sampling/createMessage`, `roots/list`, `ping`). Set by the session. Resolves with the result
   * object, or rejects with an `McpError` whose code, message and data become the JSON-RPC error
   * sent back (any other rejection answers -32603). When unset, the transport answers -32601.
   */
  onRequest?: (request: JSONRPCRequest, options: IncomingRequestOptions) => Promise<Record<string, unknown>>;
  /**
   * Problems that belong to no request: unparseable or over-long lines from the server, error
   * responses without an id, write failures, throwing callbacks.
   * Default: dropped. The server's stderr is never reported here.
   */
  onError?: (error: Error) => void;
  /** The server's stderr when `stderr: "pipe"` (across restarts; ends on `close()`), else null. */
  readonly stderr: Readable | null;

  readonly #command: string;
  readonly #args: readonly string[];
  readonly #env: Record<string, string>;
  readonly #cwd: string | undefined;
  readonly #stderrMode: StdioStderrMode;
  readonly #closeGracePeriodMs: number;
  readonly #terminateGracePeriodMs: number;
  readonly #maxLineBytes: number;
  readonly #stderrOut: PassThrough | undefined;
  readonly #requests = new InFlightRequests({
    onCancel: (requestId, reason) => {
      if (!this.#running?.writer.writable) return;
      this.#running.writer.write({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason },
      });
    },
    onHandlerError: (error) => this.#report(error),
  });
  readonly #incoming: IncomingRequests;
  #era: ProtocolEra["kind"] = "modern";
  #running: Running | undefined;
  /** True once a process has been started (a later start is a restart). */
  #started = false;
  #closing: Promise<void> | undefined;

  constructor(params: StdioClientTransportParams) {
    checkParams(params);
    this.#command = params.command;
    this.#args = Object.freeze([...(params.args ?? [])]);
    this.#env = { ...defaultInheritedEnvironment(), ...params.env };
    this.#cwd = params.cwd;
    this.#stderrMode = params.stderr ?? "inherit";
    this.#closeGracePeriodMs = params.closeGracePeriodMs ?? DEFAULT_CLOSE_GRACE_PERIOD_MS;
    this.#terminateGracePeriodMs = params.terminateGracePeriodMs ?? DEFAULT_TERMINATE_GRACE_PERIOD_MS;
    this.#maxLineBytes = params.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    this.#incoming = new IncomingRequests(params.maxConcurrentServerRequests);
    this.#stderrOut = this.#stderrMode === "pipe" ? new PassThrough() : undefined;
    this.stderr = this.#stderrOut ?? null;
  }

  /** The server process id while one runs, else undefined. */
  get pid(): number | undefined {
    return this.#running?.child.pid;
  }

  /**
   * Records the era. At `legacy`, a server's `notifications/cancelled` concerns only the server's
   * own requests, and once the process has exited only `initialize` starts a new one.
   */
  setProtocolEra(era: ProtocolEra): void {
    this.#era = era.kind;
  }

  /**
   * Starts the server process if none runs. Resolves once it has spawned. Idempotent while it runs.
   *
   * @throws TransportError when the transport is closed or the process cannot start (the message
   *   names the command; ENOENT = not found).
   */
  start(): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(new TransportError("transport is closed"));
    try {
      this.#running ??= this.#spawn();
    } catch (error) {
      return Promise.reject(spawnFailure(this.#command, this.#cwd, error as NodeJS.ErrnoException));
    }
    return this.#running.started;
  }

  /**
   * Writes `request` to the server and resolves with its response.
   *
   * @throws TypeError when `request.id` is not a string or integer.
   * @throws TransportError when the transport is closed, the id (or the `_meta.progressToken`) is
   *   already in flight, the process cannot start, or it exits first
   *   ({@link ServerProcessExitedError}); SessionExpiredError at `legacy` when the process has
   *   exited and `request` is not `initialize`; the signal's reason when `signal` aborts.
   */
  async request(request: JSONRPCRequest, options: TransportRequestOptions = {}): Promise<JSONRPCResponse> {
    if (!isRequestId(request?.id) || typeof request.method !== "string") {
      throw new TypeError("StdioClientTransport.request: request needs a string or integer id and a method");
    }
    if (this.#closing !== undefined) throw new TransportError("transport is closed");
    if (request.method !== "initialize") this.#checkSession();
    const inFlight = this.#requests.add(request, options);
    try {
      await this.start();
      if (inFlight.active) {
        if (!this.#running?.writer.write(request)) {
          throw new TransportError("cannot write to the MCP server: its stdin is closed");
        }
        inFlight.markWritten();
      }
    } catch (error) {
      inFlight.fail(error);
    }
    return inFlight.response;
  }

  /**
   * Writes a notification to the server. Resolves once it is handed to the child's stdin.
   *
   * @throws TypeError for a message with an id or without a method; TransportError when the
   *   transport is closed or the process cannot start or be written to; SessionExpiredError at
   *   `legacy` when the process has exited.
   */
  async notify(notification: JSONRPCNotification): Promise<void> {
    if (typeof notification?.method !== "string" || "id" in notification) {
      throw new TypeError("StdioClientTransport.notify: a notification needs a method and no id");
    }
    if (this.#closing !== undefined) throw new TransportError("transport is closed");
    this.#checkSession();
    await this.start();
    if (!this.#running?.writer.write(notification)) {
      throw new TransportError("cannot write to the MCP server: its stdin is closed");
    }
  }

  /**
   * Rejects in-flight requests with TransportError("transport closed") and ends the server
   * process (stdin EOF, then SIGTERM, then SIGKILL), resolving once it has exited and been reaped
   * and its remaining output has been read (waiting at most `terminateGracePeriodMs` more for
   * pipes a grandchild keeps open). Ends {@link stderr}. Idempotent: every call returns the same
   * promise. Never rejects.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#requests.rejectAll(new TransportError("transport closed"));
    this.#incoming.abortAll(new TransportError("transport closed"));
    const running = this.#running;
    if (running !== undefined) {
      await running.started.catch(() => {});
      if (running.spawnError === undefined) {
        running.writer.detach();
        await terminateProcess(running.child, {
          closeGracePeriodMs: this.#closeGracePeriodMs,
          terminateGracePeriodMs: this.#terminateGracePeriodMs,
        });
        // Let the last stdout/stderr bytes arrive, unless a grandchild holds the pipes open.
        await settlesWithin(running.closed, this.#terminateGracePeriodMs);
        running.child.stdout?.destroy();
        running.child.stderr?.unpipe();
        running.child.stderr?.destroy();
      }
    }
    this.#stderrOut?.end();
  }

  /**
   * At `legacy`, a restarted process would know nothing of the handshake (its capabilities, its
   * version), so the session must initialize it first. Spec (2025-11-25): basic/lifecycle.
   */
  #checkSession(): void {
    if (this.#era === "legacy" && this.#started && this.#running === undefined) {
      throw new SessionExpiredError(
        `the MCP server process "${this.#command}" exited, and its session with it`,
      );
    }
  }

  #spawn(): Running {
    this.#started = true;
    const child = spawn(this.#command, this.#args, {
      cwd: this.#cwd,
      env: this.#env,
      stdio: ["pipe", "pipe", this.#stderrMode],
      windowsHide: true,
    });
    const writer = new MessageWriter(child.stdin as NonNullable<ChildProcess["stdin"]>, {
      onError: (error) =>
        this.#report(new TransportError("cannot write to the MCP server", { cause: error })),
    });
    const decoder = new LineDecoder({
      maxLineBytes: this.#maxLineBytes,
      onError: (error) => this.#report(new TransportError(`the MCP server sent ${error.message}`)),
    });
    let onSpawn!: () => void;
    let onSpawnError!: (error: Error) => void;
    const started = new Promise<void>((resolve, reject) => {
      onSpawn = resolve;
      onSpawnError = reject;
    });
    let onClosed!: () => void;
    const closed = new Promise<void>((resolve) => {
      onClosed = resolve;
    });
    const running: Running = { child, writer, started, closed, spawnError: undefined };
    const onData = (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) this.#onLine(line);
    };
    const onStreamError = (error: Error) =>
      this.#report(new TransportError("the MCP server's stdio failed", { cause: error }));
    const onError = (error: NodeJS.ErrnoException) => {
      if (running.spawnError === undefined && child.pid === undefined) {
        running.spawnError = spawnFailure(this.#command, this.#cwd, error);
        onSpawnError(running.spawnError);
      } else {
        this.#report(new TransportError("the MCP server process failed", { cause: error }));
      }
    };
    const onClose = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      child.stdout?.off("data", onData);
      child.stdout?.off("error", onStreamError);
      child.stderr?.off("error", onStreamError);
      child.off("spawn", onSpawn);
      child.off("error", onError);
      child.off("close", onClose);
      writer.detach();
      if (this.#running === running) this.#running = undefined;
      const failure =
        running.spawnError ??
        new ServerProcessExitedError(
          `the MCP server process "${this.#command}" ${describeExit({ exitCode, signal })}`,
          { exitCode, signal },
        );
      this.#requests.rejectAll(failure);
      this.#incoming.abortAll(failure);
      onClosed();
    };
    started.catch(() => {});
    child.once("spawn", onSpawn);
    child.on("error", onError);
    child.on("close", onClose);
    // The writer reports write failures while attached; this keeps a late EPIPE (after the writer
    // detached, while the child is being shut down) from becoming an uncaught exception.
    child.stdin?.on("error", () => {});
    child.stdout?.on("data", onData);
    child.stdout?.on("error", onStreamError);
    child.stderr?.on("error", onStreamError);
    if (this.#stderrOut !== undefined) child.stderr?.pipe(this.#stderrOut, { end: false });
    return running;
  }

  #onLine(line: string): void {
    const parsed = parseMessage(line);
    switch (parsed.kind) {
      case "invalid":
        this.#report(new TransportError(`the MCP server sent an invalid message: ${parsed.error.message}`));
        return;
      case "request":
        void this.#answer(parsed.message);
        return;
      case "response": {
        const { message } = parsed;
        if (message.id === undefined) {
          if ("error" in message) this.#report(McpError.fromObject(message.error));
          return;
        }
        // A response for no request in flight is a late answer to a cancelled one: ignored
        // (basic/patterns/cancellation: a response may cross the cancellation).
        this.#requests.resolve(message);
        return;
      }
      case "notification": {
        const { message } = parsed;
        if (this.#incoming.cancel(message)) return;
        if (this.#era === "legacy" && message.method === "notifications/cancelled") {
          this.#notifyTransport(message);
          return;
        }
        this.#requests.deliver(message, this.onNotification);
        return;
      }
    }
  }

  /** Answers a server request through `onRequest` and writes the answer to the same process. */
  async #answer(request: JSONRPCRequest): Promise<void> {
    const running = this.#running;
    const response = await this.#incoming.answer(request, this.onRequest);
    if (response === undefined || this.#running !== running || !running?.writer.writable) return;
    running.writer.write(response);
  }

  /** Hands a notification to the transport's `onNotification`, reporting a throw. */
  #notifyTransport(notification: JSONRPCNotification): void {
    try {
      this.onNotification?.(notification);
    } catch (error) {
      this.#report(new TransportError("a notification handler threw", { cause: error }));
    }
  }

  #report(error: Error): void {
    try {
      this.onError?.(error);
    } catch {
      // A throwing onError has nowhere left to go.
    }
  }
}
