/**
 * Writing JSON-RPC messages to a byte stream as stdio lines: each message is one `write` of one
 * whole line, in the order given, so lines never interleave or split; once the stream asks to
 * wait (`write` returned false) nothing more is written until it emits `drain`.
 * Spec: basic/transports/stdio.
 */
import type { Writable } from "node:stream";
import type { JSONRPCMessage } from "../../protocol/jsonrpc.js";
import { serializeMessage } from "./framing.js";

/** Callbacks of a {@link MessageWriter}. */
export interface MessageWriterOptions {
  /** The stream failed (for example EPIPE: the reader went away); the writer stops writing. */
  onError?: (error: Error) => void;
  /** The stream drained after a congestion: every queued line has been handed to it. */
  onDrain?: () => void;
}

/**
 * A line writer over one `Writable`. It listens for the stream's `error` (so a broken pipe never
 * crashes the process) until {@link MessageWriter.detach} is called.
 *
 * @throws TypeError from the constructor when `stream` has no `write` method.
 */
export class MessageWriter {
  readonly #stream: Writable;
  readonly #options: MessageWriterOptions;
  readonly #queue: string[] = [];
  readonly #idleWaiters: (() => void)[] = [];
  #waitingForDrain = false;
  #failure: Error | undefined;
  #detached = false;

  constructor(stream: Writable, options: MessageWriterOptions = {}) {
    if (typeof stream?.write !== "function") throw new TypeError("MessageWriter: stream must be a Writable");
    this.#stream = stream;
    this.#options = { ...options };
    stream.on("error", this.#onError);
  }

  /** True while lines wait for the stream's `drain`. */
  get congested(): boolean {
    return this.#waitingForDrain;
  }

  /** The error that stopped the writer, if any. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** True when messages can still be written: the stream has not failed or ended, the writer is attached. */
  get writable(): boolean {
    return (
      this.#failure === undefined && !this.#detached && !this.#stream.destroyed && !this.#stream.writableEnded
    );
  }

  /**
   * Serialises `message` and writes it (or queues it behind a congestion). Returns false, dropping
   * the message, when the writer can no longer write.
   *
   * @throws TypeError when the message cannot be serialised (a cycle or a BigInt).
   */
  write(message: JSONRPCMessage): boolean {
    const line = serializeMessage(message);
    if (!this.writable) return false;
    if (this.#waitingForDrain) this.#queue.push(line);
    else this.#send(line);
    return true;
  }

  /** Resolves once every queued line has been handed to the stream, or the writer stopped. */
  idle(): Promise<void> {
    if (!this.#waitingForDrain || !this.writable) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Stops writing, drops queued lines and removes the writer's listeners from the stream. */
  detach(): void {
    if (this.#detached) return;
    this.#detached = true;
    this.#stream.off("error", this.#onError);
    this.#stop();
  }

  #send(line: string): void {
    if (!this.#stream.write(line)) {
      this.#waitingForDrain = true;
      this.#stream.once("drain", this.#onDrain);
    }
  }

  readonly #onDrain = (): void => {
    this.#waitingForDrain = false;
    while (this.#queue.length > 0 && !this.#waitingForDrain && this.writable) {
      this.#send(this.#queue.shift() as string);
    }
    if (this.#waitingForDrain) return;
    this.#wakeIdle();
    this.#options.onDrain?.();
  };

  readonly #onError = (error: Error): void => {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#stop();
    this.#options.onError?.(error);
  };

  #stop(): void {
    this.#stream.off("drain", this.#onDrain);
    this.#queue.length = 0;
    this.#waitingForDrain = false;
    this.#wakeIdle();
  }

  #wakeIdle(): void {
    for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }
}
