/**
 * stdio framing: newline-delimited JSON. Every message is one line of UTF-8 JSON ended by "\n"; a
 * line never contains a raw newline (JSON escapes "\n" inside strings). U+2028 and U+2029 are not
 * line breaks here: lines are split on the byte 0x0A only, never with `readline`.
 * Spec: basic/transports/stdio.
 */

import type { JSONRPCMessage } from "../../protocol/jsonrpc.js";
import { ERROR_CODES, TsmcpError, type TsmcpErrorCode } from "../../protocol/local-errors.js";

/** The longest line a {@link LineDecoder} accepts by default: 16 MiB, in bytes, "\n" excluded. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BLANK = /^[ \t\r]*$/;

/** Reported by a {@link LineDecoder} for a line longer than its limit; the line is discarded. */
export class LineTooLongError extends TsmcpError {
  override readonly name = "LineTooLongError";
  /** `"ERR_LINE_TOO_LONG"`, this class's entry of {@link ERROR_CODES}. */
  override readonly code: TsmcpErrorCode = ERROR_CODES.LineTooLongError;
  /** The decoder's limit, in bytes. */
  readonly maxLineBytes: number;

  constructor(maxLineBytes: number) {
    super(`a line exceeded the limit of ${maxLineBytes} bytes and was discarded`);
    this.maxLineBytes = maxLineBytes;
  }
}

/** Options of a {@link LineDecoder}. */
export interface LineDecoderOptions {
  /**
   * The longest line accepted, in bytes of UTF-8 before the "\n" (a "\r" before it counts).
   * A positive safe integer; default {@link DEFAULT_MAX_LINE_BYTES}.
   */
  maxLineBytes?: number;
  /**
   * Called once per over-long line, as soon as the limit is crossed; the rest of that line is
   * skipped and decoding resumes after its "\n". Default: the error is dropped.
   */
  onError?: (error: LineTooLongError) => void;
}

/**
 * Splits a byte stream into lines. Feed it chunks with {@link LineDecoder.push}, in order; it
 * returns the lines each chunk completes.
 *
 * - Chunks may end anywhere: mid-line, mid-`\r\n`, or in the middle of a multi-byte UTF-8
 *   character (bytes are joined before decoding).
 * - A trailing "\r" is removed; blank lines (only spaces, tabs, "\r") are skipped.
 * - Invalid UTF-8 decodes to U+FFFD (the JSON parser then decides).
 *
 * @throws TypeError / RangeError from the constructor when `maxLineBytes` is not a positive safe
 *   integer or `onError` is not a function.
 */
export class LineDecoder {
  /** The limit this decoder enforces, in bytes. */
  readonly maxLineBytes: number;
  readonly #onError: ((error: LineTooLongError) => void) | undefined;
  #pieces: Buffer[] = [];
  #pendingBytes = 0;
  #discarding = false;

  constructor(options: LineDecoderOptions = {}) {
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (typeof maxLineBytes !== "number" || !Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer of bytes, got ${String(maxLineBytes)}`);
    }
    if (options.onError !== undefined && typeof options.onError !== "function") {
      throw new TypeError("onError must be a function");
    }
    this.maxLineBytes = maxLineBytes;
    this.#onError = options.onError;
  }

  /** Adds a chunk (a string is encoded as UTF-8) and returns the lines it completes, in order. */
  push(chunk: Buffer | Uint8Array | string): string[] {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : toBuffer(chunk);
    const lines: string[] = [];
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#append(bytes.subarray(start));
        break;
      }
      if (this.#pendingBytes === 0 && !this.#discarding) this.#wholeLine(bytes, start, newline, lines);
      else {
        this.#append(bytes.subarray(start, newline));
        this.#finishLine(lines);
      }
      start = newline + 1;
    }
    return lines;
  }

  /** A line that lies whole in one chunk, `bytes[start, end)`: decoded in place, without copying. */
  #wholeLine(bytes: Buffer, start: number, end: number, lines: string[]): void {
    if (end - start > this.maxLineBytes) {
      this.#onError?.(new LineTooLongError(this.maxLineBytes));
      return;
    }
    const last = end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
    if (last === start) return;
    const line = bytes.toString("utf8", start, last);
    if (!isBlank(line)) lines.push(line);
  }

  /**
   * Ends the stream: returns the last line if it was not terminated by "\n" (empty otherwise) and
   * resets the decoder.
   */
  end(): string[] {
    const lines: string[] = [];
    this.#finishLine(lines);
    return lines;
  }

  #append(segment: Buffer): void {
    if (segment.length === 0 || this.#discarding) return;
    if (this.#pendingBytes + segment.length > this.maxLineBytes) {
      this.#pieces = [];
      this.#pendingBytes = 0;
      this.#discarding = true;
      this.#onError?.(new LineTooLongError(this.maxLineBytes));
      return;
    }
    this.#pieces.push(segment);
    this.#pendingBytes += segment.length;
  }

  #finishLine(lines: string[]): void {
    const pieces = this.#pieces;
    const discarded = this.#discarding;
    this.#pieces = [];
    this.#pendingBytes = 0;
    this.#discarding = false;
    if (discarded || pieces.length === 0) return;
    let bytes = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces);
    if (bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, bytes.length - 1);
    const line = bytes.toString("utf8");
    if (!isBlank(line)) lines.push(line);
  }
}

/** True for a line of only spaces, tabs and "\r" (checked by pattern only when it starts with one). */
function isBlank(line: string): boolean {
  const first = line.charCodeAt(0);
  return (
    (first === 0x20 || first === 0x09 || first === CARRIAGE_RETURN || line.length === 0) && BLANK.test(line)
  );
}

function toBuffer(chunk: Buffer | Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/**
 * One message as a stdio line: its JSON followed by exactly one "\n". `JSON.stringify` escapes
 * every control character, so the only raw "\n" is the terminator; U+2028 and U+2029 stay as they
 * are (valid raw in JSON strings).
 *
 * @throws TypeError when the message cannot be serialised (a cycle or a BigInt).
 */
export function serializeMessage(message: JSONRPCMessage): string {
  return `${JSON.stringify(message)}\n`;
}
